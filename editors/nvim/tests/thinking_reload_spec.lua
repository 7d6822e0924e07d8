-- The model's thinking in a chat opened again: live, the chat shows each thought (its
-- agent_thought_chunk updates) as quoted lines (`> …`) before the answer; the chat rebuilt from
-- agent/loadSession (reopened after Neovim and the server restart) shows an assistant message's
-- `thinking` the same way, before its text and its tool calls. End to end against the real
-- agentls binary, the scripted model's `thought:` kept as the message's thinking.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local script = [[
steps:
  - thought: "A greeting: answer in one line."
    text: "Hello! How can I help?"
  - thought: "I should read notes.txt first."
    tool_calls:
      - {id: r1, name: read, args: {path: "notes.txt"}}
  - text: "notes.txt says hi."
    expect:
      tool_result_contains: {r1: ["hi there"]}
]]

-- The chat's rows as the screen shows them (the chat fills it), trailing blanks cut, from the
-- header to the line above the token usage; kept as an artifact named `name`.
local function visible(name)
  vim.cmd('redraw')
  local s = h.screen()
  h.keep(string.format('thinking-reload-%s-%s.txt', vim.version().minor, name), s)
  local rows = {}
  for _, r in ipairs(vim.split(s, '\n', true)) do
    r = r:gsub('%s+$', '')
    if r:find('^Tokens: ') or r:find('^──── prompt') then
      break
    end
    if #rows > 0 or r:find('^# agentls') then
      table.insert(rows, r)
    end
  end
  return rows
end

-- The row index of the first row equal to `want`, or fails.
local function row_of(rows, want, what)
  for i, r in ipairs(rows) do
    if r == want then
      return i
    end
  end
  t.ok(false, what .. ': no row ' .. vim.inspect(want) .. ' in\n' .. table.concat(rows, '\n'))
end

-- The rows that are not blank (a reloaded answer ends in a blank line: replay's own spacing).
local function words(rows)
  return vim.tbl_filter(function(r)
    return r ~= ''
  end, rows)
end

-- The highlight groups at row `lnum` (1-based), column 0 of the chat buffer: treesitter's
-- captures and syntax groups (vim.inspect_pos, 0.9+), else the syntax stack (0.7).
local function hl_at(bufnr, lnum)
  local names = {}
  if vim.inspect_pos then
    local p = vim.inspect_pos(bufnr, lnum - 1, 0)
    for _, x in ipairs(p.treesitter or {}) do
      table.insert(names, x.capture)
    end
    for _, x in ipairs(p.syntax or {}) do
      table.insert(names, x.hl_group)
    end
  else
    vim.api.nvim_buf_call(bufnr, function()
      for _, id in ipairs(vim.fn.synstack(lnum, 1)) do
        table.insert(names, vim.fn.synIDattr(id, 'name'))
      end
    end)
  end
  return names
end

-- The buffer line of the chat holding `want`.
local function line_of(bufnr, want)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l == want then
      return i
    end
  end
end

-- Checks that `rows` show each thought before what the model did after it, a blank row between
-- (Markdown would read the next line as the quote's continuation).
local function thoughts_first(rows, what)
  local t1 = row_of(rows, '> A greeting: answer in one line.', what)
  local a1 = row_of(rows, 'Hello! How can I help?', what)
  t.eq(t1 + 2, a1, what .. ': the thought right above its answer')
  t.eq('', rows[t1 + 1], what .. ': a blank row after the thought')
  local t2 = row_of(rows, '> I should read notes.txt first.', what)
  local c2 = row_of(rows, '  • Read notes.txt', what)
  t.eq(t2 + 2, c2, what .. ': the thought right above its tool call')
  local a2 = row_of(rows, 'notes.txt says hi.', what)
  t.ok(a1 < t2 and c2 < a2, what .. ': in order\n' .. table.concat(rows, '\n'))
end

t.describe('thinking in a chat opened again', function()
  t.it('reopened after a restart, the chat shows each thought before its answer and its tool call, as live', function()
    h.stub(vim.o, 'lines', 40)
    local st = h.start({ ['notes.txt'] = 'hi there\n' }, script, { chat = { position = 'current' } })
    vim.cmd('Agentls chat')
    agentls.prompt('hello')
    t.eq('end_turn', h.turn(st).stopReason)
    agentls.prompt('what do the notes say?')
    t.eq('end_turn', h.turn(st).stopReason)
    st.chat:flush()
    local live = visible('live')
    thoughts_first(live, 'live')
    local live_hl = hl_at(st.chat.bufnr, line_of(st.chat.bufnr, '> A greeting: answer in one line.'))
    for _, text in ipairs({ 'Hello! How can I help?', '  • Read notes.txt' }) do
      local names = hl_at(st.chat.bufnr, line_of(st.chat.bufnr, text))
      for _, name in ipairs(names) do
        t.ok(not name:lower():find('quote'), string.format('%q highlighted as the thought above it (%s)', text, table.concat(names, ', ')))
      end
    end

    -- Neovim and the server restart: :Agentls chat reopens the chat from agent/loadSession
    local id = st.session.sessionId
    local st2 = h.restart(st, id)
    st2.chat:flush()
    local reloaded = visible('reloaded')
    thoughts_first(reloaded, 'reloaded')
    t.eq(words(live), words(reloaded), 'the same rows as live')
    local hl = hl_at(st2.chat.bufnr, line_of(st2.chat.bufnr, '> A greeting: answer in one line.'))
    t.eq(live_hl, hl, 'the thought highlighted as live')
  end)
end)
