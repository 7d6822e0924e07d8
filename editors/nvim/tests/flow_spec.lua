-- End-to-end: the plugin in headless Neovim 0.7.2 against the real agentls binary and the
-- scripted model (the model's side checks what it receives: a failed `expect` ends the turn
-- with an error, which these tests assert against).
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local plan_build = [[
name: nvim_plan_build
steps:
  - text: "Looking around."
    tool_calls:
      - {id: c1, name: read, args: {path: "app.txt"}}
  - text: "Trying a direct edit."
    expect:
      tool_result_contains: {c1: ["alpha"]}
    tool_calls:
      - {id: c2, name: edit, args: {path: "app.txt", old_string: "alpha", new_string: "ALPHA"}}
  - text: "Writing the plan."
    expect:
      tool_result_contains: {c2: ["System is in Plan Mode"]}
    tool_calls:
      - id: c3
        name: plan_write
        args:
          title: Shout
          path: plans/shout.plan
          content: "# Goal\nUppercase alpha.\n\n## Steps\n- [ ] Replace alpha with ALPHA\n"
  - text: "Asking for approval."
    tool_calls:
      - {id: c4, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan}}
  - text: "Building."
    expect:
      tool_result_contains: {c4: ["\"approved\":true"]}
      system_contains: ["You are in BUILD mode"]
    tool_calls:
      - {id: c5, name: edit, args: {path: "app.txt", old_string: "alpha", new_string: "ALPHA"}}
  - text: "All done now."
    expect:
      tool_result_contains: {c5: ["\"success\":true"]}
]]

t.describe('plugin flow', function()
  t.it('PLAN, plan shown in a split, approval by vim.ui.select, BUILD; chat, edit in buffer and on disk', function()
    local st, root = h.start({ ['app.txt'] = 'alpha\nbeta\n' }, plan_build)
    vim.cmd('edit ' .. root .. '/app.txt')
    local app = vim.api.nvim_get_current_buf()
    vim.cmd('AgentChat')
    t.wait(5000, function()
      return agentls.mode() == 'PLAN'
    end, 'the new session in PLAN')
    t.match('AgentlsPlan#PLAN', agentls.statusline())
    local plan_visible_at_question, plan_drawn_at_question, working_at_question, prompts = nil, nil, nil, {}
    h.stub(vim.ui, 'select', h.as_a_person(function(items, opts, cb)
      table.insert(prompts, opts.prompt)
      plan_drawn_at_question = h.screen():find('Replace alpha with ALPHA', 1, true) ~= nil
      working_at_question = h.text(st.chat.bufnr):find(require('agentls.chat').working, 1, true) ~= nil
      plan_visible_at_question = false
      for _, w in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w)) == root .. '/plans/shout.plan' then
          plan_visible_at_question = true
        end
      end
      local labels = vim.tbl_map(opts.format_item, items)
      t.contains(labels, 'Accept & Build')
      t.contains(labels, 'Keep Planning')
      for _, it in ipairs(items) do
        if opts.format_item(it) == 'Accept & Build' then
          vim.schedule(function()
            cb(it)
          end)
        end
      end
    end))
    local changes = {}
    vim.api.nvim_create_autocmd('User', {
      pattern = 'AgentlsModeChanged',
      callback = function()
        table.insert(changes, agentls.mode())
      end,
    })
    agentls.prompt('Uppercase alpha')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(true, plan_visible_at_question, 'the plan was in a window when the question came')
    t.eq(true, plan_drawn_at_question, 'the plan was on the screen when the question came')
    t.eq(true, working_at_question, 'the chat said the turn was running while the question waited')
    t.eq(1, #prompts, 'one approval question')
    t.eq('BUILD', agentls.mode())
    t.match('AgentlsBuild#BUILD', agentls.statusline())
    t.contains(changes, 'BUILD', 'User AgentlsModeChanged fired')
    t.eq('ALPHA', vim.api.nvim_buf_get_lines(app, 0, 1, false)[1], 'the edit in the buffer')
    t.eq(false, vim.bo[app].modified, 'the buffer was written')
    t.eq('ALPHA\nbeta\n', h.read(root .. '/app.txt'), 'the edit on disk')
    st.chat:flush()
    local chat = h.text(st.chat.bufnr)
    t.eq('agentls-chat', vim.bo[st.chat.bufnr].filetype)
    t.contains(chat, 'Looking around.')
    t.contains(chat, 'All done now.')
    t.contains(chat, '**You:** Uppercase alpha')
    t.contains(chat, '  • Read app.txt\n', 'the read')
    t.contains(chat, '  • Edit app.txt … REFUSED (plan mode)\n', 'the refused edit')
    t.contains(chat, '  • Asked to approve plans/shout.plan\n', 'the approval')
    t.contains(chat, '  • Edited app.txt +1 −1\n', 'the BUILD edit with its line counts')
    t.contains(chat, '## Plan · plans/shout.plan')
    t.contains(chat, 'Replace alpha with ALPHA')
    t.match('Tokens: %d+ in · %d+ out', chat)
    t.ok(not chat:find(require('agentls.chat').working, 1, true), 'the working line is gone after the turn')
  end)

  t.it('an askUser text question: local check, server error shown on re-ask, the model gets the answer', function()
    local st = h.start({ ['app.txt'] = 'x\n' }, [[
steps:
  - text: "Asking."
    tool_calls:
      - id: q1
        name: ask_user
        args:
          questions:
            - {name: port, question: "Which port?", schema: {type: integer, minimum: 1, maximum: 65535, multipleOf: 2}}
  - text: "Port noted."
    expect:
      tool_result_contains: {q1: ["\"port\":8080"]}
]])
    local prompts, answers = {}, { '0', '8081', '8080' }
    h.stub(vim.ui, 'input', function(opts, cb)
      table.insert(prompts, opts.prompt)
      local a = table.remove(answers, 1)
      vim.schedule(function()
        cb(a)
      end)
    end)
    agentls.prompt('Which port?')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(3, #prompts, 'asked three times')
    t.match('^Which port%?', prompts[1])
    t.contains(prompts[2], 'must be at least 1', 'the local check')
    t.match('multiple', prompts[3], 'the server error on re-ask')
    t.eq(2, #vim.tbl_filter(function(n) return n.kind == 'agent/askUser' end, t.notes()), 'the server asked twice')
  end)

  t.it('a visual range goes as context', function()
    local st, root = h.start({ ['app.txt'] = 'one\ntwo\nthree\n' }, [[
steps:
  - text: "Seen."
    expect:
      last_message_contains: ["Explain", "Selected in app.txt, lines 2-3", "two\nthree"]
]])
    vim.cmd('edit ' .. root .. '/app.txt')
    vim.cmd('2,3AgentPrompt Explain')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
  end)

  -- A prompt sent from the code with the chat closed: the answer must be on the screen (it was
  -- only in a hidden buffer), and the cursor stays in the code.
  local seen = 'steps:\n  - text: "The answer is here."\n'
  t.it('a prompt with the chat closed opens it beside the code; the cursor stays', function()
    local st, root = h.start({ ['app.txt'] = 'one\n' }, seen)
    vim.cmd('edit ' .. root .. '/app.txt')
    local code = vim.api.nvim_get_current_win()
    vim.cmd('Agentls prompt Explain')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(code, vim.api.nvim_get_current_win(), 'the cursor stayed in the code window')
    local w = vim.fn.bufwinid(st.chat.bufnr or -1)
    t.ok(w ~= -1, 'a window shows the chat')
    st.chat:flush()
    vim.cmd('redraw')
    t.contains(h.screen(), 'The answer is here.', 'the answer on the screen')
    t.eq(2, #vim.api.nvim_tabpage_list_wins(0), 'one chat window beside the code')
    vim.cmd('Agentls prompt Again')
    h.turn(st)
    t.eq(2, #vim.api.nvim_tabpage_list_wins(0), 'a chat already shown opens no second window')
  end)

  t.it('chat.open_on_prompt = false leaves the chat closed', function()
    local st, root = h.start({ ['app.txt'] = 'one\n' }, seen, { chat = { open_on_prompt = false } })
    vim.cmd('edit ' .. root .. '/app.txt')
    vim.cmd('Agentls prompt Explain')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(1, #vim.api.nvim_tabpage_list_wins(0), 'no chat window')
  end)

  t.it("a running command shows its newest output line under its row, as text (live_spec.lua)", function()
    local st = h.start({ ['build.sh'] = 'echo compiling; sleep 2; echo done\n' }, [[
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "sh build.sh"}}
  - text: "Built."
    expect:
      tool_result_contains: {r1: ["compiling", "done"]}
]])
    vim.cmd('AgentNew build')
    t.wait(5000, function()
      return agentls.mode() == 'BUILD'
    end, 'a BUILD session')
    h.choose('Run')
    vim.cmd('Agentls chat')
    agentls.prompt('build')
    local live_ns = require('agentls.chat').live_ns
    t.wait(15000, function()
      st.chat:flush()
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(st.chat.bufnr, live_ns, 0, -1, { details = true })) do
        if m[4].virt_text[1][1] == 'compiling' then
          return vim.api.nvim_buf_get_lines(st.chat.bufnr, m[2], m[2] + 1, false)[1] == '    ⋯'
        end
      end
    end, "the command's output line in the chat while it runs")
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    st.chat:flush()
    t.ok(not h.text(st.chat.bufnr):find('⋯', 1, true), 'the live line is gone after the turn')
    t.eq({}, vim.api.nvim_buf_get_extmarks(st.chat.bufnr, live_ns, 0, -1, {}), 'no live text after the turn')
  end)

  t.it('build→plan asks for confirmation', function()
    local st = h.start({}, 'steps: []\n')
    vim.cmd('AgentNew build')
    t.wait(5000, function()
      return agentls.mode() == 'BUILD'
    end, 'a build session')
    local asked = 0
    local answer = 'Stay in BUILD'
    h.stub(vim.ui, 'select', function(items, opts, cb)
      asked = asked + 1
      t.match('plan mode', opts.prompt)
      cb(answer)
    end)
    vim.cmd('AgentMode plan')
    t.eq(1, asked, 'asked')
    local listed
    st:request('agent/listSessions', vim.empty_dict(), function(_, res)
      listed = res
    end)
    t.wait(5000, function()
      return listed
    end, 'listSessions')
    t.eq('build', listed.sessions[1].mode, 'declined: still build on the server')
    t.eq('BUILD', agentls.mode())
    answer = 'Switch to PLAN'
    vim.cmd('AgentMode plan')
    t.eq(2, asked)
    t.wait(5000, function()
      return agentls.mode() == 'PLAN'
    end, 'PLAN after confirming')
    -- plan→build needs no confirmation
    vim.cmd('AgentMode build')
    t.wait(5000, function()
      return agentls.mode() == 'BUILD'
    end, 'BUILD')
    t.eq(2, asked, 'plan→build asked nothing')
  end)

  t.it(':AgentSessions loads the picked session into the chat', function()
    local st = h.start({}, [[
steps:
  - text: "First answer."
]])
    agentls.prompt('hello there')
    t.eq('end_turn', h.turn(st).stopReason)
    local first = st.session.sessionId
    vim.cmd('AgentNew')
    t.wait(5000, function()
      return st.session.sessionId ~= first
    end, 'a second session')
    h.stub(vim.ui, 'select', function(items, opts, cb)
      for _, s in ipairs(items) do
        if s.sessionId == first then
          return cb(s)
        end
      end
      cb(nil)
    end)
    vim.cmd('AgentSessions')
    t.wait(5000, function()
      return st.session.sessionId == first
    end, 'the first session loaded')
    vim.cmd('AgentChat')
    st.chat:flush()
    local chat = h.text(st.chat.bufnr)
    t.contains(chat, '**You:** hello there')
    t.contains(chat, 'First answer.')
  end)

  t.it(':AgentChat after a restart reopens the last chat', function()
    -- each server process plays the script from its start
    local st = h.start({}, [[
steps:
  - text: "An answer."
]])
    agentls.prompt('hello there')
    t.eq('end_turn', h.turn(st).stopReason)
    local first = st.session.sessionId
    -- Neovim restarts: setup() again (a new State and a new server for the same workspace)
    local st2 = h.restart(st)
    t.wait(10000, function()
      return st2.server_info ~= nil
    end, 'the new server')
    t.eq(nil, st2.session, 'no session yet')
    vim.cmd('AgentChat')
    agentls.prompt('and again') -- waits for the reopened chat, does not start another
    t.eq('end_turn', h.turn(st2).stopReason)
    t.eq(first, st2.session.sessionId, 'the last chat is current')
    st2.chat:flush()
    local chat = h.text(st2.chat.bufnr)
    local _, answers = chat:gsub('An answer%.', '')
    t.match('%*%*You:%*%* hello there\n\nAn answer%.', chat, 'the last chat reloaded')
    t.match('%*%*You:%*%* and again\n\nAn answer%.', chat, 'and continued')
    t.eq(2, answers, 'both answers in the chat:\n' .. chat)
  end)

  t.it('save_edits = false leaves the edited buffer unsaved', function()
    local st, root = h.start({ ['app.txt'] = 'alpha\n' }, [[
steps:
  - text: "Editing."
    tool_calls:
      - {id: c1, name: edit, args: {path: "app.txt", old_string: "alpha", new_string: "ALPHA"}}
  - text: "Done."
]], { save_edits = false })
    vim.cmd('edit ' .. root .. '/app.txt')
    local app = vim.api.nvim_get_current_buf()
    vim.cmd('AgentNew build')
    t.wait(5000, function()
      return agentls.mode() == 'BUILD'
    end, 'build')
    agentls.prompt('go')
    t.eq('end_turn', h.turn(st).stopReason)
    t.eq('ALPHA', vim.api.nvim_buf_get_lines(app, 0, 1, false)[1])
    t.eq(true, vim.bo[app].modified, 'not written')
    t.eq('alpha\n', h.read(root .. '/app.txt'))
  end)

  t.it(':checkhealth agentls reports the binary, the config and the running server', function()
    h.start({}, 'steps:\n  - text: "hi"\n')
    vim.cmd('checkhealth agentls')
    local report = h.text(vim.api.nvim_get_current_buf())
    t.match('OK:? [^\n]*agentls %S+ %(protocol %d+%)', report, 'binary and version')
    t.match('OK:? options are valid', report)
    t.match('OK:? config files: the server reported no problem', report)
    t.match('OK:? running %(client %d+, agentls', report)
    t.match('OK:? model reachable: scripted', report, 'agent/checkModel')
    t.ok(not report:find('model reachable: [^\n]* at%s*\n'), 'an " at" without an address: ' .. report)
    t.match('OK:? sandbox: [^\n]*writes only in the workspace', report, 'agent/checkModel sandbox')
    t.match('landlock: [^\n]*; bwrap: ', report, 'sandbox layers')
    t.ok(not report:find('ERROR'), 'no error in:\n' .. report)
    t.ok(not report:find('WARNING'), 'no warning in:\n' .. report)
  end)

  t.it(':checkhealth agentls reports a model that cannot be reached', function()
    h.start({}, 'steps: []\n', { model = { provider = 'openai', base_url = 'http://127.0.0.1:9/v1', api_key_env = 'AGENTLS_NVIM_NO_SUCH_KEY', script = nil } })
    vim.cmd('checkhealth agentls')
    local report = h.text(vim.api.nvim_get_current_buf())
    t.match('ERROR:? model not reachable: openai [^\n]* at http://127%.0%.0%.1:9/v1', report)
  end)
end)

local approval_script = [[
steps:
  - text: "Planning."
    tool_calls:
      - id: c1
        name: plan_write
        args:
          title: Tiny
          path: plans/tiny.plan
          content: "# Goal\nTiny.\n\n## Steps\n- [ ] One step\n"
  - text: "Asking for approval."
    tool_calls:
      - {id: c2, name: exit_plan_mode, args: {plan_file_path: plans/tiny.plan}}
  - text: "Revising."
    expect:
      tool_result_contains: {c2: ["Plan rejected by the user. Reason: too big"]}
]]

t.describe('while a question waits', function()
  t.it('the editor stays usable and :AgentReject {reason} resolves the approval', function()
    local st = h.start({}, approval_script)
    local asked = false
    h.stub(vim.ui, 'select', function()
      asked = true -- the user is still deciding: never answers
    end)
    agentls.prompt('Plan something tiny')
    t.wait(10000, function()
      return asked
    end, 'the approval question')
    -- not blocked: other requests go and come back while the question is open
    local listed
    st:request('agent/listSessions', vim.empty_dict(), function(_, res)
      listed = res
    end)
    t.wait(5000, function()
      return listed
    end, 'a reply while the question is open')
    t.eq(nil, st.last_result, 'the turn still waits')
    vim.cmd('AgentReject too big')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq('PLAN', agentls.mode())
    -- The withdrawal may reach the editor after the turn's result: wait for it.
    t.wait(5000, function()
      return vim.tbl_contains(vim.tbl_map(function(n) return n.kind end, t.notes()), '$/cancelRequest')
    end, 'the open question withdrawn ($/cancelRequest)')
  end)

  t.it('the server killed mid-turn: the working line goes and the chat says so', function()
    local st = h.start({}, approval_script)
    local asked = false
    h.stub(vim.ui, 'select', function()
      asked = true -- never answers: the turn waits when the server dies
    end)
    vim.cmd('AgentChat')
    agentls.prompt('Plan something tiny')
    t.wait(10000, function()
      return asked
    end, 'the approval question')
    st.chat:flush()
    t.contains(h.text(st.chat.bufnr), require('agentls.chat').working, 'the working line while the turn runs')
    local killed = vim.fn.system({ 'pkill', '-KILL', '-P', tostring(vim.fn.getpid()), '-f', 'agentls' })
    t.eq(0, vim.v.shell_error, 'pkill found the server: ' .. killed)
    t.wait(10000, function()
      st.chat:flush()
      return not h.text(st.chat.bufnr):find(require('agentls.chat').working, 1, true)
    end, 'the working line to go after the server died')
    t.contains(h.text(st.chat.bufnr), 'the server exited', 'the chat says why the turn ended')
  end)

  t.it(':AgentApprove approves the pending plan', function()
    local st = h.start({}, [[
steps:
  - text: "Planning."
    tool_calls:
      - id: c1
        name: plan_write
        args: {title: Tiny, path: plans/tiny.plan, content: "# Goal\nTiny.\n\n## Steps\n- [ ] One step\n"}
  - text: "Asking for approval."
    tool_calls:
      - {id: c2, name: exit_plan_mode, args: {plan_file_path: plans/tiny.plan}}
  - text: "Approved, building."
    expect:
      tool_result_contains: {c2: ["\"approved\":true"]}
]])
    local asked = false
    h.stub(vim.ui, 'select', function()
      asked = true
    end)
    agentls.prompt('Plan something tiny')
    t.wait(10000, function()
      return asked
    end, 'the approval question')
    h.read_as_a_person()
    vim.cmd('AgentApprove')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq('BUILD', agentls.mode())
  end)

  t.it(':AgentCancel ends the turn and withdraws the question', function()
    local st = h.start({}, [[
steps:
  - text: "Asking."
    tool_calls:
      - id: q1
        name: ask_user
        args:
          questions:
            - {name: name, question: "Your name?", schema: {type: string}}
]])
    local asked = false
    h.stub(vim.ui, 'input', function()
      asked = true
    end)
    agentls.prompt('Ask me')
    t.wait(10000, function()
      return asked
    end, 'the question')
    vim.cmd('AgentCancel')
    local r = h.turn(st)
    t.eq('cancelled', r.stopReason)
    st.chat:buffer()
    st.chat:flush()
    t.contains(h.text(st.chat.bufnr), 'turn ended: cancelled')
  end)
end)

t.describe('turn endings', function()
  t.it('an answer the output token limit cut off says so in the chat', function()
    local st = h.start({}, [[
steps:
  - text: "The first half of the answer, cut off in the mid"
    finish_reason: length
]])
    agentls.prompt('Explain')
    local r = h.turn(st)
    t.eq('max_tokens', r.stopReason, 'stop reason')
    st.chat:buffer()
    st.chat:flush()
    local text = h.text(st.chat.bufnr)
    t.contains(text, 'cut off in the mid')
    t.contains(text, 'cut off: the model reached its output token limit')
  end)
end)

t.describe('checkhealth', function()
  t.it('reports an invalid .agentls.yaml as an error', function()
    local st = h.start({ ['.agentls.yaml'] = 'edits: sometimes\n' }, 'steps: []\n')
    t.wait(5000, function()
      return #st.config_messages > 0
    end, "the server's config message")
    vim.cmd('checkhealth agentls')
    local report = h.text(vim.api.nvim_get_current_buf())
    t.match('ERROR:? agentls config [^\n]*%.agentls%.yaml', report)
  end)

  t.it('lsp/agentls.lua is a client config with the plugin handlers', function()
    local agentls_mod = require('agentls')
    t.cleanup(function()
      agentls_mod._state = nil
    end)
    local cfg = dofile(h.plugin .. '/lsp/agentls.lua')
    t.eq({ 'agentls' }, cfg.cmd)
    t.eq('agentls', cfg.name)
    t.ok(cfg.handlers['agent/askUser'] and cfg.handlers['agent/modeChanged'], 'handlers')
    t.eq({ '.agentls.yaml', '.git' }, cfg.root_markers)
    t.eq(true, cfg.capabilities.experimental.agent.askUser)
    t.ok(agentls_mod.state(), 'the state the statusline reads')
  end)
end)

t.describe('API key', function()
  t.it('api_key_cmd reaches the server process environment, never initializationOptions', function()
    local st = h.start({}, 'steps: []\n', { model = { api_key_env = 'AGENTLS_NVIM_TEST_KEY', api_key_cmd = { 'printf', 'sk-nvim-test-123' } } })
    local c = st:client()
    -- 0.7 shows the pid on the rpc object; 0.11 does not: the one agentls child of this Neovim
    local pid = c.rpc.pid
    if not pid then
      local servers = vim.tbl_filter(function(p)
        local cmdline = table.concat(vim.fn.readfile('/proc/' .. p .. '/cmdline', 'b'), '\n')
        return cmdline:find(vim.env.AGENTLS_BIN, 1, true) == 1
      end, vim.api.nvim_get_proc_children(vim.fn.getpid()))
      t.eq(1, #servers, 'one agentls process')
      pid = servers[1]
    end
    t.ok(pid, 'the server pid')
    local environ = table.concat(vim.fn.readfile('/proc/' .. pid .. '/environ', 'b'), '\n')
    t.contains(environ, 'AGENTLS_NVIM_TEST_KEY=sk-nvim-test-123')
    local init = vim.json.encode(c.config.init_options)
    t.ok(not init:find('sk%-nvim%-test'), 'no key in initializationOptions: ' .. init)
    t.ok(not init:find('printf'), 'no key command in initializationOptions: ' .. init)
    t.contains(init, '"api_key_env":"AGENTLS_NVIM_TEST_KEY"')
  end)
end)

t.describe('fallback without a deferred reply', function()
  -- protocol 2: answered "dismissed" at once, resolved by agent/resolvePlan; protocol 1 (a
  -- dismissed approval is a rejection there): the handler waits for the answer.
  t.it('a plan approval still approves', function()
    h.stub(require('agentls.reply'), 'find_dispatch', function()
      return nil
    end)
    local st = h.start({}, [[
steps:
  - text: "Planning."
    tool_calls:
      - id: c1
        name: plan_write
        args: {title: Tiny, path: plans/tiny.plan, content: "# Goal\nTiny.\n\n## Steps\n- [ ] One step\n"}
  - text: "Asking for approval."
    tool_calls:
      - {id: c2, name: exit_plan_mode, args: {plan_file_path: plans/tiny.plan}}
  - text: "Approved."
    expect:
      tool_result_contains: {c2: ["\"approved\":true"]}
]])
    h.choose('Accept & Build')
    agentls.prompt('Plan something tiny')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq('BUILD', agentls.mode())
  end)
end)
