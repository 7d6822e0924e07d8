-- Links in the chat against the real server: a tool call's line names its file as a link
-- (highlighted AgentlsChatLink) and `gf` on the line opens that file in the other window, at
-- the line the call was about: an edit at the first line it wrote, a read at its offset (in a
-- split when that window's buffer has unsaved changes and 'hidden' is off). A line naming no
-- file (a search) says so and opens nothing.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local chat = require('agentls.chat')

-- The chat's lines, rendered now.
local function chat_lines(st)
  st.chat:flush()
  return vim.api.nvim_buf_get_lines(st.chat.bufnr, 0, -1, false)
end

-- The 1-based line of the chat reading `row`.
local function line_of(st, row)
  for i, l in ipairs(chat_lines(st)) do
    if l == row then
      return i
    end
  end
  t.ok(false, 'the chat line ' .. row .. ' in:\n' .. table.concat(chat_lines(st), '\n'))
end

-- `gf` typed on the chat line `row` (the cursor on its first column).
local function gf_on(st, row)
  local lnum = line_of(st, row)
  vim.api.nvim_set_current_win(vim.fn.bufwinid(st.chat.bufnr))
  vim.api.nvim_win_set_cursor(0, { lnum, 0 })
  vim.api.nvim_feedkeys('gf', 'x', false)
end

t.describe('chat links', function()
  t.it('gf on a tool line opens its file at the line; the file name is highlighted as a link', function()
    local readme = {}
    for i = 1, 12 do
      table.insert(readme, 'readme line ' .. i)
    end
    local st, root = h.start({ ['app.txt'] = 'alpha\nbeta\ngamma\n', ['notes/readme.md'] = table.concat(readme, '\n') .. '\n' }, [[
steps:
  - text: "Editing."
    tool_calls:
      - {id: e1, name: edit, args: {path: "app.txt", old_string: "gamma\n", new_string: "GAMMA\nDELTA\n"}}
  - expect:
      tool_result_contains: {e1: ["\"success\":true"]}
    tool_calls:
      - {id: r1, name: read, args: {path: "notes/readme.md", offset: 7, limit: 2}}
      - {id: g1, name: grep, args: {pattern: "alpha"}}
  - text: "Done."
]])
    vim.cmd('AgentNew build')
    t.wait(10000, function()
      return agentls.mode() == 'BUILD'
    end, 'a build session')
    vim.cmd('Agentls chat')
    agentls.prompt('edit, read and search')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    local rows = vim.tbl_filter(function(l)
      return l:find('^  • ') ~= nil
    end, chat_lines(st))
    t.eq({ '  • Edited app.txt +2 −1', '  • Read notes/readme.md', '  • Searched for `alpha`' }, rows)

    -- the file names are marked as links, and only them
    local marks = vim.api.nvim_buf_get_extmarks(st.chat.bufnr, chat.links_ns, 0, -1, { details = true })
    local linked = {}
    for _, m in ipairs(marks) do
      local line = vim.api.nvim_buf_get_lines(st.chat.bufnr, m[2], m[2] + 1, false)[1]
      table.insert(linked, line:sub(m[3] + 1, m[4].end_col) .. ' ' .. tostring(m[4].hl_group))
    end
    table.sort(linked)
    t.eq({ 'app.txt AgentlsChatLink', 'notes/readme.md AgentlsChatLink' }, linked)
    t.ok(vim.fn.hlexists('AgentlsChatLink') == 1, 'AgentlsChatLink is defined')

    local chat_win = vim.fn.bufwinid(st.chat.bufnr)
    -- the edit's line: app.txt at the first line the edit wrote, in the other window
    gf_on(st, '  • Edited app.txt +2 −1')
    t.eq(root .. '/app.txt', vim.api.nvim_buf_get_name(0))
    t.ok(vim.api.nvim_get_current_win() ~= chat_win, 'opened beside the chat, not in its window')
    t.eq(st.chat.bufnr, vim.api.nvim_win_get_buf(chat_win), 'the chat stays in its window')
    t.eq(3, vim.api.nvim_win_get_cursor(0)[1], 'at the line the edit wrote')
    t.eq('GAMMA', vim.api.nvim_get_current_line())
    local file_win = vim.api.nvim_get_current_win()

    -- the read's line: the file at the read's first line, in the same window as before
    gf_on(st, '  • Read notes/readme.md')
    t.eq(root .. '/notes/readme.md', vim.api.nvim_buf_get_name(0))
    t.eq(file_win, vim.api.nvim_get_current_win(), 'the window the last file opened in')
    t.eq(7, vim.api.nvim_win_get_cursor(0)[1])

    -- a line naming no file: a warning, nothing opened
    local warned
    h.stub(vim, 'notify', function(msg)
      warned = msg
    end)
    gf_on(st, '  • Searched for `alpha`')
    t.eq(chat_win, vim.api.nvim_get_current_win(), 'still in the chat')
    t.eq('agentls: no file on this line of the chat', warned)
    t.eq(root .. '/notes/readme.md', vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(file_win)))

    -- that window's buffer has unsaved changes and 'hidden' is off: the file opens in a split,
    -- the changed buffer stays in view
    h.stub(vim.o, 'hidden', false)
    vim.api.nvim_buf_set_lines(vim.api.nvim_win_get_buf(file_win), 0, 1, false, { 'my unsaved change' })
    gf_on(st, '  • Edited app.txt +2 −1')
    t.eq(root .. '/app.txt', vim.api.nvim_buf_get_name(0))
    t.ok(vim.api.nvim_get_current_win() ~= file_win, 'a split')
    t.eq(root .. '/notes/readme.md', vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(file_win)), 'the changed buffer stays')
    t.eq(3, vim.api.nvim_win_get_cursor(0)[1])
    vim.bo[vim.api.nvim_win_get_buf(file_win)].modified = false
  end)
end)
