-- Questions as a user sees them: a child Neovim (this same binary) with its real terminal UI in
-- a pty, driven over its --listen socket. It asks through the plugin with Neovim's own
-- vim.ui.select/vim.ui.input (no stubs), the way they block the screen; the pty output is the
-- screen. Checked: no "Press ENTER" prompt before, during or after a question, the question not
-- echoed again into :messages, and the plan drawn on the screen before the approval choice. And
-- a running call's newest line as the terminal draws it (live_spec.lua has the rest).
local t = require('runner')
local h = require('helpers')

-- Starts the child; returns {ch, out(), mode(), input(keys), lua(code, ...), notify_lua(code)}.
local function child()
  local addr = vim.fn.tempname() .. '.sock'
  local chunks = {}
  local job = vim.fn.jobstart({ vim.v.progpath, '-u', 'NONE', '-i', 'NONE', '-n', '--listen', addr }, {
    pty = true,
    width = 100,
    height = 30,
    on_stdout = function(_, data)
      for _, d in ipairs(data) do
        table.insert(chunks, d)
      end
    end,
  })
  t.ok(job > 0, 'child Neovim started')
  local ch
  t.cleanup(function()
    if ch then
      pcall(vim.fn.chanclose, ch)
    end
    vim.fn.jobstop(job)
    vim.fn.jobwait({ job }, 5000)
  end)
  t.wait(10000, function()
    return vim.loop.fs_stat(addr) ~= nil
  end, 'the child to listen')
  t.wait(10000, function() -- the socket file can exist before the child accepts on it
    local ok, id = pcall(vim.fn.sockconnect, 'pipe', addr, { rpc = true })
    ch = ok and id > 0 and id or nil
    return ch
  end, 'a connection to the child')
  local c = {}
  function c.out()
    return table.concat(chunks, '')
  end
  function c.mode()
    return vim.rpcrequest(ch, 'nvim_get_mode') -- answered even while the child waits for keys
  end
  function c.input(keys)
    vim.rpcrequest(ch, 'nvim_input', keys)
  end
  function c.lua(code, ...)
    return vim.rpcrequest(ch, 'nvim_exec_lua', code, { ... })
  end
  function c.notify_lua(code, ...) -- runs without waiting: it may block the child on a prompt
    vim.rpcnotify(ch, 'nvim_exec_lua', code, { ... })
  end
  -- What the child's screen showed since output position `from`: the pty stream without its
  -- escape sequences (the terminal UI moves the cursor over cells that hold a space already, so
  -- words may touch: match with %s* between them).
  function c.since(from)
    return (c.out():sub(from + 1):gsub('\27%[[%d;?>=]*[%a@`]', ''):gsub('\27[%(%)][%w]', ''):gsub('\27[=>78M]', ''))
  end
  -- Ready when its terminal UI is attached (0.11's TUI is a separate client that attaches over
  -- RPC: a prompt that blocked the child before that would never be drawn).
  t.wait(20000, function()
    return c.mode().mode == 'n' and #vim.rpcrequest(ch, 'nvim_list_uis') > 0
  end, 'the child and its terminal UI to be ready')
  c.lua('vim.opt.runtimepath:prepend(...)', h.plugin)
  return c
end

-- Waits (20 s: the machine may be busy) until the child's screen showed Lua pattern `pat` since
-- output position `from`; on timeout the failure shows what it did show.
local function on_screen(c, from, pat, what)
  if not vim.wait(20000, function()
    return c.since(from):find(pat) ~= nil
  end, 10) then
    error(string.format('timed out waiting for %s; the screen showed:\n%s', what, c.since(from):sub(-4000)), 2)
  end
end

-- Waits until the child waits for keys at a prompt (0.7 reports a blocking "r"/"rm", 0.11 a
-- "c"), returns its mode. Only fast requests (nvim_get_mode, nvim_input) reach it then.
local function asked(c, what)
  return t.wait(20000, function()
    local m = c.mode()
    return (m.blocking or m.mode ~= 'n') and m
  end, what)
end

-- Waits until the child is back in Normal mode, not blocked.
local function settled(c, what)
  t.wait(20000, function()
    local m = c.mode()
    return m.mode == 'n' and not m.blocking
  end, what)
end

local run_question = [[
  _G.res = nil
  require('agentls.ask').collect({
    purpose = 'permission',
    questions = { { name = 'decision', question = 'Run `make check-q1`?', severity = 'major',
      schema = { type = 'string', enum = { 'reject_once', 'allow_once' } },
      buttons = { { label = 'Reject', value = 'reject_once' }, { label = 'Run', value = 'allow_once' } } } },
    permission = { kind = 'run', what = 'make check-q1', cwd = '/w/sub', network = 'not isolated', sandbox = 'off', grants = {} },
  }, nil, function(r) _G.res = r end)
]]

t.describe('questions on a real screen', function()
  t.it('a run question through vim.ui.select: no Press ENTER, not echoed into :messages', function()
    local c = child()
    local from = #c.out()
    c.notify_lua(run_question)
    asked(c, 'the question')
    on_screen(c, from, 'Folder:%s*/w/sub', 'the question with its folder on the screen')
    t.ok(not c.since(from):find('Press%s*ENTER'), 'a Press ENTER prompt before the choice')
    c.input('2<CR>')
    settled(c, 'the child back in Normal mode after the answer')
    t.eq({ answers = { decision = 'allow_once' } }, c.lua('return _G.res'))
    t.ok(not c.since(from):find('Press%s*ENTER'), 'a Press ENTER prompt after the choice')
    local messages = c.lua("return vim.fn.execute('messages')")
    t.ok(not messages:find('Press ENTER', 1, true), ':messages: ' .. messages)
    t.ok(not messages:find('check-q1', 1, true), 'the question echoed into :messages: ' .. messages)
  end)

  t.it('a text question with a server error through vim.ui.input: no Press ENTER', function()
    local c = child()
    local from = #c.out()
    c.notify_lua([[
      _G.res = nil
      require('agentls.ask').collect({
        questions = { { name = 'port', question = 'Which port for q2?', schema = { type = 'integer' } } },
        errors = { port = 'must be even', other = 'unrelated problem' },
      }, { port = 8081 }, function(r) _G.res = r end)
    ]])
    asked(c, 'the question')
    on_screen(c, from, 'must%s*be%s*even', 'the error on the screen')
    c.input('<C-u>8080<CR>')
    settled(c, 'the child back in Normal mode after the answer')
    t.eq({ answers = { port = 8080 } }, c.lua('return _G.res'))
    t.ok(not c.since(from):find('Press%s*ENTER'), 'a Press ENTER prompt')
    local messages = c.lua("return vim.fn.execute('messages')")
    t.ok(not messages:find('q2', 1, true), 'the question echoed into :messages: ' .. messages)
  end)

  t.it('a run question: the chat shows what led to it before the choice is asked', function()
    local c = child()
    local root = h.tmpdir()
    local from = #c.out()
    -- The updates and the question as they come from the server: in one go, the question
    -- right behind the agent's words and the end of the call before it.
    c.notify_lua(
      [[
      local root = ...
      local agentls = require('agentls')
      local st = agentls._State.new(require('agentls.config').merge({ root = root }))
      st.chat:open('right', 60, false)
      vim.cmd('redraw')
      st.chat:update({ sessionUpdate = 'tool_call', toolCallId = 'e1', title = 'Edit main.go', status = 'in_progress' })
      st.chat:update({ sessionUpdate = 'tool_call_update', toolCallId = 'e1', status = 'completed' })
      st.chat:update({ sessionUpdate = 'agent_message_chunk', content = { text = 'WHY-VET-MARKER now.\n' } })
      _G.res = nil
      vim.schedule(function()
        _G.res = st:on_ask({
          sessionId = 's1', questionId = 'q', purpose = 'permission',
          questions = { { name = 'decision', question = 'Run `go vet ./...`?', severity = 'major',
            schema = { type = 'string', enum = { 'reject_once', 'allow_once' } },
            buttons = { { label = 'Reject', value = 'reject_once' }, { label = 'Run', value = 'allow_once' } } } },
          permission = { kind = 'run', what = 'go vet ./...', cwd = root, network = 'no', sandbox = 'on', grants = {} },
        })
      end)
    ]],
      root
    )
    asked(c, 'the run question')
    on_screen(c, from, 'Folder:', 'the question on the screen')
    local screen = c.since(from)
    local why_at = screen:find('WHY%-VET%-MARKER')
    t.ok(why_at, "the agent's words on the screen when the question is asked; the screen showed:\n" .. screen:sub(-3000))
    t.ok(why_at < screen:find('Folder:', 1, true), 'the chat drawn before the question')
    t.ok(not screen:find('Edit%s*main%.go%s*…'), 'the finished call still shown as running')
    c.input('1<CR>')
    settled(c, 'the child back in Normal mode after the answer')
    t.eq({ answers = { decision = 'reject_once' } }, c.lua('return _G.res'))
  end)

  t.it("a running call's newest line on a real screen: as typed under its row, cut at the window", function()
    local c = child()
    local from = #c.out()
    c.lua(
      [[
      local st = require('agentls')._State.new(require('agentls.config').merge({ root = ... }))
      _G.st = st
      st.chat:open('right', 60, true)
      st.chat:update({ sessionUpdate = 'tool_call', toolCallId = 'r1', title = 'run', status = 'in_progress', rawInput = { command = 'make' } })
      local function line(text)
        st.chat:update({ sessionUpdate = 'tool_call_update', toolCallId = 'r1', status = 'in_progress',
          content = { { type = 'content', content = { type = 'text', text = text } } } })
      end
      _G.line = line
      line('**LIVE-MARK** <img src=x onerror=alert(1)>')
    ]],
      h.tmpdir()
    )
    on_screen(c, from, '⋯%s*%*%*LIVE%-MARK%*%*%s*<img%s*src=x%s*onerror=alert%(1%)>', 'the line as typed under the row')
    local shown = c.since(from)
    h.keep(string.format('screen-live-%d-markdown.txt', vim.version().minor), shown)
    t.ok((shown:find('Running%s*`?make') or math.huge) < shown:find('LIVE%-MARK'), 'the line under the running row')
    from = #c.out()
    c.lua("line(string.rep('a', 52) .. '中文 WIDE-TAIL')")
    on_screen(c, from, string.rep('a', 52) .. '…', 'the wide line cut before the wide char')
    shown = c.since(from)
    t.ok(not shown:find(string.rep('a', 53), 1, true), 'more than 52 cells of a: ' .. shown)
    h.keep(string.format('screen-live-%d-cut.txt', vim.version().minor), shown)
    t.ok(not shown:find('WIDE-TAIL', 1, true) and not shown:find('中', 1, true), 'past the cut on the screen')
    from = #c.out()
    c.lua(
      "st.chat:update({ sessionUpdate = 'tool_call_update', toolCallId = 'r1', status = 'completed', rawOutput = { success = true, result = { exit_code = 0 } } })"
    )
    on_screen(c, from, 'make`?%s*✓', 'the final row')
    h.keep(string.format('screen-live-%d-after.txt', vim.version().minor), c.since(from))
    t.ok(not c.since(from):find('aaaa', 1, true), 'the live line drawn again after the end')
    t.eq({}, c.lua("return vim.api.nvim_buf_get_extmarks(st.chat.bufnr, require('agentls.chat').live_ns, 0, -1, {})"), 'the live line gone')
  end)

  t.it('plan approval: the plan is on the screen before the choice is asked', function()
    local c = child()
    local root = h.tmpdir()
    h.write(root .. '/plans/p.plan', '# Goal\nPLAN-ON-SCREEN-MARKER\n\n## Steps\n- [ ] One\n')
    local from = #c.out()
    c.notify_lua(
      [[
      local root = ...
      local agentls = require('agentls')
      local st = agentls._State.new(require('agentls.config').merge({ root = root }))
      st.plan_files.s1 = 'plans/p.plan'
      _G.res = nil
      vim.schedule(function()
        _G.res = st:on_ask({
          sessionId = 's1', questionId = 'q', purpose = 'plan_approval',
          questions = {
            { name = 'approve', question = 'Review the plan `plans/p.plan`. Accept it and start building?', schema = { type = 'boolean' },
              buttons = { { label = 'Accept & Build', value = true }, { label = 'Keep Planning', value = false } } },
            { name = 'feedback', question = 'What should change?', schema = { type = 'string' }, optional = true },
          },
        })
      end)
    ]],
      root
    )
    asked(c, 'the approval choice')
    on_screen(c, from, 'Accept%s*&%s*Build', 'the choice on the screen')
    local screen = c.since(from)
    local plan_at = screen:find('PLAN-ON-SCREEN-MARKER', 1, true)
    t.ok(plan_at, 'the plan on the screen when the choice is asked')
    t.ok(plan_at < screen:find('Accept%s*&%s*Build'), 'the plan drawn before the choice')
    t.ok(screen:find('Keep%s*Planning') < screen:find('Accept%s*&%s*Build'), 'the safe choice listed first')
    c.input('2<CR>') -- Accept & Build, second
    settled(c, 'the child back in Normal mode after the answer')
    t.ok(
      c.lua(
        [[
      for _, w in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w)) == ... then return true end
      end
      return false
    ]],
        root .. '/plans/p.plan'
      ),
      'the plan in a window'
    )
    t.eq({ answers = { approve = true } }, c.lua('return _G.res'))
    t.ok(not c.since(from):find('Press%s*ENTER'), 'a Press ENTER prompt')
  end)

  t.it("a question's generated document is on the screen before the choice, showDocument or not", function()
    -- The server opens the document with window/showDocument, but it may be read after the
    -- question: on 0.7 the default vim.ui.select then blocked it until the question was answered.
    local c = child()
    local doc = h.tmpdir() .. '/questions/autorun-1.md'
    h.write(doc, '# Keep what `x` did?\n\n- `DOC-ON-SCREEN-MARKER/.git/hooks/h1`: created\n')
    local from = #c.out()
    c.notify_lua(
      [[
      local root, doc = ...
      local st = require('agentls')._State.new(require('agentls.config').merge({ root = root }))
      local text = 'Keep what the command `x` did?\n\nWhat it did: 30 lines, in full in ' .. doc .. ' (opened beside this question).'
      _G.res = nil
      vim.schedule(function()
        _G.res = st:on_ask({
          sessionId = 's1', questionId = 'q', purpose = 'permission',
          questions = { { name = 'decision', question = text,
            schema = { type = 'string', enum = { 'reject_once', 'allow_once' } },
            buttons = { { label = 'Remove (restore)', value = 'reject_once' }, { label = 'Keep', value = 'allow_once' } } } },
          permission = { kind = 'edit', what = 'created x and 29 more', document = doc, grants = {} },
        })
      end)
    ]],
      h.tmpdir(),
      doc
    )
    asked(c, 'the question')
    on_screen(c, from, 'Remove%s*%(restore%)', 'the choice on the screen')
    local screen = c.since(from)
    h.keep(string.format('screen-document-%d.txt', vim.version().minor), screen)
    local doc_at = screen:find('DOC-ON-SCREEN-MARKER', 1, true)
    t.ok(doc_at, 'the document on the screen when the choice is asked; the screen showed:\n' .. screen:sub(-3000))
    t.ok(doc_at < screen:find('Remove%s*%(restore%)'), 'the document drawn before the choice')
    c.input('1<CR>')
    settled(c, 'the child back in Normal mode after the answer')
    t.eq({ answers = { decision = 'reject_once' } }, c.lua('return _G.res'))
  end)

  t.it('a floating picker: what the question grants is on the screen beside it', function()
    local count_floats = [[
      local n = 0
      for _, w in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(w).relative ~= '' then n = n + 1 end
      end
      return n
    ]]
    -- A picker as dressing.nvim's: a float in the middle holding the prompt on one line and the
    -- items; _G.pick(i) picks. The plugin's window shows the whole question above it.
    local c = child()
    local from = #c.out()
    c.notify_lua([[
      vim.ui.select = function(items, opts, cb)
        local lines = { vim.fn.strcharpart((opts.prompt or ''):gsub('\n', ' '), 0, 50) }
        for i, it in ipairs(items) do
          table.insert(lines, i .. ' PICK-' .. opts.format_item(it))
        end
        local buf = vim.api.nvim_create_buf(false, true)
        vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
        local win = vim.api.nvim_open_win(buf, true, { relative = 'editor', row = 12, col = 25, width = 50,
          height = #lines, border = 'rounded' })
        _G.pick = function(i)
          vim.api.nvim_win_close(win, true)
          cb(items[i], i)
        end
      end
      _G.res = nil
      require('agentls.ask').collect({
        purpose = 'permission',
        questions = { { name = 'decision', question = "This workspace's .agentls.yaml sets keys that widen what agentls may do; they apply only if you trust it.",
          schema = { type = 'string', enum = { 'reject_once', 'allow_always' } },
          buttons = { { label = "Don't trust", value = 'reject_once' }, { label = 'Trust', value = 'allow_always' } } } },
        permission = { kind = 'trust', what = '.agentls.yaml', grants = { 'run.allow: ["GRANT-ON-SCREEN-MARK publish *"]' } },
      }, nil, function(r) _G.res = r end)
    ]])
    on_screen(c, from, 'PICK%-Trust', 'the picker on the screen')
    on_screen(c, from, 'GRANT%-ON%-SCREEN%-MARK%s*publish%s*%*', 'the grant on the screen beside the picker')
    h.keep(string.format('screen-floating-picker-%d.txt', vim.version().minor), c.since(from))
    t.eq(2, c.lua(count_floats), 'the picker and the question window')
    c.lua('_G.pick(1)')
    t.eq({ answers = { decision = 'reject_once' } }, c.lua('return _G.res'))
    t.eq(0, c.lua(count_floats), 'no float left after the answer')
  end)
end)
