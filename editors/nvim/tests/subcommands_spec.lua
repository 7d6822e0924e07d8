-- One :Agentls {subcommand}: every plugin action is a subcommand (table-driven against stubs of
-- the plugin's entry points), the old :Agent* names are aliases of the same actions, completion
-- offers the subcommands, the server's slash commands and each subcommand's arguments, and the
-- <Plug>(agentls-…) mappings exist (no key mapped by the plugin) and run their action.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

-- Replaces each named entry point of the plugin with a recorder; returns the calls made.
local function record(names)
  local calls = {}
  for _, n in ipairs(names) do
    h.stub(agentls, n, function(...)
      table.insert(calls, { n, ... })
    end)
  end
  return calls
end

local entry_points = { 'chat', 'prompt', 'set_mode', 'approve', 'reject', 'cancel', 'retry', 'sessions', 'rename', 'new_session', 'command' }

t.describe(':Agentls subcommands', function()
  t.it('each subcommand runs its action with its arguments', function()
    local cases = {
      { 'Agentls chat', { 'chat' } },
      { 'Agentls prompt explain this', { 'prompt', 'explain this' } },
      { 'Agentls mode build', { 'set_mode', 'build' } },
      { 'Agentls switch plan', { 'set_mode', 'plan' } },
      { 'Agentls approve', { 'approve' } },
      { 'Agentls reject step two is wrong', { 'reject', 'step two is wrong' } },
      { 'Agentls cancel', { 'cancel' } },
      { 'Agentls retry', { 'retry' } },
      { 'Agentls history', { 'sessions' } },
      { 'Agentls sessions', { 'sessions' } },
      { 'Agentls rename Fix the login bug', { 'rename', 'Fix the login bug' } },
    }
    for _, c in ipairs(cases) do
      local calls = record(vim.tbl_filter(function(n)
        return n ~= 'command'
      end, entry_points))
      vim.cmd(c[1])
      t.eq({ c[2] }, calls, c[1])
    end
  end)

  t.it('a range goes to :Agentls prompt', function()
    local calls = record({ 'prompt' })
    local b = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_buf_set_lines(b, 0, -1, false, { 'one', 'two', 'three' })
    vim.api.nvim_set_current_buf(b)
    t.cleanup(function()
      vim.api.nvim_buf_delete(b, { force = true })
    end)
    vim.cmd('2,3Agentls prompt why')
    t.eq({ { 'prompt', 'why', 2, 3 } }, calls)
  end)

  t.it('the deprecated :Agent* names are aliases of the same actions', function()
    local cases = {
      { 'AgentChat', { 'chat' } },
      { 'AgentPrompt hi', { 'prompt', 'hi' } },
      { 'AgentNew build', { 'new_session', 'build' } },
      { 'AgentMode plan', { 'set_mode', 'plan' } },
      { 'AgentApprove', { 'approve' } },
      { 'AgentReject no', { 'reject', 'no' } },
      { 'AgentCancel', { 'cancel' } },
      { 'AgentSessions', { 'sessions' } },
    }
    for _, c in ipairs(cases) do
      local calls = record(entry_points)
      vim.cmd(c[1])
      t.eq({ c[2] }, calls, c[1])
    end
  end)

  t.it('the rest goes to the server as a slash command; diff, review, problems, requestchanges to their modules', function()
    local st = agentls._State.new(require('agentls.config').merge({ root = h.tmpdir() }))
    agentls._state = st
    t.cleanup(function()
      agentls._state = nil
    end)
    local prompts, own = {}, {}
    h.stub(st, 'prompt', function(_, text)
      table.insert(prompts, text)
    end)
    for mod, fn in pairs({ ['agentls.review'] = 'diff', ['agentls.plan_review'] = 'request_changes' }) do
      h.stub(require(mod), fn, function()
        table.insert(own, fn)
      end)
    end
    h.stub(require('agentls.review'), 'review', function(_, arg)
      table.insert(own, 'review ' .. arg)
    end)
    vim.cmd('Agentls plans')
    vim.cmd('Agentls compact')
    vim.cmd('Agentls review main.go') -- a project command named review
    vim.cmd('Agentls diff')
    vim.cmd('Agentls review off')
    vim.cmd('Agentls requestchanges')
    t.eq({ '/plans', '/compact', '/review main.go' }, prompts)
    t.eq({ 'diff', 'review off', 'request_changes' }, own)
  end)

  t.it('completion: the subcommands, the slash commands, and the arguments', function()
    local all = vim.fn.getcompletion('Agentls ', 'cmdline')
    for _, n in ipairs({ 'chat', 'prompt', 'mode', 'switch', 'approve', 'reject', 'cancel', 'retry', 'history', 'rename', 'diff', 'review', 'problems', 'requestchanges', 'health' }) do
      t.contains(all, n)
    end
    for _, n in ipairs({ 'plans', 'compact', 'new', 'model', 'rewind' }) do
      t.contains(all, n, 'the slash command')
    end
    local seen = {}
    for _, n in ipairs(all) do
      t.eq(nil, seen[n], 'listed once: ' .. n)
      seen[n] = true
    end
    t.eq({ 'history', 'health' }, vim.fn.getcompletion('Agentls h', 'cmdline'))
    t.eq({ 'plan', 'build' }, vim.fn.getcompletion('Agentls mode ', 'cmdline'))
    t.eq({ 'build' }, vim.fn.getcompletion('Agentls switch b', 'cmdline'))
    t.eq({ 'on', 'off' }, vim.fn.getcompletion('Agentls review ', 'cmdline'))
    t.eq({}, vim.fn.getcompletion('Agentls reject x', 'cmdline'))
  end)

  t.it('<Plug>(agentls-…) mappings exist, map no key, and run their action', function()
    local plugs = {
      { 'chat', 'n' },
      { 'prompt', 'n' },
      { 'prompt', 'x' },
      { 'approve', 'n' },
      { 'reject', 'n' },
      { 'cancel', 'n' },
      { 'retry', 'n' },
      { 'history', 'n' },
      { 'mode-plan', 'n' },
      { 'mode-build', 'n' },
      { 'diff', 'n' },
      { 'problems', 'n' },
    }
    for _, p in ipairs(plugs) do
      local lhs = '<Plug>(agentls-' .. p[1] .. ')'
      t.ok(vim.fn.maparg(lhs, p[2]) ~= '', lhs .. ' in mode ' .. p[2])
    end
    for _, m in ipairs(vim.api.nvim_get_keymap('n')) do
      t.ok(not (m.rhs or ''):find('agentls', 1, true) or m.lhs:find('^<Plug>'), 'a key mapped by the plugin: ' .. m.lhs)
    end
    local calls = record({ 'chat', 'set_mode', 'sessions' })
    local function press(keys)
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'mx', false)
    end
    press('<Plug>(agentls-history)')
    press('<Plug>(agentls-mode-build)')
    press('<Plug>(agentls-chat)')
    t.eq({ { 'sessions' }, { 'set_mode', 'build' }, { 'chat' } }, calls)
  end)
end)
