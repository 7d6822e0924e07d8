-- History and reload against the real server: `:Agentls history` lists the chats with their
-- titles (the first prompt's first line) and dates and opens the one picked; `:Agentls rename`
-- renames through agent/setTitle; after a restart the chat rebuilt by agent/loadSession shows
-- each tool call with the title and status it had (the edit PLAN refused stays refused), the
-- question with the user's answer as text, and the session's title.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local function request_sync(c, method, params)
  local res
  if vim.fn.has('nvim-0.11') == 1 then
    res = c:request_sync(method, params, 5000)
  else
    res = c.request_sync(method, params, 5000)
  end
  t.ok(res and not res.err, method .. ': ' .. vim.inspect(res))
  return res.result
end

-- The chat's text, rendered now.
local function chat_text(st)
  st.chat:flush()
  return h.text(st.chat.bufnr)
end

-- The tool lines of the chat (with the questions and answers under them).
local function tool_lines(text)
  local out = {}
  for _, l in ipairs(vim.split(text, '\n', true)) do
    if l:find('^  • ') or l:find('^    %? ') or l:find('^    → ') then
      table.insert(out, l)
    end
  end
  return out
end

-- K on the chat line `row`: the details buffer's text (then closed).
local function details_of(st, row)
  local lnum
  for i, l in ipairs(vim.api.nvim_buf_get_lines(st.chat.bufnr, 0, -1, false)) do
    if l == row then
      lnum = i
    end
  end
  t.ok(lnum, 'the line ' .. row)
  vim.api.nvim_set_current_win(vim.fn.bufwinid(st.chat.bufnr))
  vim.api.nvim_win_set_cursor(0, { lnum, 0 })
  vim.api.nvim_feedkeys('K', 'x', false)
  local b = vim.api.nvim_get_current_buf()
  t.eq('agentls://details', vim.api.nvim_buf_get_name(b))
  local text = h.text(b)
  vim.cmd('close')
  return text
end

local function header(text)
  return vim.split(text, '\n', true)[1]
end

t.describe('history', function()
  t.it(':Agentls history lists titles and dates, opens the one picked; :Agentls rename renames', function()
    local st = h.start({}, [[
steps:
  - text: "First answer."
  - text: "Second answer."
]])
    vim.cmd('Agentls chat')
    agentls.prompt('Fix the login bug\nin the handler')
    t.eq('end_turn', h.turn(st).stopReason)
    local first = st.session.sessionId
    t.wait(5000, function()
      return header(chat_text(st)):find('Fix the login bug', 1, true)
    end, 'the title in the chat header')
    vim.cmd('AgentNew')
    t.wait(5000, function()
      return st.session.sessionId ~= first
    end, 'a second session')
    agentls.prompt('Add a README')
    t.eq('end_turn', h.turn(st).stopReason)
    local prompt, formatted
    h.stub(vim.ui, 'select', function(items, opts, cb)
      prompt = opts.prompt
      formatted = vim.tbl_map(opts.format_item, items)
      for _, s in ipairs(items) do
        if s.sessionId == first then
          return cb(s)
        end
      end
      cb(nil)
    end)
    vim.cmd('Agentls history')
    t.wait(5000, function()
      return st.session.sessionId == first
    end, 'the picked chat loaded')
    t.match('open a chat', prompt, 'the picker says what it is for')
    t.eq(2, #formatted, vim.inspect(formatted))
    t.match('^Add a README  ·  %d%d%d%d%-%d%d%-%d%d %d%d:%d%d  ·  PLAN$', formatted[1], 'newest first, title and date')
    t.match('^Fix the login bug  ·  %d%d%d%d%-%d%d%-%d%d %d%d:%d%d  ·  PLAN$', formatted[2])
    local text = chat_text(st)
    t.contains(header(text), 'Fix the login bug')
    t.contains(text, 'First answer.')

    vim.cmd('Agentls rename Login bug, fixed')
    t.wait(5000, function()
      return header(chat_text(st)):find('Login bug, fixed', 1, true)
    end, 'the new title in the chat header')
    local list = request_sync(st:client(), 'agent/listSessions', vim.empty_dict())
    local titles = {}
    for _, s in ipairs(list.sessions) do
      titles[s.sessionId] = s.title
    end
    t.eq('Login bug, fixed', titles[first], 'the server has the new title')
  end)

  t.it('after a restart the reopened chat shows the tool titles, the refused edit, the answer and the title as before', function()
    local st = h.start({ ['app.txt'] = 'alpha\n' }, [[
steps:
  - text: "Looking."
    tool_calls:
      - {id: c1, name: read, args: {path: "app.txt"}}
  - text: "Trying an edit."
    tool_calls:
      - {id: c2, name: edit, args: {path: "app.txt", old_string: "alpha", new_string: "ALPHA"}}
  - text: "Asking."
    expect:
      tool_result_contains: {c2: ["System is in Plan Mode"]}
    tool_calls:
      - id: q1
        name: ask_user
        args:
          questions:
            - {name: port, question: "Which port?", schema: {type: integer}}
  - text: "Port noted."
    expect:
      tool_result_contains: {q1: ["8080"]}
]])
    h.stub(vim.ui, 'input', function(_, cb)
      vim.schedule(function()
        cb('8080')
      end)
    end)
    vim.cmd('Agentls chat')
    agentls.prompt('Shout the first word')
    t.eq('end_turn', h.turn(st).stopReason)
    local before = chat_text(st)
    local tools = tool_lines(before)
    t.eq('  • Read app.txt', tools[1], 'the read')
    t.eq('  • Edit app.txt … REFUSED (plan mode)', tools[2], 'the refused edit')
    t.eq('  • Asked: Which port?', tools[3], 'the question')
    t.contains(tools, '    ? Which port?')
    t.contains(tools, '    → 8080', 'the answer as text')
    t.contains(header(before), 'Shout the first word')
    local first = st.session.sessionId

    -- Neovim and the server restart: setup() again, then the chat reopens the last one
    local st2 = h.restart(st, first)
    local after = chat_text(st2)
    t.eq(tools, tool_lines(after), 'the tool lines as they were:\n' .. after)
    t.ok(not tool_lines(after)[2]:find('completed'), 'the refused edit is not completed')
    t.eq(header(before), header(after), 'the title')
    t.contains(after, '**You:** Shout the first word')
    t.contains(after, 'Port noted.')
  end)

  t.it('BUILD rows read "Edited app.txt +2 −1" and "Ran `…` ✓ (exit 0)", live and after a restart; K shows the raw call', function()
    local st = h.start({ ['app.txt'] = 'alpha\nbeta\n' }, [[
steps:
  - text: "Editing."
    tool_calls:
      - {id: e1, name: edit, args: {path: "app.txt", old_string: "alpha\n", new_string: "ALPHA\nGAMMA\n"}}
  - text: "Testing."
    expect:
      tool_result_contains: {e1: ["\"success\":true"]}
    tool_calls:
      - {id: r1, name: run, args: {command: "echo rows-ok"}}
  - text: "Failing."
    tool_calls:
      - {id: r2, name: run, args: {command: "exit 3"}}
  - text: "Done."
]])
    vim.cmd('AgentNew build')
    t.wait(10000, function()
      return agentls.mode() == 'BUILD'
    end, 'a build session')
    h.stub(vim.ui, 'select', function(items, opts, cb)
      for _, it in ipairs(items) do
        local l = (opts.format_item or tostring)(it)
        if l == 'Run' or l == 'Run once' then
          return vim.schedule(function()
            cb(it)
          end)
        end
      end
      vim.schedule(function()
        cb(nil)
      end)
    end)
    vim.cmd('Agentls chat')
    agentls.prompt('edit and test')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    local before = chat_text(st)
    local rows = vim.tbl_filter(function(l)
      return l:find('^  • ') ~= nil
    end, vim.split(before, '\n', true))
    t.eq({ '  • Edited app.txt +2 −1', '  • Ran `echo rows-ok` ✓ (exit 0)', '  • Ran `exit 3` ✗ (exit 3)' }, rows, before)
    local full = {
      '  • Edited app.txt +2 −1',
      '  • Ran `echo rows-ok` ✓ (exit 0)',
      '    ? Run `echo rows-ok`?',
      '    → Run', -- the permission's answer, as text
      '  • Ran `exit 3` ✗ (exit 3)',
      '    ? Run `exit 3`?',
      '    → Run',
    }
    t.eq(full, tool_lines(before), before)

    -- K on the run's line: its raw input and output
    local details = details_of(st, rows[2])
    t.contains(details, '# Ran `echo rows-ok` ✓ (exit 0)\n')
    t.contains(details, '## Input\n{\n  "command": "echo rows-ok"\n}')
    t.match('"exit_code": 0', details)

    -- Neovim and the server restart: the chat rebuilt from agent/loadSession reads the same
    local first = st.session.sessionId
    local st2 = h.restart(st, first)
    local after = chat_text(st2)
    t.eq(full, tool_lines(after), 'the rows and answers as they were:\n' .. after)
    t.eq(details, details_of(st2, rows[2]), 'the same details after the restart')
  end)

  t.it('a failed prompt is marked after a restart and :Agentls retry sends it again, once', function()
    local st = h.start({}, [[
steps:
  - error: "upstream exploded (503)"
]])
    vim.cmd('Agentls chat')
    agentls.prompt('summarise the repo')
    local r = h.turn(st)
    t.eq('error', r.stopReason, vim.inspect(r))
    t.wait(5000, function()
      return chat_text(st):find('error: upstream exploded (503) (:Agentls retry sends it again)', 1, true)
    end, 'the error with the retry hint in the chat')
    local first = st.session.sessionId

    -- restart with a model that now answers
    local old = st:client()
    local o = vim.deepcopy(st.opts)
    o.model.script = h.tmpdir() .. '/script.yaml'
    h.write(o.model.script, 'steps:\n  - text: "Recovered."\n    expect:\n      last_message_contains: ["summarise the repo"]\n')
    local st2 = agentls.setup(o)
    st2.trace = t.note
    t.wait(5000, function()
      return vim.lsp.get_client_by_id(old.id) == nil
    end, 'the first server to exit')
    vim.cmd('Agentls chat')
    t.wait(10000, function()
      return st2.session and st2.session.sessionId == first
    end, 'the last chat reopened')
    t.contains(chat_text(st2), '**You:** summarise the repo\n\n_error: upstream exploded (503) (:Agentls retry sends it again)_')
    vim.cmd('Agentls retry')
    r = h.turn(st2, ':Agentls retry')
    t.eq('end_turn', r.stopReason, vim.inspect(r))
    local text = chat_text(st2)
    t.contains(text, 'Recovered.')
    local _, prompts = text:gsub('%*%*You:%*%* summarise the repo', '')
    t.eq(1, prompts, 'the prompt is not added again:\n' .. text)
    local notes = {}
    h.stub(vim, 'notify', function(msg)
      table.insert(notes, msg)
    end)
    vim.cmd('Agentls retry')
    t.wait(5000, function()
      return #notes > 0
    end, 'the answer to a second retry')
    t.contains(notes, 'agentls: no failed prompt to retry')
  end)
end)
