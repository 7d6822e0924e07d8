-- agentls.tool_summary: a tool call's line in the chat as a readable summary, "Edited store.go
-- +17 −2", "Read main.go", "Ran `go test ./...` ✓ (exit 0)", "Asked: Which port?", built from what
-- the server sends and persists (the call's title, its arguments, its result), so a live line and
-- the same line rebuilt by agent/loadSession read the same. The same rules as the VS Code chat's
-- rows (editors/vscode/src/toolSummary.ts). Pure: no buffer, no window.
local M = {}

---@class agentls.ToolFacts
---@field name? string the tool's name when known (a loaded session has it); else read off the title
---@field title string the server's title of the call ("edit store.go")
---@field status? string pending, in_progress, completed or failed
---@field input? table|string the call's arguments (a table, or its JSON text)
---@field output? table|string the call's result ({success, result|error}, or its JSON text)
---@field refused? boolean refused by the guard (stays failed)
---@field interrupted? boolean ended without a result: the server exited while it ran

---@class agentls.ToolSummary
---@field verb string "Read", "Edited", "Ran", "Asked:", or the server's title for other tools
---@field file? string the file the call is about, as the model wrote it
---@field code? string the command a run ran, a search's pattern
---@field text? string plain text after the verb (a question)
---@field added? integer lines an edit added
---@field removed? integer lines an edit removed
---@field exit? integer a run's exit code
---@field ok? boolean the run exited 0 in time
---@field timed_out? boolean the run timed out

local function given(v)
  return v ~= nil and v ~= vim.NIL
end

--- A table, or the table a JSON text decodes to; nil for anything else.
---@return table|nil
function M.decode(v)
  if type(v) == 'string' then
    local ok, d = pcall(vim.fn.json_decode, v)
    v = ok and d or nil
  end
  return type(v) == 'table' and v or nil
end

local function islist(v)
  return (vim.islist or vim.tbl_islist)(v)
end

local function str(v)
  return type(v) == 'string' and v ~= '' and v or nil
end

local prefixes = {
  { 'edit plan', 'plan_edit' },
  { 'write plan', 'plan_write' },
  { 'read plan', 'plan_read' },
  { 'list plans', 'plan_list' },
  { 'ask to approve', 'exit_plan_mode' },
  { 'ask:', 'ask_user' },
  { 'ask the user', 'ask_user' },
}

--- The tool's name: given, else read off the title the server gave the call.
---@param name? string
---@param title? string
---@return string
function M.tool_name(name, title)
  if str(name) then
    return name
  end
  local t = title or ''
  if t:sub(1, 1) == '`' then
    return 'run' -- a run's title is its command, a code span, first (agent/tools/run.go)
  end
  for _, p in ipairs(prefixes) do
    local pre = p[1]
    if t == pre or t:sub(1, #pre + 1) == pre .. ' ' or (pre:sub(-1) == ':' and t:sub(1, #pre) == pre) then
      return p[2]
    end
  end
  return t:match('^(%S*)') or t
end

-- The lines of a text (a last newline ends the last line, it does not start one).
local function lines(s)
  if s == '' then
    return {}
  end
  local l = vim.split(s, '\n', true)
  if l[#l] == '' then
    table.remove(l)
  end
  return l
end

--- The lines a replacement of `before` by `after` adds and removes: a line diff (longest common
--- subsequence), so "+17 −2" counts changed lines, not the strings' whole lengths.
---@param before string
---@param after string
---@return integer added, integer removed
function M.diff_counts(before, after)
  local a, b = lines(before), lines(after)
  local head = 0
  while head < #a and head < #b and a[head + 1] == b[head + 1] do
    head = head + 1
  end
  local tail = 0
  while tail < #a - head and tail < #b - head and a[#a - tail] == b[#b - tail] do
    tail = tail + 1
  end
  local x, y = {}, {}
  for i = head + 1, #a - tail do
    table.insert(x, a[i])
  end
  for i = head + 1, #b - tail do
    table.insert(y, b[i])
  end
  if #x * #y > 4000000 then
    return #y, #x -- too big to align: all changed
  end
  local prev = {}
  for j = 0, #y do
    prev[j] = 0
  end
  for i = 1, #x do
    local row = { [0] = 0 }
    for j = 1, #y do
      row[j] = x[i] == y[j] and prev[j - 1] + 1 or math.max(prev[j], row[j - 1])
    end
    prev = row
  end
  local common = prev[#y]
  return #y - common, #x - common
end

--- A question's markdown as one line of plain text (backticks and emphasis marks dropped).
---@param md string
---@return string
function M.plain_question(md)
  local first = ''
  for _, l in ipairs(vim.split(tostring(md or ''), '\n', true)) do
    if vim.trim(l) ~= '' then
      first = l
      break
    end
  end
  return vim.trim((first:gsub('[`*_]+', ''):gsub('%s+', ' ')))
end

-- The verb for a call's state: done, running, or neither (failed, refused).
local function verb_for(f, done, running, plain)
  if f.refused then
    return plain
  elseif f.status == 'completed' then
    return done
  elseif f.status == 'pending' or f.status == 'in_progress' then
    return running
  end
  return plain
end

local function capitalise(s)
  return s:sub(1, 1):upper() .. s:sub(2)
end

-- What a title says after its verb: "read `a.go`" gives a.go. The server puts a path, a pattern
-- or a command in a code span (agent/tools/helpers.go), one a run's title begins with.
local function strip(title, word)
  local rest = title:gsub('^' .. word .. ':?%s*', '', 1)
  local ticks = rest:match('^`+')
  if not ticks or #rest < 2 * #ticks or rest:sub(-#ticks) ~= ticks then
    return rest
  end
  local body = rest:sub(#ticks + 1, -#ticks - 1)
  if #body > 1 and body:sub(1, 1) == ' ' and body:sub(-1) == ' ' and vim.trim(body) ~= '' then
    body = body:sub(2, -2)
  end
  return body
end

--- The summary of a tool call.
---@param f agentls.ToolFacts
---@return agentls.ToolSummary
function M.summarize(f)
  local title = f.title or ''
  local name = M.tool_name(f.name, title)
  local args = M.decode(f.input) or {}
  local out = M.decode(f.output) or {}
  local result = type(out.result) == 'table' and out.result or nil
  local path = str(args.path) or str(args.file_path)
  local done = f.status == 'completed' and not f.refused
  if name == 'read' or name == 'plan_read' then
    local s = { verb = verb_for(f, 'Read', 'Reading', 'Read') }
    if path then
      s.file = path
    else
      s.text = strip(title, 'read')
    end
    return s
  elseif name == 'edit' or name == 'plan_edit' then
    local s = { verb = verb_for(f, 'Edited', 'Editing', 'Edit'), file = path }
    if done and type(args.old_string) == 'string' and type(args.new_string) == 'string' then
      local added, removed = M.diff_counts(args.old_string, args.new_string)
      local n = result and type(result.replacements) == 'number' and result.replacements > 1 and result.replacements or 1
      s.added, s.removed = added * n, removed * n
    elseif done and type(args.insert_content) == 'string' then
      s.added = math.max(#lines(args.insert_content), 1) -- an insertion removes nothing
    end
    return s
  elseif name == 'write' or name == 'plan_write' then
    local created = done and result and result.created == true
    local s = { verb = created and 'Created' or verb_for(f, 'Wrote', 'Writing', 'Write') }
    s.file = path or (result and str(result.path))
    if not s.file then
      s.text = str(args.title) or ''
    end
    if done and type(args.content) == 'string' then
      s.added = #lines(args.content)
    end
    return s
  elseif name == 'run' then
    local s = { verb = verb_for(f, 'Ran', 'Running', 'Run'), code = str(args.command) or strip(title, 'run') }
    if out.success == true and result and type(result.exit_code) == 'number' then
      s.exit = result.exit_code
      s.timed_out = result.timed_out == true
      s.ok = s.exit == 0 and not s.timed_out
    end
    return s
  elseif name == 'ask_user' then
    local qs = type(args.questions) == 'table' and args.questions or {}
    local s = { verb = verb_for(f, 'Asked:', 'Asking:', 'Ask:') }
    if type(qs[1]) == 'table' then
      s.text = M.plain_question(qs[1].question or qs[1].name or '') .. (#qs > 1 and string.format(' (+%d more)', #qs - 1) or '')
    else
      s.text = strip(strip(title, 'ask the user'), 'ask')
    end
    return s
  elseif name == 'exit_plan_mode' then
    return { verb = verb_for(f, 'Asked to approve', 'Asking to approve', 'Ask to approve'), file = str(args.plan_file_path) }
  elseif name == 'grep' then
    return { verb = verb_for(f, 'Searched for', 'Searching for', 'Search for'), code = str(args.pattern) or strip(title, 'grep') }
  elseif name == 'glob' then
    return { verb = verb_for(f, 'Listed files', 'Listing files', 'List files'), code = str(args.pattern) or strip(title, 'glob') }
  elseif name == 'ls' then
    local rest = strip(title, 'ls')
    return { verb = verb_for(f, 'Listed', 'Listing', 'List'), file = path or (rest ~= '' and rest or '.') }
  end
  return { verb = capitalise(title ~= '' and title or name) }
end

---@class agentls.ToolLink
---@field file string the file the call is about, as the model wrote it (relative to the root, or absolute)
---@field line? integer the line to open it at (a read's first line, an insertion's first line)
---@field find? string the text to look for when the line is not known (an edit's first new line)

--- Where a call's line leads (`gf` in the chat): the file its summary names and, when the call
--- says it, the line (a read's offset, an insertion's line) or the text an edit wrote there; nil
--- for a call about no file (a run, a question).
---@param f agentls.ToolFacts
---@return agentls.ToolLink|nil
function M.link(f)
  local s = M.summarize(f)
  if not s.file then
    return nil
  end
  local name = M.tool_name(f.name, f.title or '')
  local args = M.decode(f.input) or {}
  local l = { file = s.file }
  if name == 'read' or name == 'plan_read' then
    local out = M.decode(f.output) or {}
    local r = type(out.result) == 'table' and out.result or {}
    local n = tonumber(args.offset) or tonumber(r.start_line)
    if n and n >= 1 then
      l.line = math.floor(n)
    end
  elseif name == 'edit' or name == 'plan_edit' then
    if type(args.insert_line) == 'number' and type(args.insert_content) == 'string' then
      l.line = math.floor(args.insert_line) + 1 -- inserted after that line (0: at the top)
    elseif type(args.new_string) == 'string' then
      for _, x in ipairs(vim.split(args.new_string, '\n', true)) do
        if vim.trim(x) ~= '' then
          l.find = vim.trim(x)
          break
        end
      end
    end
  end
  return l
end

--- "+17 −2" (the minus is U+2212, as diff views show it).
---@param s agentls.ToolSummary
---@return string
function M.counts_text(s)
  local parts = {}
  if s.added then
    table.insert(parts, '+' .. s.added)
  end
  if s.removed then
    table.insert(parts, '−' .. s.removed)
  end
  return table.concat(parts, ' ')
end

--- "✓ (exit 0)", "✗ (exit 1)", "✗ (timed out)".
---@param s agentls.ToolSummary
---@return string
function M.exit_text(s)
  if s.timed_out then
    return '✗ (timed out)'
  end
  return string.format('%s (exit %d)', s.ok and '✓' or '✗', s.exit)
end

--- The summary as one line of text: "Edited store.go +17 −2", "Ran `go test ./...` ✓ (exit 0)".
---@param s agentls.ToolSummary
---@return string
function M.summary_text(s)
  local parts = { s.verb }
  if s.file then
    table.insert(parts, s.file)
  end
  if s.code then
    table.insert(parts, '`' .. s.code .. '`')
  end
  if s.text and s.text ~= '' then
    table.insert(parts, s.text)
  end
  if s.added or s.removed then
    table.insert(parts, M.counts_text(s))
  end
  if s.exit then
    table.insert(parts, M.exit_text(s))
  end
  return table.concat(parts, ' ')
end

--- How a call stands, after its summary: nothing once completed, " …" while it runs,
--- " … failed", " … interrupted" for a call that never got a result (the server exited while it
--- ran), and " … REFUSED (plan mode)" for a call the guard refused.
---@param f agentls.ToolFacts
---@return string
function M.state_text(f)
  if f.refused then
    return ' … REFUSED (plan mode)'
  elseif f.interrupted then
    return ' … interrupted'
  elseif f.status == 'completed' then
    return ''
  elseif f.status == 'failed' then
    return ' … failed'
  end
  return ' …'
end

--- A tool call's line: its summary and how it stands.
---@param f agentls.ToolFacts
---@return string
function M.row(f)
  return M.summary_text(M.summarize(f)) .. M.state_text(f)
end

--- One answer as text: a string as it is, Yes/No, a number, a list joined with ", ", an
--- object's fields ("host: h; port: 5432"), "(none)" for an empty list, "(no answer)" for none.
---@return string
function M.answer_text(v)
  if type(v) == 'boolean' then
    return v and 'Yes' or 'No'
  elseif not given(v) or v == '' then
    return '(no answer)'
  elseif type(v) == 'table' then
    if vim.tbl_isempty(v) then
      return '(none)'
    elseif islist(v) then
      return table.concat(vim.tbl_map(M.answer_text, v), ', ')
    end
    local keys = vim.tbl_keys(v)
    table.sort(keys, function(a, b)
      return tostring(a) < tostring(b)
    end)
    local parts = {}
    for _, k in ipairs(keys) do
      table.insert(parts, tostring(k) .. ': ' .. M.answer_text(v[k]))
    end
    return table.concat(parts, '; ')
  end
  return tostring(v)
end

--- The questions a call asked and the user's answers, as {question, answer} texts, in the
--- questions' order (an answer to no listed question comes last): a button's label when a
--- button gave the answer; "(dismissed)" when the user dismissed them.
---@param questions? table[] {name, question, buttons?}
---@param answers? table keyed by the questions' names
---@param dismissed? boolean
---@return {question: string, answer: string}[]
function M.answered(questions, answers, dismissed)
  local out, seen = {}, {}
  answers = type(answers) == 'table' and answers or {}
  for _, q in ipairs(given(questions) and questions or {}) do
    seen[q.name or ''] = true
    local a = answers[q.name] -- false stays false
    local text = dismissed == true and '(dismissed)' or M.answer_text(a)
    for _, b in ipairs(given(q.buttons) and q.buttons or {}) do
      if dismissed ~= true and given(a) and vim.deep_equal(b.value, a) and type(b.label) == 'string' then
        text = b.label -- the button the user pressed, as it read
      end
    end
    table.insert(out, { question = vim.split(tostring(q.question or q.name or '?'), '\n', true)[1], answer = text })
  end
  local rest = vim.tbl_filter(function(k)
    return not seen[k]
  end, vim.tbl_keys(answers))
  table.sort(rest, function(a, b)
    return tostring(a) < tostring(b)
  end)
  for _, k in ipairs(rest) do
    table.insert(out, { question = tostring(k), answer = M.answer_text(answers[k]) })
  end
  return out
end

-- JSON with two-space indents and sorted keys (the same text for a live call and a loaded one).
local function pretty(v, ind)
  if not given(v) then
    return 'null'
  elseif type(v) ~= 'table' then
    local ok, s = pcall(vim.fn.json_encode, v)
    return ok and s or tostring(v)
  elseif vim.tbl_isempty(v) then
    return islist(v) and '[]' or '{}'
  end
  local pad = string.rep('  ', ind + 1)
  local parts = {}
  if islist(v) then
    for _, x in ipairs(v) do
      table.insert(parts, pad .. pretty(x, ind + 1))
    end
    return '[\n' .. table.concat(parts, ',\n') .. '\n' .. string.rep('  ', ind) .. ']'
  end
  local keys = vim.tbl_keys(v)
  table.sort(keys, function(a, b)
    return tostring(a) < tostring(b)
  end)
  for _, k in ipairs(keys) do
    table.insert(parts, pad .. vim.fn.json_encode(tostring(k)) .. ': ' .. pretty(v[k], ind + 1))
  end
  return '{\n' .. table.concat(parts, ',\n') .. '\n' .. string.rep('  ', ind) .. '}'
end

local function raw_lines(v)
  if not given(v) then
    return { '(none)' }
  end
  local d = M.decode(v)
  if d then
    return vim.split(pretty(d, 0), '\n', true)
  end
  return vim.split(tostring(v), '\n', true) -- not JSON: as it came
end

--- A call's details (`:Agentls details`, `K` on its line): its line, title, status, and its raw
--- input and output as indented JSON.
---@param f agentls.ToolFacts
---@return string[]
function M.details_lines(f)
  local out = {
    '# ' .. M.row(f),
    '',
    'Title: ' .. tostring(f.title or ''),
    'Tool: ' .. M.tool_name(f.name, f.title),
    'Status: ' .. (f.refused and 'failed (refused)' or tostring(f.status or 'pending')),
    '',
    '## Input',
  }
  vim.list_extend(out, raw_lines(f.input))
  table.insert(out, '')
  table.insert(out, '## Output')
  vim.list_extend(out, raw_lines(f.output))
  return out
end

return M
