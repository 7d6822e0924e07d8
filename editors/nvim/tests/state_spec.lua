-- The plugin's state without a server: mode changes per session, the statusline, the lualine
-- component, the User autocmd, the chat model's rendering, and the help file's tags.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local config = require('agentls.config')
local chat = require('agentls.chat')

local function state()
  local st = agentls._State.new(config.merge({ root = h.tmpdir() }))
  agentls._state = st
  t.cleanup(function()
    agentls._state = nil
  end)
  return st
end

t.describe('state', function()
  t.it('the statusline follows the current session only', function()
    local st = state()
    local hs = st:handlers()
    t.eq('', agentls.statusline(), 'no session yet')
    st.session = { sessionId = 's1' }
    local fired = 0
    local id = vim.api.nvim_create_autocmd('User', {
      pattern = 'AgentlsModeChanged',
      callback = function()
        fired = fired + 1
      end,
    })
    t.cleanup(function()
      vim.api.nvim_del_autocmd(id)
    end)
    hs['agent/modeChanged'](nil, { sessionId = 's1', mode = 'plan', planFile = vim.NIL, source = 'user' })
    t.eq('%#AgentlsPlan#PLAN%*', agentls.statusline())
    hs['agent/modeChanged'](nil, { sessionId = 'other', mode = 'build', planFile = 'plans/x.plan', source = 'tool' })
    t.eq('PLAN', agentls.mode(), 'another session does not flip it')
    t.eq('plans/x.plan', st.plan_files.other)
    hs['agent/update'](nil, { sessionId = 's1', update = { sessionUpdate = 'current_mode_update', currentModeId = 'build' } })
    t.eq('%#AgentlsBuild#BUILD%*', agentls.statusline())
    t.eq(2, fired, 'User AgentlsModeChanged per change of the current session')
    local c = agentls.lualine()
    t.eq('BUILD', c[1]())
    t.eq(true, c.cond())
    t.eq('AgentlsBuild', c.color())
  end)

  t.it('a plan approval shows the plan it approves, not the session\'s attached one', function()
    -- exit_plan_mode on a second plan: the session's plan (from its plan updates) is still the
    -- first while the question approves permission.what.
    local st = state()
    st.plan_files.s1 = 'plans/a.plan'
    local q = { { name = 'approve', question = 'Review the plan `plans/a.plan`. Accept it and start building?' } }
    t.eq(st.root .. '/plans/b.plan', st:approval_plan({ sessionId = 's1', questions = q, permission = { kind = 'plan', what = 'plans/b.plan' } }))
    t.eq(st.root .. '/plans/a.plan', st:approval_plan({ sessionId = 's1', questions = q }), 'an older server: the attached plan')
    t.eq(st.root .. '/plans/a.plan', st:approval_plan({ sessionId = 's1', questions = q, permission = { kind = 'run', what = 'plans/b.plan' } }))
  end)

  t.it('highlight groups exist and can be overridden', function()
    local st = state()
    st.augroup = vim.api.nvim_create_augroup('agentls', { clear = true })
    st:start({ start_client = function() return nil end, buf_attach_client = function() end })
    t.ok(vim.fn.hlexists('AgentlsPlan') == 1 and vim.fn.hlexists('AgentlsBuild') == 1, 'defined')
    vim.cmd('highlight AgentlsPlan guifg=#ff0000')
    vim.cmd('doautocmd ColorScheme')
    t.contains(vim.fn.execute('highlight AgentlsPlan'), 'guifg=#ff0000', 'a colour scheme wins (default=true)')
    st:stop()
  end)

  t.it('the chat renders text, tools with status, refusals, plan and usage, and keeps the prompt area', function()
    local sent
    local c = chat.new(function(text)
      sent = text
    end)
    local b = c:buffer()
    t.cleanup(function()
      vim.api.nvim_buf_delete(b, { force = true })
    end)
    c:user('do it')
    c:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'Hello ' } })
    c:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'world.\nSecond line.' } })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'a', title = 'read app.txt', kind = 'read', status = 'pending', rawInput = { path = 'app.txt' } })
    c:update({ sessionUpdate = 'tool_call_update', toolCallId = 'a', status = 'completed' })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'b', title = 'edit app.txt', kind = 'edit', status = 'pending', rawInput = { path = 'app.txt', old_string = 'a', new_string = 'b' } })
    c:update({ sessionUpdate = 'tool_call_update', toolCallId = 'b', status = 'failed', refusal = { tool_name = 'edit' } })
    c:update({ sessionUpdate = 'plan', planFile = 'plans/p.plan', entries = { { content = 'one', status = 'completed' }, { content = 'two', status = 'in_progress' } } })
    c:update({ sessionUpdate = 'usage_update', inputTokens = 10, outputTokens = 5, contextTokens = 100, contextWindow = 1000 })
    c:update({ sessionUpdate = 'instructions_loaded', files = { { path = 'AGENTS.md', bytes = 1200, cut = false }, { path = 'src/AGENTS.md', bytes = 300, cut = true } } })
    vim.api.nvim_buf_set_lines(b, -1, -1, false, { 'my next question' })
    c:flush()
    local lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)
    local text = table.concat(lines, '\n')
    t.contains(text, '**You:** do it')
    t.contains(text, 'Hello world.\nSecond line.')
    t.contains(text, '  • Read app.txt\n')
    t.contains(text, '  • Edit app.txt … REFUSED (plan mode)')
    t.contains(text, '## Plan · plans/p.plan\n- [x] one\n- [~] two')
    t.contains(text, 'Tokens: 10 in · 5 out · context 100/1000')
    t.contains(text, '_Loaded project instructions: AGENTS.md (1.2 KB), src/AGENTS.md (300 B, cut)_')
    t.eq('my next question', lines[#lines], 'the prompt area survives a render')
    vim.api.nvim_set_current_buf(b)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
    t.eq('my next question', sent, '<CR> sends the prompt area')
    t.eq({ chat.marker, '' }, vim.api.nvim_buf_get_lines(b, -3, -1, false), 'the prompt area is emptied')
  end)

  t.it("the file names of tool lines, a sub-agent's and an edit's problems are links at their bytes", function()
    local c = chat.new(function() end)
    local b = c:buffer()
    t.cleanup(function()
      vim.api.nvim_buf_delete(b, { force = true })
    end)
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'e', title = 'edit dir/é.go', kind = 'edit', status = 'pending', rawInput = { path = 'dir/é.go', old_string = 'a', new_string = 'b' } })
    local problems = { success = true, result = { replacements = 1, diagnostics = { settled = true, new = { { path = 'dir/é.go', line = 12, severity = 'error', message = 'undefined: x' } } } } }
    c:update({ sessionUpdate = 'tool_call_update', toolCallId = 'e', status = 'completed', rawOutput = problems })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 't', title = 'task explore', kind = 'other', status = 'in_progress' })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 's', parentToolCallId = 't', childSessionId = 'abcdef123456', title = 'read x.go', kind = 'read', status = 'in_progress', rawInput = { path = 'x.go' } })
    c:flush()
    local got = {}
    for _, m in ipairs(vim.api.nvim_buf_get_extmarks(b, chat.links_ns, 0, -1, { details = true })) do
      local line = vim.api.nvim_buf_get_lines(b, m[2], m[2] + 1, false)[1]
      local l = c:link_at(m[2] + 1)
      table.insert(got, string.format('%s|%s|%s', line:sub(m[3] + 1, m[4].end_col), l.file, tostring(l.line)))
    end
    t.eq({ 'dir/é.go|dir/é.go|nil', 'dir/é.go|dir/é.go|12', 'x.go|x.go|nil' }, got, table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n'))
  end)

  t.it("a run's line says how its command ended, live and reloaded (the result as JSON text)", function()
    local c = chat.new(function() end)
    local b = c:buffer()
    t.cleanup(function()
      vim.api.nvim_buf_delete(b, { force = true })
    end)
    local runs = {
      { 'r1', { success = true, result = { exit_code = 0, output = 'ok' } }, '✓ (exit 0)' },
      { 'r2', '{"success":true,"result":{"exit_code":2,"output":"FAIL"}}', '✗ (exit 2)' },
      { 'r3', { success = true, result = { exit_code = -1, timed_out = true } }, '✗ (timed out)' },
      { 'r4', { success = false, error = 'denied' }, '… failed' },
    }
    for _, r in ipairs(runs) do
      c:update({ sessionUpdate = 'tool_call', toolCallId = r[1], title = 'run go test ./... ' .. r[1], kind = 'execute', status = 'in_progress' })
      c:update({ sessionUpdate = 'tool_call_update', toolCallId = r[1], status = r[2].success == false and 'failed' or 'completed', rawOutput = r[2] })
    end
    c:flush()
    local text = h.text(b)
    for _, r in ipairs(runs) do
      local verb = r[2].success == false and 'Run' or 'Ran'
      t.contains(text, '  • ' .. verb .. ' `go test ./... ' .. r[1] .. '` ' .. r[3] .. '\n')
    end
  end)

  t.it("answers as text: a button's label, Yes/No, lists, objects, dismissed", function()
    local qs = {
      { name = 'd', question = 'Run `go test`?\nin /tmp', buttons = { { label = 'Run once', value = 'once' }, { label = 'Reject', value = 'reject' } } },
      { name = 'ok', question = 'Proceed?' },
      { name = 'langs', question = 'Languages?' },
      { name = 'db', question = 'Database?' },
      { name = 'skip', question = 'Optional?' },
    }
    local a = { d = 'once', ok = false, langs = { 'go', 'lua' }, db = { host = 'h', port = 5432 }, extra = {} }
    t.eq({
      { question = 'Run `go test`?', answer = 'Run once' },
      { question = 'Proceed?', answer = 'No' },
      { question = 'Languages?', answer = 'go, lua' },
      { question = 'Database?', answer = 'host: h; port: 5432' },
      { question = 'Optional?', answer = '(no answer)' },
      { question = 'extra', answer = '(none)' }, -- an answer to no listed question comes last
    }, chat.answered(qs, a))
    t.eq({ { question = 'Proceed?', answer = '(dismissed)' } }, chat.answered({ qs[2] }, vim.NIL, true))
  end)

  t.it('history dates are local time, whatever offset the server wrote', function()
    local cases = {
      { '2026-11-26T10:53:35Z', 1795690415 },
      { '2026-11-26T11:53:35.250+01:00', 1795690415 },
      { '2024-02-29T23:59:00-05:00', 1709269140 },
    }
    for _, c in ipairs(cases) do
      t.eq(os.date('%Y-%m-%d %H:%M', c[2]), agentls.short_date(c[1]), c[1])
    end
    t.eq('yesterday', agentls.short_date('yesterday'), 'anything else as it is')
    local item = agentls.history_item({ title = 'Fix the login bug', updatedAt = cases[1][1], mode = 'plan' })
    t.eq('Fix the login bug  ·  ' .. os.date('%Y-%m-%d %H:%M', cases[1][2]) .. '  ·  PLAN', item)
    t.match('^%(untitled%)', agentls.history_item({ title = vim.NIL, updatedAt = cases[1][1], mode = 'build' }))
  end)

  t.it('doc/agentls.txt has valid, unique tags', function()
    local dir = h.tmpdir()
    vim.fn.writefile(vim.fn.readfile(h.plugin .. '/doc/agentls.txt'), dir .. '/agentls.txt')
    vim.cmd('helptags ' .. dir)
    local tags = table.concat(vim.fn.readfile(dir .. '/tags'), '\n')
    for _, tag in ipairs({ 'agentls.setup()', ':Agentls', ':Agentls-history', ':Agentls-rename', 'agentls-mappings', 'agentls-markdown', 'agentls-deprecated', ':AgentChat', ':AgentReject', 'hl-AgentlsPlan', 'agentls-versions' }) do
      t.contains(tags, tag .. '\t')
    end
  end)
end)

t.describe('window/showDocument', function()
  t.it('a plan opens in a split once; the previous window stays', function()
    local st = state()
    local root = st.root
    h.write(root .. '/plans/p.plan', '# Goal\n')
    t.cleanup(function()
      vim.cmd('silent! only')
      vim.cmd('silent! %bwipeout!')
    end)
    local before = vim.api.nvim_get_current_win()
    local hs = st:handlers()
    local res = hs['window/showDocument'](nil, { uri = vim.uri_from_fname(root .. '/plans/p.plan'), takeFocus = true })
    t.eq({ success = true }, res)
    t.eq(2, #vim.api.nvim_list_wins(), 'a split')
    t.eq(root .. '/plans/p.plan', vim.api.nvim_buf_get_name(0))
    t.ok(vim.api.nvim_win_is_valid(before), 'the previous window stays')
    hs['window/showDocument'](nil, { uri = vim.uri_from_fname(root .. '/plans/p.plan'), takeFocus = true })
    t.eq(2, #vim.api.nvim_list_wins(), 'not twice')
  end)

  t.it("a question's generated document opens in a split too, on every Neovim", function()
    local st = state()
    local doc = h.tmpdir() .. '/questions/autorun-1.md'
    h.write(doc, '# Keep what `x` did?\n')
    t.cleanup(function()
      vim.cmd('silent! only')
      vim.cmd('silent! %bwipeout!')
    end)
    local before = vim.api.nvim_get_current_win()
    local res = st:handlers()['window/showDocument'](nil, { uri = vim.uri_from_fname(doc), takeFocus = true })
    t.eq({ success = true }, res)
    t.eq(2, #vim.api.nvim_list_wins(), 'a split')
    t.eq(doc, vim.api.nvim_buf_get_name(0))
    t.ok(vim.api.nvim_win_is_valid(before), 'the previous window stays')
    local config = require('agentls.config')
    t.eq({ support = true }, config.capabilities(config.merge({}), {}).window.showDocument, 'declared, also on 0.7')
  end)
end)

t.describe('find_root', function()
  t.it('the folder of the first marker found upwards, else the directory itself', function()
    local root = h.tmpdir()
    h.write(root .. '/.agentls.yaml', 'edits: auto\n')
    vim.fn.mkdir(root .. '/a/b/.git', 'p')
    t.eq(root, agentls.find_root({ '.agentls.yaml', '.git' }, root .. '/a/b'))
    t.eq(root .. '/a/b', agentls.find_root({ '.git' }, root .. '/a/b'))
    local bare = h.tmpdir()
    t.eq(bare, agentls.find_root({ '.agentls-none' }, bare))
  end)
end)
