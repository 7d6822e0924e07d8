-- The editor's truth in Neovim (docs/language-intel.md): gopls attached by the test as a user's
-- config would attach it, agentls told to use only the editor (lsp.source: editor). The plugin
-- answers agent/diagnostics from vim.diagnostic and agent/navigate from gopls: the edit's type
-- error comes back in the same tool result, the tick is refused until the model fixed it, the
-- chat shows the problem under the edit and :Agentls problems puts it in the quickfix list.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

-- gopls: $AGENTLS_GOPLS, scripts/install-lsp's cache, $(go env GOPATH)/bin or PATH.
local function gopls()
  local cands = { vim.env.AGENTLS_GOPLS or '' }
  local cache = vim.env.AGENTLS_CACHE
  if not cache or cache == '' then
    cache = (vim.env.HOME or '') .. '/.cache/agentls'
  end
  table.insert(cands, cache .. '/lsp/bin/gopls')
  if vim.fn.executable('go') == 1 then
    table.insert(cands, (vim.fn.systemlist({ 'go', 'env', 'GOPATH' })[1] or '') .. '/bin/gopls')
  end
  table.insert(cands, vim.fn.exepath('gopls'))
  for _, p in ipairs(cands) do
    if p ~= '' and vim.fn.executable(p) == 1 then
      return p
    end
  end
  return nil
end

local files = {
  ['go.mod'] = 'module example.com/m\n\ngo 1.22\n',
  ['main.go'] = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tunused := 1\n\tfmt.Println(Greet("x"))\n}\n',
  ['greet.go'] = 'package main\n\n// Greet greets.\nfunc Greet(name string) string { return "hello " + name }\n',
}

-- Two turns: plan on gopls's definition, break the build, have the tick refused; then fix, tick.
local script = [[
name: nvim_language_intel
steps:
  - text: "Where is Greet declared?"
    tool_calls:
      - {id: d1, name: code, args: {op: definition, path: main.go, line: 7, symbol: Greet}}
  - text: "Writing the plan."
    expect:
      tool_result_contains: {d1: ["greet.go"]}
    tool_calls:
      - id: p1
        name: plan_write
        args:
          title: Greeting
          path: plans/greet.plan
          content: "# Goal\nGreet someone else.\n\n## Steps\n- [ ] Change the greeting\n- [ ] Review\n"
  - text: "Asking for approval."
    tool_calls:
      - {id: p2, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - text: "Changing the greeting."
    tool_calls:
      - {id: e1, name: edit, args: {path: main.go, old_string: "Greet(\"x\")", new_string: "Greet(42)"}}
  - text: "Ticking the step."
    tool_calls:
      - {id: t1, name: plan_edit, args: {path: plans/greet.plan, old_string: "- [ ] Change the greeting", new_string: "- [x] Change the greeting"}}
  - text: "The tick was refused: I will fix it."
    expect:
      tool_result_contains: {t1: ["step not ticked", "main.go:7: error"]}
  - text: "Fixing the type error."
    tool_calls:
      - {id: e2, name: edit, args: {path: main.go, old_string: "Greet(42)", new_string: "Greet(\"y\")"}}
  - text: "Ticking again."
    tool_calls:
      - {id: t2, name: plan_edit, args: {path: plans/greet.plan, old_string: "- [ ] Change the greeting", new_string: "- [x] Change the greeting"}}
  - text: "Done."
    expect:
      tool_result_contains: {t2: ["\"success\":true"]}
]]

-- The last tool_call_update of call `id` among the recorded agent/update params.
local function tool_result(updates, id)
  local found
  for _, p in ipairs(updates) do
    local u = p.update or {}
    if u.sessionUpdate == 'tool_call_update' and u.toolCallId == id then
      found = u
    end
  end
  t.ok(found, 'a result of ' .. id)
  return found
end

-- gopls, or nil after saying the test is skipped (never on CI).
local function gopls_or_skip()
  local bin = gopls()
  if not bin then
    t.ok(not vim.env.CI or vim.env.CI == '', 'gopls not found (scripts/install-lsp installs it): CI does not skip')
    io.stderr:write('SKIP: gopls not found (run scripts/install-lsp)\n')
  end
  return bin
end

-- Attaches gopls on `root` to every Go buffer from now on, as a user's config does: started now,
-- or with `lazily` at the first Go buffer (as lspconfig starts it) and a second late, as in a
-- module larger than the test's: then gopls has published nothing when the first question about
-- the file comes, whatever the machine's speed.
local function attach_gopls(bin, root, lazily)
  local gopls_id
  local cmd = lazily and { 'sh', '-c', 'sleep 1 && exec "$0"', bin } or { bin }
  local function start()
    gopls_id = gopls_id or vim.lsp.start_client({ name = 'gopls', cmd = cmd, root_dir = root })
    t.ok(gopls_id, 'gopls started')
    return gopls_id
  end
  if not lazily then
    start()
  end
  local group = vim.api.nvim_create_augroup('intel_spec_gopls', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'go',
    callback = function(ev)
      vim.lsp.buf_attach_client(ev.buf, start())
    end,
  })
  t.cleanup(function()
    vim.api.nvim_del_augroup_by_id(group)
    if gopls_id then
      vim.lsp.stop_client(gopls_id, true)
    end
  end)
end

-- The user's config (read by the server at start): only the editor answers, with room to settle
-- on a loaded machine (settling ends at 200 ms of quiet anyway); `extra` adds lines.
local function editor_only_config(extra)
  local xdg = h.tmpdir()
  h.write(xdg .. '/agentls/config.yaml', 'lsp:\n  source: editor\n  settle_ms: 30000\n' .. (extra or ''))
  local old_xdg = vim.env.XDG_CONFIG_HOME
  vim.env.XDG_CONFIG_HOME = xdg
  t.cleanup(function()
    vim.env.XDG_CONFIG_HOME = old_xdg
  end)
end

t.describe('language intelligence from the editor', function()
  t.it('gopls through the plugin: the edit’s type error in its result, tick refused until fixed, quickfix', function()
    local bin = gopls_or_skip()
    if not bin then
      return
    end
    editor_only_config()

    -- gopls attached to every Go buffer, as a user's config does
    local root = h.tmpdir()
    for name, text in pairs(files) do
      h.write(root .. '/' .. name, text)
    end
    attach_gopls(bin, root)

    local st = h.start({}, script, { root = root })
    local asked, updates = {}, {}
    st.trace = function(method, p)
      t.note(method, p)
      asked[method] = (asked[method] or 0) + 1
      if method == 'agent/update' then
        table.insert(updates, p)
      end
    end
    -- main.go open, with gopls's problems of it (the unused variable is there before any edit)
    vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/main.go'))
    local main = vim.api.nvim_get_current_buf()
    t.wait(30000, function()
      return #vim.diagnostic.get(main) > 0
    end, "gopls's diagnostics of main.go")

    vim.cmd('AgentChat')
    t.wait(5000, function()
      return agentls.mode() == 'PLAN'
    end, 'the new session in PLAN')
    h.choose('Accept & Build')

    -- turn 1: definition from gopls, the breaking edit, the refused tick
    agentls.prompt('greet someone else')
    -- gopls's first look at a module can take long on a loaded machine
    local r = h.turn(st, 'the turn to end', 60000)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.ok((asked['agent/navigate'] or 0) > 0, 'the server asked the plugin agent/navigate')
    t.ok((asked['agent/diagnostics'] or 0) > 0, 'the server asked the plugin agent/diagnostics')
    local def = tool_result(updates, 'd1').rawOutput.result
    t.eq('greet.go', def.locations[1].path, "gopls's definition: " .. vim.inspect(def))
    t.eq(4, def.locations[1].line)
    local d = tool_result(updates, 'e1').rawOutput.result.diagnostics
    t.eq(true, d.settled, 'settled: ' .. vim.inspect(d))
    t.eq(1, #d.new, 'one new problem (the unused variable was there before): ' .. vim.inspect(d.new))
    local p = d.new[1]
    t.eq('main.go', p.path)
    t.eq(7, p.line)
    t.eq('error', p.severity)
    t.eq('compiler', p.source)
    t.match('42', p.message)
    local t1 = tool_result(updates, 't1')
    t.eq('failed', t1.status)
    t.match('main%.go:7: error', vim.inspect(t1.rawOutput))
    t.ok(not h.read(root .. '/plans/greet.plan'):find('- [x] Change the greeting', 1, true), 'not ticked')
    st.chat:flush()
    t.match('main%.go:7: error: [^\n]*42[^\n]*%(compiler', h.text(st.chat.bufnr), 'the problem under the edit in the chat')
    -- the plan update after the refused tick says why, under the step
    t.match(
      '%- %[.%] Change the greeting\n      ✗ not ticked: 1 new error\n        main%.go:7: error: [^\n]*42',
      h.text(st.chat.bufnr),
      'why the tick was refused, under its step in the chat'
    )
    vim.cmd('Agentls problems')
    local qf = vim.fn.getqflist()
    t.eq(1, #qf, 'one quickfix item')
    t.eq(7, qf[1].lnum)
    t.eq('E', qf[1].type)
    t.eq(vim.fn.resolve(root .. '/main.go'), vim.fn.resolve(vim.api.nvim_buf_get_name(qf[1].bufnr)))
    vim.cmd('cclose')

    -- turn 2: the fix, then the tick is accepted
    agentls.prompt('fix it')
    r = h.turn(st, 'the turn to end', 60000)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    local fix = tool_result(updates, 'e2').rawOutput.result.diagnostics
    t.eq({ new = {}, settled = true }, { new = fix.new, settled = fix.settled }, 'the fix: none new')
    t.eq('completed', tool_result(updates, 't2').status)
    t.contains(h.read(root .. '/plans/greet.plan'), '- [x] Change the greeting')
    st.chat:flush()
    t.ok(not h.text(st.chat.bufnr):find('not ticked', 1, true), 'the accepted tick clears the refusal')
  end)

  -- A file the user never opened: the plugin loads it without showing it, the user's gopls
  -- attaches as to any Go buffer, and its problems are the edit's (its old one not new).
  t.it('a file never opened: loaded unshown, gopls attaches, the edit’s new error and only it', function()
    local bin = gopls_or_skip()
    if not bin then
      return
    end
    editor_only_config('plan_mode:\n  default_active: false\n')
    local root = h.tmpdir()
    h.write(root .. '/go.mod', 'module example.com/h\n\ngo 1.22\n')
    h.write(root .. '/main.go', 'package main\n\nfunc main() { println(Greet("x")) }\n')
    -- line 7's unused variable is an error before any edit: never new
    h.write(
      root .. '/hidden.go',
      'package main\n\n// Greet greets.\nfunc Greet(name string) string { return "hello " + name }\n\nfunc old() {\n\tstale := 1\n}\n'
    )
    attach_gopls(bin, root, true)
    local hidden_script = [[
name: nvim_hidden_file
steps:
  - text: "Changing the greeting."
    tool_calls:
      - {id: e1, name: edit, args: {path: hidden.go, old_string: "return \"hello \" + name", new_string: "return 42"}}
  - text: "Done."
]]
    local st = h.start({}, hidden_script, { root = root })
    local updates = {}
    st.trace = function(method, p)
      t.note(method, p)
      if method == 'agent/update' then
        table.insert(updates, p)
      end
    end
    local windows_before = #vim.api.nvim_list_wins()
    t.eq(-1, vim.fn.bufnr(root .. '/hidden.go'), 'hidden.go is not loaded before the turn')

    vim.cmd('AgentChat')
    t.wait(5000, function()
      return agentls.mode() == 'BUILD'
    end, 'the new session in BUILD')
    local chat_windows = #vim.api.nvim_list_wins()
    agentls.prompt('greet with a number')
    -- gopls's first look at a module can take long on a loaded machine
    local r = h.turn(st, 'the turn to end', 60000)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))

    local d = tool_result(updates, 'e1').rawOutput.result.diagnostics
    t.eq(true, d.settled, 'settled: ' .. vim.inspect(d))
    t.eq(1, #d.new, 'one new problem (the unused variable of line 7 was there before): ' .. vim.inspect(d.new))
    t.eq('hidden.go', d.new[1].path)
    t.eq(4, d.new[1].line)
    t.eq('error', d.new[1].severity)
    t.match('42', d.new[1].message)
    -- loaded for gopls, shown nowhere: the user's windows are as they were
    local b = vim.fn.bufnr(root .. '/hidden.go')
    t.ok(b ~= -1 and vim.api.nvim_buf_is_loaded(b), 'hidden.go loaded')
    t.eq(-1, vim.fn.bufwinid(b), 'hidden.go in no window')
    t.eq(chat_windows, #vim.api.nvim_list_wins(), 'no window opened by the turn (before the chat: ' .. windows_before .. ')')
  end)
end)

t.describe('agentls.intel and agentls.problems (units)', function()
  local intel = require('agentls.intel')
  local problems = require('agentls.problems')
  local r = function(l1, c1, l2, c2)
    return { start = { line = l1, character = c1 }, ['end'] = { line = l2, character = c2 } }
  end

  t.it('the version problems are for: older while a server has not caught up, or has not published in a fresh buffer', function()
    local rows = {
      -- { what, current, attached ids, published, fresh, want }
      { 'no language server attached, not fresh', 3, {}, {}, false, 3 },
      { 'fresh, none attached yet (one starting is listed once initialized): the text before', 0, {}, {}, true, -1 },
      { 'fresh, none attached, but one published for the document', 2, {}, { [9] = 2 }, true, 2 },
      { 'published for the current text', 3, { 7 }, { [7] = 3 }, false, 3 },
      { 'published for an older text', 3, { 7 }, { [7] = 1 }, false, 1 },
      { 'the oldest of two servers', 3, { 7, 8 }, { [7] = 2, [8] = 1 }, false, 1 },
      { 'published without a version', 3, { 7 }, { [7] = false }, true, 3 },
      { 'fresh, none published yet: the text before', 0, { 7 }, {}, true, -1 },
      { 'fresh, one of two published', 0, { 7, 8 }, { [7] = 0 }, true, -1 },
      { 'fresh, both published', 0, { 7, 8 }, { [7] = 0, [8] = 0 }, true, 0 },
      { 'not fresh, none published: taken as it is', 4, { 7 }, {}, false, 4 },
      { 'a server of another buffer published, not this one', 2, { 7 }, { [9] = 2 }, true, 1 },
    }
    for _, r in ipairs(rows) do
      t.eq(r[6], intel.version_for(r[2], r[3], r[4], r[5]), r[1])
    end
  end)

  t.it('columns convert between UTF-8, UTF-16 and UTF-32', function()
    local line = 'a€𝄞b' -- 1 + 3 + 4 + 1 bytes; 1 + 1 + 2 + 1 UTF-16 units; 4 code points
    t.eq(4, intel.convert_col(line, 2, 'utf-16', 'utf-8'), 'after €')
    t.eq(8, intel.convert_col(line, 4, 'utf-16', 'utf-8'), 'after 𝄞')
    t.eq(4, intel.convert_col(line, 8, 'utf-8', 'utf-16'))
    t.eq(3, intel.convert_col(line, 8, 'utf-8', 'utf-32'))
    t.eq(11, intel.convert_col(line, 7, 'utf-16', 'utf-8'), 'past the end keeps the excess')
    t.eq(5, intel.convert_col(nil, 5, 'utf-16', 'utf-8'), 'no line: unchanged')
  end)

  t.it('ops map to LSP methods; bad params are errors naming them', function()
    local pos = { line = 0, character = 0 }
    t.eq('textDocument/definition', (intel.method_of({ op = 'definition', uri = 'file:///a.go', position = pos })))
    t.eq('textDocument/implementation', (intel.method_of({ op = 'implementation', uri = 'file:///a.go', position = pos })))
    t.eq('textDocument/documentSymbol', (intel.method_of({ op = 'symbols', uri = 'file:///a.go' })))
    t.eq('workspace/symbol', (intel.method_of({ op = 'symbols', query = 'Greet' })))
    t.match('unknown op "rename"', select(3, intel.method_of({ op = 'rename' })))
    t.match('unknown op "workspace_symbols"', select(3, intel.method_of({ op = 'workspace_symbols' })))
    t.match('needs uri and position', select(3, intel.method_of({ op = 'hover', uri = 'file:///a.go' })))
  end)

  t.it('locations, hovers and symbols as the wire’s', function()
    local out = {}
    intel.add_locations(out, { uri = 'file:///nowhere/a.go', range = r(3, 5, 3, 10) }, 'utf-16', 10)
    intel.add_locations(out, { { targetUri = 'file:///nowhere/b.go', targetRange = r(1, 0, 4, 1), targetSelectionRange = r(1, 5, 1, 8) } }, 'utf-16', 10)
    t.eq({ { uri = 'file:///nowhere/a.go', range = r(3, 5, 3, 10) }, { uri = 'file:///nowhere/b.go', range = r(1, 5, 1, 8) } }, out)
    local capped = {}
    intel.add_locations(capped, { { uri = 'file:///x', range = r(0, 0, 0, 1) }, { uri = 'file:///y', range = r(0, 0, 0, 1) } }, 'utf-16', 1)
    t.eq(1, #capped, 'capped at the limit')
    t.eq(
      '```go\nfunc Greet(name string) string\n```',
      intel.hover_text({ contents = { kind = 'markdown', value = '```go\nfunc Greet(name string) string\n```' } })
    )
    t.eq('a\n\nb', intel.hover_text({ contents = { 'a', { language = 'go', value = 'b' } } }))
    t.eq('', intel.hover_text(vim.NIL))
    local syms = {}
    intel.add_symbols(syms, {
      {
        name = 'T',
        kind = 23,
        range = r(2, 0, 6, 1),
        selectionRange = r(2, 5, 2, 6),
        children = { { name = 'F', kind = 8, range = r(3, 1, 3, 9), selectionRange = r(3, 1, 3, 2) } },
      },
    }, 'file:///nowhere/a.go', 'utf-16', 10)
    t.eq({
      { name = 'T', kind = 'struct', location = { uri = 'file:///nowhere/a.go', range = r(2, 5, 2, 6) } },
      { name = 'F', kind = 'field', containerName = 'T', location = { uri = 'file:///nowhere/a.go', range = r(3, 1, 3, 2) } },
    }, syms)
  end)

  t.it('an edit result’s problems: chat lines, quickfix items; nothing to show is nil', function()
    local raw = {
      success = true,
      result = {
        diagnostics = {
          new = {
            { path = 'main.go', line = 7, severity = 'error', message = 'cannot use 42', source = 'compiler', code = 'IncompatibleAssign' },
            { path = 1 },
          },
          settled = false,
        },
      },
    }
    local ps = problems.from_result(raw)
    t.eq(1, #ps.new, 'the malformed entry dropped')
    t.eq(
      { '      main.go:7: error: cannot use 42 (compiler IncompatibleAssign)', '      (the diagnostics had not settled in time: the list may be incomplete)' },
      problems.chat_lines(ps)
    )
    t.eq(
      { { filename = '/w/main.go', lnum = 7, col = 1, type = 'E', text = 'cannot use 42 (compiler IncompatibleAssign)' } },
      problems.quickfix_items(ps, '/w')
    )
    t.eq(nil, problems.from_result({ success = true, result = { diagnostics = { new = {}, settled = true } } }))
    t.eq(nil, problems.from_result('not json'))
    t.eq(
      'gopls did not start',
      problems.from_result(vim.json.encode({ result = { diagnostics = { new = {}, settled = false, error = 'gopls did not start' } } })).error
    )
  end)

  t.it('a refused tick: why under its step in the chat, the list for :Agentls problems; the next plan update clears it', function()
    local c = require('agentls.chat').new(function() end)
    local entries = {
      { content = 'Change the greeting', priority = 'medium', status = 'in_progress' },
      { content = 'Review', priority = 'medium', status = 'pending' },
    }
    c:update({
      sessionUpdate = 'plan',
      planFile = 'plans/greet.plan',
      entries = entries,
      tickRefused = {
        steps = { 'Change the greeting' },
        problems = {
          { path = 'main.go', line = 7, severity = 'error', message = 'cannot use 42', source = 'compiler', code = 'IncompatibleAssign' },
          { path = 'main.go', line = 9, severity = 'warning', message = 'unused parameter', source = 'unusedparams' },
          { path = 3 },
        },
        message = 'step not ticked: …',
      },
    })
    local text = table.concat(c:lines(), '\n')
    t.contains(
      text,
      '- [~] Change the greeting\n      ✗ not ticked: 1 new error, 1 warning\n        main.go:7: error: cannot use 42 (compiler IncompatibleAssign)\n        main.go:9: warning: unused parameter (unusedparams)\n- [ ] Review'
    )
    t.eq({ 7, 9 }, vim.tbl_map(function(p)
      return p.line
    end, c.problems.new), ':Agentls problems lists them (the malformed one dropped)')
    entries[1].status, entries[2].status = 'completed', 'in_progress'
    c:update({ sessionUpdate = 'plan', planFile = 'plans/greet.plan', entries = entries })
    t.ok(not table.concat(c:lines(), '\n'):find('not ticked', 1, true), 'cleared by the next plan update')
  end)
end)

t.describe('checkhealth: language intelligence', function()
  t.it('says which source serves each file type', function()
    local lines = {}
    local function rec(kind)
      return function(msg)
        table.insert(lines, kind .. ' ' .. msg)
      end
    end
    local r = { start = rec('##'), ok = rec('OK'), info = rec('INFO'), warn = rec('WARN'), error = rec('ERROR') }
    require('agentls.health').language_intel(r, {
      { fileType = 'go', source = 'editor', detail = 'answered by the editor' },
      { fileType = 'python', source = 'pool', detail = '/usr/bin/pyright-langserver (PATH)' },
      { fileType = 'rust', source = 'none', detail = 'rust-analyzer not found on PATH' },
    })
    t.eq({
      '## agentls: language intelligence',
      'OK go: Neovim (agent/diagnostics and agent/navigate from your language clients)',
      'OK python: pool: /usr/bin/pyright-langserver (PATH)',
      'INFO rust: none: rust-analyzer not found on PATH',
    }, lines)
  end)
end)

t.describe('checkhealth: MCP servers', function()
  t.it("names each server's state and tools, a failed one with its stderr tail, nothing hidden", function()
    local lines = {}
    local function rec(kind)
      return function(msg, advice)
        table.insert(lines, kind .. ' ' .. msg .. (advice and (' | ' .. table.concat(advice, ' | ')) or ''))
      end
    end
    local r = { start = rec('##'), ok = rec('OK'), info = rec('INFO'), warn = rec('WARN'), error = rec('ERROR') }
    require('agentls.health').mcp_servers(r, {
      { name = 'fs', state = 'running', origin = 'config', command = 'npx fs', tools = 10,
        toolNames = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j' } },
      { name = 'one', state = 'idle', origin = 'config', command = 'one', tools = 1, toolNames = { 'only' } },
      { name = 'old', state = 'running', origin = 'config', command = 'old', tools = 3 },
      -- A hostile server: a tool name that would start a forged line, one that reverses the text.
      { name = 'ev\nil', state = 'running', origin = '.mcp.json', command = 'node evil.js', tools = 2,
        toolNames = { 'x\nOK all good', 'y\226\128\174z' } },
      { name = 'evil', state = 'failed', origin = '.mcp.json', command = 'node evil.js', reason = 'exited 3', stderrTail = 'boom\nOK forged\n' },
      { name = 'off', state = 'skipped', origin = 'workspace file', command = 'x', reason = 'not trusted', tools = 0 },
    })
    t.eq({
      '## agentls: MCP servers',
      'OK fs (npx fs, from config): running, 10 tools: a, b, c, d, e, f, g, h, +2 more',
      'OK one (one, from config): idle, 1 tool: only',
      'OK old (old, from config): running, 3 tools',
      'OK ev il (node evil.js, from .mcp.json): running, 2 tools: x\\u000AOK all good, y\\u202Ez',
      'ERROR evil (node evil.js, from .mcp.json): failed | exited 3 | its stderr ends with: boom OK forged',
      'INFO off (x, from workspace file): skipped: not trusted',
    }, lines)
    lines = {}
    require('agentls.health').mcp_servers(r, vim.NIL)
    t.eq('## agentls: MCP servers', lines[1])
    t.ok(lines[2]:find('no MCP servers configured', 1, true), lines[2])
  end)
end)
