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

t.describe('language intelligence from the editor', function()
  t.it('gopls through the plugin: the edit’s type error in its result, tick refused until fixed, quickfix', function()
    local bin = gopls()
    if not bin then
      t.ok(not vim.env.CI or vim.env.CI == '', 'gopls not found (scripts/install-lsp installs it): CI does not skip')
      io.stderr:write('SKIP: gopls not found (run scripts/install-lsp)\n')
      return
    end
    -- the user's config (read by the server at start): only the editor answers, with room to
    -- settle on a loaded machine (settling ends at 200 ms of quiet anyway)
    local xdg = h.tmpdir()
    h.write(xdg .. '/agentls/config.yaml', 'lsp:\n  source: editor\n  settle_ms: 30000\n')
    local old_xdg = vim.env.XDG_CONFIG_HOME
    vim.env.XDG_CONFIG_HOME = xdg
    t.cleanup(function()
      vim.env.XDG_CONFIG_HOME = old_xdg
    end)

    -- gopls attached to every Go buffer, as a user's config does
    local root = h.tmpdir()
    for name, text in pairs(files) do
      h.write(root .. '/' .. name, text)
    end
    local gopls_id = vim.lsp.start_client({ name = 'gopls', cmd = { bin }, root_dir = root })
    t.ok(gopls_id, 'gopls started')
    local group = vim.api.nvim_create_augroup('intel_spec_gopls', { clear = true })
    vim.api.nvim_create_autocmd('FileType', {
      group = group,
      pattern = 'go',
      callback = function(ev)
        vim.lsp.buf_attach_client(ev.buf, gopls_id)
      end,
    })
    t.cleanup(function()
      vim.api.nvim_del_augroup_by_id(group)
      vim.lsp.stop_client(gopls_id, true)
    end)

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
    h.stub(vim.ui, 'select', function(items, opts, cb)
      for _, it in ipairs(items) do
        if opts.format_item(it) == 'Accept & Build' then
          vim.schedule(function()
            cb(it)
          end)
        end
      end
    end)

    -- turn 1: definition from gopls, the breaking edit, the refused tick
    agentls.prompt('greet someone else')
    local r = h.turn(st)
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
    vim.cmd('Agentls problems')
    local qf = vim.fn.getqflist()
    t.eq(1, #qf, 'one quickfix item')
    t.eq(7, qf[1].lnum)
    t.eq('E', qf[1].type)
    t.eq(vim.fn.resolve(root .. '/main.go'), vim.fn.resolve(vim.api.nvim_buf_get_name(qf[1].bufnr)))
    vim.cmd('cclose')

    -- turn 2: the fix, then the tick is accepted
    agentls.prompt('fix it')
    r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    local fix = tool_result(updates, 'e2').rawOutput.result.diagnostics
    t.eq({ new = {}, settled = true }, { new = fix.new, settled = fix.settled }, 'the fix: none new')
    t.eq('completed', tool_result(updates, 't2').status)
    t.contains(h.read(root .. '/plans/greet.plan'), '- [x] Change the greeting')
  end)
end)
