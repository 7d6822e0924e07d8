-- The run sentinel end to end in the plugin (docs/guard.md "After the command"): a BUILD command
-- creates `.envrc` (which did not exist, so no sandbox kept it); after it the server asks, through
-- the plugin's permission prompt (agent/askUser, purpose permission, kind edit), whether to keep
-- what the command did. The prompt names the command and the file; Remove (restore) undoes it,
-- Keep keeps it, and the model reads which.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local cmd = [[printf 'export X=1\n' > .envrc]]

local script = [[
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "printf 'export X=1\\n' > .envrc"}}
  - text: "Turn one."
    expect:
      tool_result_contains: {r1: ["created .envrc", "so agentls undid it"]}
  - tool_calls:
      - {id: r2, name: run, args: {command: "printf 'export X=1\\n' > .envrc"}}
  - text: "Turn two."
    expect:
      tool_result_contains: {r2: ["created .envrc", "the user was asked and kept them"]}
]]

t.describe('the run sentinel in the plugin', function()
  t.it('asks after a command created .envrc: Remove undoes it, Keep keeps it', function()
    local st, root = h.start({ ['hello.txt'] = 'hello\n' }, script)
    h.build_session()
    local answer, asked = 'Remove (restore)', {}
    h.answer(function(labels, opts)
      if vim.tbl_contains(labels, 'Run') then
        return 'Run'
      end
      table.insert(asked, { prompt = opts.prompt, labels = labels })
      return answer
    end)
    local envrc = root .. '/.envrc'
    t.eq(nil, vim.loop.fs_stat(envrc), 'no .envrc before')

    agentls.prompt('make an envrc')
    local r = h.turn(st, 'turn one')
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(1, #asked, 'one question after the command: ' .. vim.inspect(asked))
    local q = asked[1]
    t.contains(q.prompt, 'Keep what the command `' .. cmd .. '` did', 'the prompt names the command')
    t.contains(q.prompt, '`.envrc`: created', 'the prompt names the file')
    t.eq({ 'Remove (restore)', 'Keep' }, q.labels, 'the choices, Remove first')
    t.eq(nil, vim.loop.fs_stat(envrc), '.envrc after Remove')
    st.chat:flush()
    t.contains(h.text(st.chat.bufnr), 'Turn one.', 'the model read the undo')

    answer = 'Keep'
    agentls.prompt('again')
    r = h.turn(st, 'turn two')
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(2, #asked, 'asked again after the second command')
    t.contains(asked[2].prompt, '`.envrc`: created', 'the second prompt names the file')
    t.eq('export X=1\n', h.read(envrc), '.envrc after Keep')
    st.chat:flush()
    t.contains(h.text(st.chat.bufnr), 'Turn two.', 'the model read the keep')
  end)
end)
