-- agentls.chat: the chat buffer (filetype `agentls-chat`, rendered as markdown: markdown.lua). It renders the
-- current session's transcript (streamed text, one line per tool call with its status,
-- refusals marked), the plan checklist and token usage above a prompt area; `<CR>` in normal
-- mode sends the prompt area's text. Untrusted live text (a running call's newest output line,
-- the turn's activity) is never put in the markdown: its line holds only `⋯`, and the text is
-- drawn after it as virtual text (plain_line.lua), cut to the window.
local wrap = require('agentls.wrap')
local plain = require('agentls.plain_line')
local problems = require('agentls.problems')
local summary = require('agentls.tool_summary')
local M = {}

M.marker = '──── prompt: type below, <CR> in normal mode sends ────'
--- The line under the transcript while a turn runs (nothing else shows that the model is
--- thinking before its first word).
M.working = '_… working (:Agentls cancel stops it)_'
--- What a line of live text holds in the buffer (the text is virtual text after it).
M.live_mark = '⋯'

local Chat = {}
Chat.__index = Chat

--- A new, empty chat model; `on_send(text)` is called with the prompt area's text.
function M.new(on_send)
  return setmetatable({ entries = {}, tools = {}, plan = nil, usage = nil, mode = nil, title = nil, bufnr = nil, on_send = on_send, pending = false }, Chat)
end

--- Forgets the transcript (a new or loaded session).
function Chat:reset(title)
  self.entries, self.tools, self.plan, self.usage, self.title, self.working = {}, {}, nil, nil, title, false
  self:render()
end

--- Shows (or removes) the working line under the transcript.
function Chat:set_working(on)
  if self.working ~= on then
    self.working = on
    self.activity = nil
    self:render()
  end
end

--- Shows what the running turn does now under the working line (the server's work-done
--- progress: "thinking…", "running grep…", a running command's newest output line), or nothing.
---@param text? string
function Chat:set_activity(text)
  if self.working and self.activity ~= text then
    self.activity = text
    self:render()
  end
end

local function add(self, kind, text)
  local last = self.entries[#self.entries]
  if last and last.kind == kind and (kind == 'agent' or kind == 'thought') then
    last.text = last.text .. text
  else
    table.insert(self.entries, { kind = kind, text = text })
  end
  self:render()
end

--- Adds the user's prompt.
function Chat:user(text)
  add(self, 'user', text)
end

--- Adds a line from the plugin (stop reasons, errors).
function Chat:note(text)
  add(self, 'note', text)
end

local function size(n)
  if n < 1000 then
    return string.format('%d B', n)
  elseif n < 1000000 then
    return string.format('%.1f KB', n / 1000)
  end
  return string.format('%.1f MB', n / 1000000)
end

--- The one line for `instructions_loaded`: "Loaded project instructions: AGENTS.md (1.2 KB),
--- src/AGENTS.md (300 B, cut)".
function M.instructions_text(files)
  local parts = {}
  for _, f in ipairs(files or {}) do
    local cut = (f.cut == true) and ', cut' or ''
    table.insert(parts, string.format('%s (%s%s)', tostring(f.path), size(tonumber(f.bytes) or 0), cut))
  end
  return 'Loaded project instructions: ' .. table.concat(parts, ', ')
end

local function given(v)
  return v ~= nil and v ~= vim.NIL
end

local function is_task(t)
  return t.title == 'task' or (t.title or ''):sub(1, 5) == 'task '
end

--- The last 8 characters of a session id: how a sub-agent is named in the chat and in logs.
function M.short_id(id)
  if type(id) ~= 'string' then
    return ''
  end
  return id:sub(-8)
end

--- A `task` call's result (`rawOutput`, a table or its JSON text: `{success, result: {status,
--- turns, tokens, session}}`) as `{status, tokens, turns}`; nil when it is not one.
function M.task_result(raw)
  if type(raw) == 'string' then
    local ok, v = pcall(vim.fn.json_decode, raw)
    raw = ok and v or nil
  end
  if type(raw) ~= 'table' then
    return nil
  end
  local r = type(raw.result) == 'table' and raw.result or raw
  if type(r.status) ~= 'string' then
    return nil
  end
  return { status = r.status, tokens = tonumber(r.tokens), turns = tonumber(r.turns) }
end

-- The entry of a tool call: a sub-agent's call (parentToolCallId) goes under its task call's
-- entry (made as a placeholder when the child's call comes first), never into the transcript.
local function tool_entry(self, u)
  local t = self.tools[u.toolCallId]
  if t then
    return t
  end
  t = { kind = 'tool', title = u.toolCallId }
  self.tools[u.toolCallId] = t
  if not given(u.parentToolCallId) then
    table.insert(self.entries, t)
    return t
  end
  local parent = self.tools[u.parentToolCallId]
  if not parent then
    parent = { kind = 'tool', title = 'task', status = 'in_progress' }
    self.tools[u.parentToolCallId] = parent
    table.insert(self.entries, parent)
  end
  parent.children = parent.children or {}
  t.short = M.short_id(given(u.childSessionId) and u.childSessionId or nil)
  parent.short = parent.short or t.short
  table.insert(parent.children, t)
  return t
end

--- Applies one `agent/update` payload.
function Chat:update(u)
  local kind = u.sessionUpdate
  if kind == 'agent_message_chunk' then
    add(self, 'agent', (u.content or {}).text or '')
  elseif kind == 'agent_thought_chunk' then
    add(self, 'thought', (u.content or {}).text or '')
  elseif kind == 'tool_call' then
    local t = tool_entry(self, u)
    t.title, t.status = u.title or t.title or '?', u.status or t.status
    if given(u.rawInput) then
      t.input = u.rawInput -- the pending call has it, the in_progress one not
    end
    if type(u.name) == 'string' then
      t.name = u.name -- a loaded session's call (replay)
    end
    self:render()
  elseif kind == 'tool_call_update' then
    local t = tool_entry(self, u)
    t.status = u.status or t.status
    if u.status == 'in_progress' then
      -- a running call's progress (experimental.agent.toolCallProgress): its newest line
      local c = type(u.content) == 'table' and u.content[1]
      local text = type(c) == 'table' and type(c.content) == 'table' and c.content.text
      if type(text) == 'string' then
        t.live = plain.clean(text)
        return self:render()
      end
    else
      t.live = nil
    end
    if given(u.rawOutput) then
      t.output = u.rawOutput
    end
    if u.refusal and u.refusal ~= vim.NIL then
      t.refused = true
    end
    if is_task(t) and u.status ~= 'in_progress' and u.status ~= 'pending' then
      t.result = M.task_result(u.rawOutput)
    end
    -- an edit's new problems (problems.lua): under its line, and :Agentls problems' list
    -- (a clean edit, with diagnostics but none new, empties that list)
    local ps = problems.from_result(u.rawOutput)
    local r = type(u.rawOutput) == 'table' and u.rawOutput.result
    if type(r) == 'table' and type(r.diagnostics) == 'table' then
      self.problems = ps
    end
    t.problems = ps
    self:render()
  elseif kind == 'plan' then
    -- a refused tick (problems.lua): why, under its step, and :Agentls problems' list
    local refused = problems.from_refusal(u.tickRefused)
    self.plan = { file = u.planFile, entries = u.entries or {}, refused = refused }
    if refused then
      self.problems = refused
    end
    self:render()
  elseif kind == 'usage_update' then
    local children, total = self.usage and self.usage.children, self.usage and self.usage.total
    self.usage = u
    if not given(u.children) then
      u.children = children -- an update without them (the root's own request) keeps the last ones
    end
    if not given(u.total) then
      u.total = total
    end
    for _, c in ipairs(given(u.children) and u.children or {}) do
      local t = self.tools[c.toolCallId]
      if t then
        t.tokens = (tonumber(c.inputTokens) or 0) + (tonumber(c.outputTokens) or 0)
      end
    end
    self:render()
  elseif kind == 'current_mode_update' then
    self.mode = u.currentModeId
    self:render()
  elseif kind == 'instructions_loaded' then
    add(self, 'note', M.instructions_text(u.files))
  elseif kind == 'session_info_update' then
    if type(u.title) == 'string' then
      self.title = u.title
    end
    self:render()
  end
end

--- Ends every call the chat still shows running, none of which will get a result: the server
--- exited during the turn, or a loaded session's call has none (it was killed while the call ran).
--- Each reads " … interrupted" and its live line goes.
function Chat:interrupt_running()
  for _, t in pairs(self.tools) do
    if t.status == 'in_progress' or t.status == 'pending' then
      t.status, t.interrupted, t.live = 'failed', true, nil
    end
  end
  self:render()
end

M.answer_text = summary.answer_text
M.answered = summary.answered

--- Shows the user's answers to `questions` as text under the tool call asking them: call
--- `tool_call_id` (a permission's `toolCallId`) when the chat has it, else the last call still
--- running, else as lines of their own.
function Chat:answered(questions, answers, dismissed, tool_call_id)
  local qa = M.answered(questions, answers, dismissed)
  if #qa == 0 then
    return
  end
  local own = type(tool_call_id) == 'string' and self.tools[tool_call_id]
  if own then
    own.qa = qa
    return self:render()
  end
  for i = #self.entries, 1, -1 do
    local e = self.entries[i]
    if e.kind == 'tool' and (e.status == 'in_progress' or e.status == 'pending') then
      e.qa = qa
      return self:render()
    end
  end
  table.insert(self.entries, { kind = 'qa', qa = qa })
  self:render()
end

local function split(text)
  return vim.split(text, '\n', true)
end

-- The questions and answers of a call: "    ? Which port?" then "    → 8080"; under a
-- sub-agent's call `depth` levels down, four spaces more a level.
local function qa_lines(out, qa, depth)
  local indent = string.rep('    ', (depth or 0) + 1)
  for _, x in ipairs(qa or {}) do
    table.insert(out, indent .. '? ' .. x.question)
    for i, l in ipairs(vim.split(x.answer, '\n', true)) do
      table.insert(out, indent .. (i == 1 and '→ ' or '  ') .. l)
    end
  end
end

-- A tool call's line (tool_summary.lua: "Edited app.txt +1 −1", "Ran `make` ✓ (exit 0)"), and
-- under a task call its sub-agent's calls, indented (four spaces a level) and prefixed with the
-- sub-agent's short id: "      ↳ [1a2b3c4d] Read app.txt". `rows` maps each line to its call
-- (`:Agentls details`, `K`); `links` maps each line naming a file (the call's, a problem's) to
-- where it leads and the bytes the file name takes ({file, line?, find?, col, end_col}; `gf`).
-- A running call's newest progress line goes under it: a line of `⋯`, the text in `shown`
-- (line -> {text, col: the display column it starts at, row: the call's line}).
local function tool_lines(out, e, depth, rows, links, shown)
  local s = summary.summarize(e)
  local text = summary.summary_text(s)
  if e.result and e.result.status ~= 'completed' then
    text = text .. ' (' .. e.result.status .. ')'
  end
  text = text .. summary.state_text(e)
  local tokens = e.tokens or (e.result and e.result.tokens)
  if is_task(e) and tokens then
    text = string.format('%s · %d tokens', text, tokens)
  end
  local prefix = depth == 0 and '  • ' or string.format('%s  ↳ [%s] ', string.rep('    ', depth), e.short or '?')
  table.insert(out, prefix .. text)
  if rows then
    rows[#out] = e
  end
  local row = #out
  local link = links and summary.link(e)
  if link then
    link.col = #prefix + #s.verb + 1 -- summary_text: the verb, a space, the file
    link.end_col = link.col + #link.file
    links[#out] = link
  end
  if e.problems then
    local at = #out
    vim.list_extend(out, problems.chat_lines(e.problems))
    for i, p in ipairs(e.problems.new) do
      if links then
        local col = #out[at + i] - #problems.format(p) -- the problem's line starts with its path
        links[at + i] = { file = p.path, line = p.line, col = col, end_col = col + #p.path }
      end
    end
  end
  qa_lines(out, e.qa, depth)
  if e.live and e.live ~= '' and (e.status == 'in_progress' or e.status == 'pending') then
    local indent = string.rep('    ', depth + 1)
    table.insert(out, indent .. M.live_mark)
    if shown then
      shown[#out] = { text = e.live, col = vim.api.nvim_strwidth(out[#out]) + 1, row = row }
    end
  end
  for _, c in ipairs(e.children or {}) do
    tool_lines(out, c, depth + 1, rows, links, shown)
  end
end

-- The usage lines: the last request's tokens, and once the session has sub-agents each one's
-- tokens (by its task call) and the total; `short` leaves out the blank line above them.
local function usage_lines(self, out, short)
  local u = self.usage
  if not u then
    return
  end
  local ctx = ''
  if type(u.contextTokens) == 'number' and type(u.contextWindow) == 'number' then
    ctx = string.format(' · context %d/%d', u.contextTokens, u.contextWindow)
  end
  if not short then
    table.insert(out, '')
  end
  table.insert(out, string.format('Tokens: %s in · %s out%s', tostring(u.inputTokens or 0), tostring(u.outputTokens or 0), ctx))
  for _, c in ipairs(given(u.children) and u.children or {}) do
    local t = self.tools[c.toolCallId] or {}
    local kind = is_task(t) and vim.trim((t.title or ''):sub(6)) or ''
    local name = vim.trim(string.format('%s %s', kind ~= '' and kind or 'sub-agent', t.short and ('[' .. t.short .. ']') or ''))
    table.insert(
      out,
      string.format('  ↳ %s (%s): %s in · %s out', name, tostring(c.toolCallId), tostring(c.inputTokens or 0), tostring(c.outputTokens or 0))
    )
  end
  if given(u.total) then
    table.insert(out, string.format('Total with sub-agents: %s in · %s out', tostring(u.total.inputTokens or 0), tostring(u.total.outputTokens or 0)))
  end
end

-- The plan's lines: the checklist, a refusal under the step it is about; `short` gives one
-- summary line (`## Plan 3/8 ✓`, no blank line above it) and only the steps in progress or refused.
local function plan_lines(plan, out, short)
  if not plan then
    return
  end
  local refused = plan.refused
  local at = refused and (problems.refused_step(plan.entries, refused) or #plan.entries)
  if short then
    local done = 0
    for _, p in ipairs(plan.entries) do
      done = done + (p.status == 'completed' and 1 or 0)
    end
    table.insert(out, string.format('## Plan %d/%d ✓', done, #plan.entries))
  else
    table.insert(out, '')
    table.insert(out, '## Plan · ' .. tostring(plan.file))
  end
  for i, p in ipairs(plan.entries) do
    if not short or p.status == 'in_progress' or i == at then
      local box = p.status == 'completed' and '[x]' or (p.status == 'in_progress' and '[~]' or '[ ]')
      table.insert(out, string.format('- %s %s', box, p.content or ''))
    end
    if i == at then
      vim.list_extend(out, problems.refusal_lines(refused))
    end
  end
end

-- Whether the shortest window showing the chat has room for the transcript's newest lines (up to
-- three, ending at out[newest]), what follows them in `out`, `rest` and the prompt line.
local function fits(bufnr, out, newest, rest)
  if not (bufnr and vim.api.nvim_buf_is_valid(bufnr)) then
    return true
  end
  local height, width
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == bufnr then
      local h = vim.api.nvim_win_get_height(w)
      if not height or h < height then
        local info = vim.fn.getwininfo(w)[1]
        height, width = h, vim.api.nvim_win_get_width(w) - (info and info.textoff or 0)
      end
    end
  end
  if not height then
    return true
  end
  local tail = vim.list_slice(out, math.max(1, newest - 2))
  return wrap.rows(tail, width) + wrap.rows(rest, width) + 1 <= height
end

--- The transcript's lines (everything above the prompt marker).
function Chat:lines()
  local out = { string.format('# agentls · %s%s', (self.mode or '?'):upper(), self.title and (' · ' .. self.title) or ''), '' }
  self.rows, self.links, self.shown = {}, {}, {}
  for _, e in ipairs(self.entries) do
    if e.kind == 'user' then
      table.insert(out, '')
      local ls = split(e.text)
      ls[1] = '**You:** ' .. ls[1]
      vim.list_extend(out, ls)
      table.insert(out, '')
    elseif e.kind == 'agent' then
      vim.list_extend(out, split(e.text))
    elseif e.kind == 'thought' then
      for _, l in ipairs(split(e.text)) do
        table.insert(out, '> ' .. l)
      end
      -- a blank row ends the quote: Markdown reads the next line as its continuation (the answer
      -- or a tool call highlighted as the thought)
      table.insert(out, '')
    elseif e.kind == 'tool' then
      tool_lines(out, e, 0, self.rows, self.links, self.shown)
    elseif e.kind == 'note' then
      table.insert(out, '_' .. e.text .. '_')
    elseif e.kind == 'qa' then
      qa_lines(out, e.qa)
    end
  end
  self.newest = #out -- the transcript's newest line
  if self.working then
    table.insert(out, '')
    table.insert(out, M.working)
    -- what the turn does now, unless a call's own line shows it already
    local activity = self.activity and plain.clean(self.activity) or ''
    if activity ~= '' and next(self.shown) == nil then
      table.insert(out, '  ' .. M.live_mark)
      self.shown[#out] = { text = activity, col = vim.api.nvim_strwidth(out[#out]) + 1 }
    end
  end
  local rest = {}
  plan_lines(self.plan, rest, false)
  usage_lines(self, rest)
  table.insert(rest, M.marker)
  -- while a turn runs on a short window, the newest words matter more than the whole checklist
  if self.plan and self.working and not fits(self.bufnr, out, self.newest, rest) then
    rest = {}
    plan_lines(self.plan, rest, true)
    usage_lines(self, rest, true)
    table.insert(rest, M.marker)
  end
  vim.list_extend(out, rest)
  -- A buffer line holds no line break: untrusted text put on a one-line row (a command the model
  -- wrote across lines, a title, a plan step, a folder name, an endpoint's error) shows its breaks
  -- as ⏎, so no render fails (nvim_buf_set_lines refuses them, and the chat would stop for good).
  for i, l in ipairs(out) do
    if l:find('[\r\n]') then
      out[i] = l:gsub('\r?\n', ' ⏎ '):gsub('\r', ' ⏎ ')
    end
  end
  return out
end

local function valid(b)
  return b and vim.api.nvim_buf_is_valid(b)
end

local function marker_index(bufnr)
  local all = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for i = #all, 1, -1 do
    if all[i] == M.marker then
      return i -- 1-based line of the marker
    end
  end
  return nil
end

M.links_ns = vim.api.nvim_create_namespace('agentls-chat-links')

-- Marks each file name the chat's lines link to (`gf` follows it) with AgentlsChatLink.
local function mark_links(bufnr, links)
  vim.api.nvim_buf_clear_namespace(bufnr, M.links_ns, 0, -1)
  for lnum, l in pairs(links or {}) do
    pcall(vim.api.nvim_buf_set_extmark, bufnr, M.links_ns, lnum - 1, l.col, { end_col = l.end_col, hl_group = 'AgentlsChatLink' })
  end
end

--- Writes the transcript into the buffer (once per event-loop turn), keeping the prompt area.
function Chat:render()
  if not valid(self.bufnr) or self.pending then
    return
  end
  self.pending = true
  vim.schedule(function()
    self.pending = false
    self:flush()
  end)
end

M.live_ns = vim.api.nvim_create_namespace('agentls-chat-live')

-- The display cells the narrowest window showing the chat gives its text (80 when none does).
local function text_width(bufnr)
  local width
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == bufnr then
      local info = vim.fn.getwininfo(w)[1]
      local tw = vim.api.nvim_win_get_width(w) - (info and info.textoff or 0)
      width = math.min(width or tw, tw)
    end
  end
  return width or 80
end

-- Draws each live text (a running call's newest line, the turn's activity) after the `⋯` of its
-- line as virtual text (AgentlsChatLive): never parsed as markdown, one line cut to the window.
local function mark_shown(bufnr, shown)
  vim.api.nvim_buf_clear_namespace(bufnr, M.live_ns, 0, -1)
  local width = text_width(bufnr)
  for lnum, s in pairs(shown or {}) do
    local opts = { virt_text = { { plain.cut(s.text, width - s.col), 'AgentlsChatLive' } }, virt_text_win_col = s.col }
    pcall(vim.api.nvim_buf_set_extmark, bufnr, M.live_ns, lnum - 1, 0, opts)
  end
end

-- The last line showing a running call's newest line, or nil.
local function newest_live(shown)
  local last
  for lnum, s in pairs(shown or {}) do
    if s.row and (not last or lnum > last) then
      last = lnum
    end
  end
  return last
end

-- The first buffer line window w shows.
local function top(w)
  return vim.api.nvim_win_call(w, function()
    return vim.fn.line('w0')
  end)
end

--- Renders now. A window showing the chat that is not the current one follows the end (its
--- cursor on the prompt marker) when it was at the end (the cursor on the marker or below it, or
--- where the last render put it), with the transcript's newest line and a running call's newest
--- line kept in view.
function Chat:flush()
  if not valid(self.bufnr) then
    return
  end
  local lines = self:lines()
  local m = marker_index(self.bufnr) or vim.api.nvim_buf_line_count(self.bufnr)
  local cur = vim.api.nvim_get_current_win()
  local placed, follow = self.placed or {}, {}
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if w ~= cur and vim.api.nvim_win_get_buf(w) == self.bufnr then
      local l = vim.api.nvim_win_get_cursor(w)[1]
      if l >= m or l == placed[w] then
        table.insert(follow, w)
      end
    end
  end
  vim.api.nvim_buf_set_lines(self.bufnr, 0, m, false, lines)
  vim.bo[self.bufnr].modified = false
  mark_links(self.bufnr, self.links)
  mark_shown(self.bufnr, self.shown)
  self.placed = {}
  local live = newest_live(self.shown)
  for _, w in ipairs(follow) do
    local at = #lines
    pcall(vim.api.nvim_win_set_cursor, w, { at, 0 })
    -- the window is too short for the newest line and the prompt line: the newest line wins,
    -- with the working line, the plan and the usage under it when they fit, else at the bottom
    for _, l in ipairs({ #lines - 1, self.newest }) do
      if self.newest and top(w) > self.newest and l >= self.newest then
        at = l
        pcall(vim.api.nvim_win_set_cursor, w, { at, 0 })
        vim.api.nvim_win_call(w, function()
          vim.cmd('normal! zb')
        end)
      end
    end
    if live and top(w) > live then
      at = live -- the window is too short for both: the live line wins
      pcall(vim.api.nvim_win_set_cursor, w, { at, 0 })
    end
    self.placed[w] = at
  end
end

--- Takes the prompt area's text (and clears it); nil when empty.
function Chat:take_prompt()
  if not valid(self.bufnr) then
    return nil
  end
  local m = marker_index(self.bufnr)
  if not m then
    return nil
  end
  local ls = vim.api.nvim_buf_get_lines(self.bufnr, m, -1, false)
  local text = vim.trim(table.concat(ls, '\n'))
  vim.api.nvim_buf_set_lines(self.bufnr, m, -1, false, { '' })
  vim.bo[self.bufnr].modified = false
  if text == '' then
    return nil
  end
  return text
end

--- The tool call shown on line `lnum` of the chat buffer, or the nearest one above it (a
--- question or a problem under it); nil when there is none.
function Chat:call_at(lnum)
  local ls = self:lines() -- fills self.rows
  for l = math.min(lnum, #ls), 1, -1 do
    if self.rows[l] then
      return self.rows[l]
    end
    if ls[l]:sub(1, 4) ~= '    ' then
      return nil -- past the lines under a call
    end
  end
  return nil
end

--- The last tool call of the transcript (the last one at the top level), or nil.
function Chat:last_call()
  for i = #self.entries, 1, -1 do
    if self.entries[i].kind == 'tool' then
      return self.entries[i]
    end
  end
  return nil
end

--- Where line `lnum` of the chat leads: the file a tool call's line (or a problem under it)
--- names, as tool_summary.link gives it, or nil.
---@return agentls.ToolLink|nil
function Chat:link_at(lnum)
  self:lines() -- fills self.links
  return self.links[lnum]
end

-- The window `gf` opens a file in: the previous window when it is a normal one not showing the
-- chat, else the first such window, else a new split beside the chat.
local function target_window(chat_buf)
  local function usable(w)
    return w ~= 0 and vim.api.nvim_win_is_valid(w) and vim.api.nvim_win_get_config(w).relative == '' and vim.api.nvim_win_get_buf(w) ~= chat_buf
  end
  local prev = vim.fn.win_getid(vim.fn.winnr('#'))
  if usable(prev) then
    return prev
  end
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if usable(w) then
      return w
    end
  end
  vim.cmd('aboveleft vsplit')
  return vim.api.nvim_get_current_win()
end

--- `gf` in the chat: opens the file the line under the cursor names (a tool call's file, a
--- problem's) in another window, at the call's line when it says one (a read's offset, a
--- problem's line) or at the first line holding the text an edit wrote. Returns the window, or
--- nil (and says why) when the line names no file.
function Chat:follow_link()
  local l
  if valid(self.bufnr) and vim.api.nvim_get_current_buf() == self.bufnr then
    l = self:link_at(vim.api.nvim_win_get_cursor(0)[1])
  end
  if not l then
    vim.notify('agentls: no file on this line of the chat', vim.log.levels.WARN)
    return nil
  end
  local path = l.file
  if path:sub(1, 1) ~= '/' then
    path = (self.root or vim.fn.getcwd()) .. '/' .. path
  end
  path = vim.fn.fnamemodify(path, ':p')
  local w = target_window(self.bufnr)
  vim.api.nvim_set_current_win(w)
  if vim.api.nvim_buf_get_name(0) ~= path then
    -- a window whose buffer has unsaved changes keeps it ('nohidden' would refuse :edit): a split
    local modified = vim.bo.modified and not vim.o.hidden
    vim.cmd((modified and 'split ' or 'edit ') .. vim.fn.fnameescape(path))
    w = vim.api.nvim_get_current_win()
  end
  local line = l.line
  if not line and l.find then
    for i, x in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
      if x:find(l.find, 1, true) then
        line = i
        break
      end
    end
  end
  if line then
    pcall(vim.api.nvim_win_set_cursor, w, { math.min(line, vim.api.nvim_buf_line_count(0)), 0 })
  end
  return w
end

M.details_name = 'agentls://details'

--- Shows a tool call's details (its raw input and output, tool_summary.details_lines) in a
--- scratch split, reused by the next call's details; `q` closes it.
function M.show_details(e)
  local b
  for _, x in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(x) and vim.api.nvim_buf_get_name(x) == M.details_name then
      b = x
    end
  end
  if not b then
    b = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(b, M.details_name)
    vim.bo[b].buftype = 'nofile'
    vim.bo[b].bufhidden = 'hide'
    vim.bo[b].swapfile = false
    vim.api.nvim_buf_set_keymap(b, 'n', 'q', '<Cmd>close<CR>', { noremap = true, silent = true, desc = 'agentls: close the details' })
  end
  vim.bo[b].modifiable = true
  vim.api.nvim_buf_set_lines(b, 0, -1, false, summary.details_lines(e))
  vim.bo[b].modifiable = false
  vim.bo[b].modified = false
  vim.bo[b].filetype = 'markdown'
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == b then
      vim.api.nvim_set_current_win(w)
      return b
    end
  end
  vim.cmd('belowright split')
  vim.api.nvim_win_set_buf(0, b)
  return b
end

--- `:Agentls details` and `K` in the chat: the details of the call under the cursor in the chat
--- window (else the last call). Returns the details buffer, or nil (and says why) without a call.
function Chat:details()
  local e
  if valid(self.bufnr) and vim.api.nvim_get_current_buf() == self.bufnr then
    e = self:call_at(vim.api.nvim_win_get_cursor(0)[1])
  end
  e = e or self:last_call()
  if not e then
    vim.notify('agentls: no tool call in the chat', vim.log.levels.WARN)
    return nil
  end
  return M.show_details(e)
end

M.name = 'agentls://chat'

-- The chat buffer a previous setup() left (Neovim keeps it when setup() runs again), or nil.
local function previous_buffer()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_get_name(b) == M.name then
      return b
    end
  end
  return nil
end

--- The chat buffer, created on first use (or taken over from a previous setup()).
function Chat:buffer()
  if valid(self.bufnr) then
    return self.bufnr
  end
  local b = previous_buffer()
  if not b then
    b = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(b, M.name)
  end
  vim.bo[b].buftype = 'nofile'
  vim.bo[b].bufhidden = 'hide'
  vim.bo[b].swapfile = false
  vim.bo[b].filetype = 'agentls-chat'
  self.highlighter = require('agentls.markdown').attach(b) -- 'treesitter' or 'syntax'
  vim.bo[b].omnifunc = "v:lua.require'agentls.commands'.omnifunc" -- slash commands
  vim.api.nvim_buf_set_keymap(b, 'n', '<CR>', '', {
    noremap = true,
    desc = 'agentls: send the prompt',
    callback = function()
      local text = self:take_prompt()
      if text then
        self.on_send(text)
      end
    end,
  })
  vim.api.nvim_buf_set_keymap(b, 'n', 'gf', '', {
    noremap = true,
    desc = 'agentls: open the file this line names (at its line)',
    callback = function()
      self:follow_link()
    end,
  })
  vim.api.nvim_buf_set_keymap(b, 'n', 'K', '', {
    noremap = true,
    desc = "agentls: the tool call's details (raw input and output)",
    callback = function()
      self:details()
    end,
  })
  -- a live line is cut to the window's width, the plan checklist shortened to the window's
  -- height: drawn again when they change (WinResized: 0.9+)
  local group = vim.api.nvim_create_augroup('agentls.chat.resize', { clear = true })
  for _, ev in ipairs({ 'VimResized', 'WinResized' }) do
    pcall(vim.api.nvim_create_autocmd, ev, {
      group = group,
      callback = function()
        if next(self.shown or {}) or self.plan then
          self:render()
        end
      end,
    })
  end
  self.bufnr = b
  vim.api.nvim_buf_set_lines(b, 0, -1, false, self:lines())
  vim.api.nvim_buf_set_lines(b, -1, -1, false, { '' })
  mark_links(b, self.links)
  mark_shown(b, self.shown)
  vim.bo[b].modified = false
  return b
end

--- Shows the chat buffer in a window (`position`: right, left, below, above, tab, current;
--- `conceal` false shows the markdown markers).
function Chat:open(position, width, conceal)
  local b = self:buffer()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == b then
      vim.api.nvim_set_current_win(w)
      return w
    end
  end
  local cmds = { right = 'botright vsplit', left = 'topleft vsplit', below = 'botright split', above = 'topleft split', tab = 'tabnew', current = '' }
  if cmds[position] and cmds[position] ~= '' then
    vim.cmd(cmds[position])
  end
  local w = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(w, b)
  if (position == 'right' or position == 'left') and width then
    vim.api.nvim_win_set_width(w, width)
  end
  vim.wo[w].wrap = true
  vim.wo[w].linebreak = true
  require('agentls.markdown').window(w, conceal)
  pcall(vim.api.nvim_win_set_cursor, w, { vim.api.nvim_buf_line_count(b), 0 })
  return w
end

return M
