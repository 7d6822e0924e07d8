-- tool_summary.lua: a tool call's chat line read from its title, arguments and result, the same
-- rules as the VS Code chat's rows (editors/vscode/src/toolSummary.ts). The arguments and results
-- come as tables (live agent/update) or as JSON text (agent/loadSession): both read the same.
local t = require('runner')
require('helpers') -- the plugin on 'runtimepath'
local ts = require('agentls.tool_summary')

local function json(v)
  return vim.fn.json_encode(v)
end

t.describe('tool_summary', function()
  t.it('rows: read, edit counts, create, run ok/failed/timed out, ask, refused, running, failed', function()
    local edit = { path = 'store.go', old_string = 'a\nb\nc\n', new_string = 'a\nB\nc\nd\ne\n' }
    local rows = {
      -- {facts, row}
      { { title = 'read main.go', status = 'completed', input = { path = 'main.go' } }, 'Read main.go' },
      { { title = 'read main.go', status = 'in_progress', input = { path = 'main.go' } }, 'Reading main.go …' },
      { { title = 'edit store.go', status = 'completed', input = edit, output = { success = true, result = { replacements = 1 } } }, 'Edited store.go +3 −1' },
      -- the same edit as agent/loadSession gives it: JSON text, the tool's name known
      { { name = 'edit', title = 'edit store.go', status = 'completed', input = json(edit), output = json({ success = true, result = { replacements = 1 } }) }, 'Edited store.go +3 −1' },
      -- replace_all: each replacement counts
      { { title = 'edit x.go', status = 'completed', input = { path = 'x.go', old_string = 'a', new_string = 'b' }, output = { success = true, result = { replacements = 3 } } }, 'Edited x.go +3 −3' },
      { { title = 'edit x.go', status = 'completed', input = { path = 'x.go', insert_line = 2, insert_content = 'one\ntwo\n' } }, 'Edited x.go +2' },
      { { title = 'edit store.go', status = 'pending', input = edit }, 'Editing store.go …' },
      { { title = 'edit store.go', status = 'failed', input = edit, output = { success = false, error = 'old_string not found' } }, 'Edit store.go … failed' },
      { { title = 'edit app.txt', status = 'failed', refused = true, input = { path = 'app.txt', old_string = 'alpha', new_string = 'ALPHA' } }, 'Edit app.txt … REFUSED (plan mode)' },
      { { title = 'write notes.md', status = 'completed', input = { path = 'notes.md', content = 'a\nb\nc\n' }, output = { success = true, result = { path = 'notes.md', created = true } } }, 'Created notes.md +3' },
      { { title = 'write notes.md', status = 'completed', input = { path = 'notes.md', content = 'a\n' }, output = { success = true, result = { path = 'notes.md', created = false } } }, 'Wrote notes.md +1' },
      { { title = 'run go test ./...', status = 'completed', input = { command = 'go test ./...' }, output = { success = true, result = { exit_code = 0 } } }, 'Ran `go test ./...` ✓ (exit 0)' },
      { { title = 'run go test ./...', status = 'completed', input = json({ command = 'go test ./...' }), output = '{"success":true,"result":{"exit_code":2,"output":"FAIL"}}' }, 'Ran `go test ./...` ✗ (exit 2)' },
      { { title = 'run sleep 99', status = 'completed', input = { command = 'sleep 99' }, output = { success = true, result = { exit_code = -1, timed_out = true } } }, 'Ran `sleep 99` ✗ (timed out)' },
      { { title = 'run rm -rf /', status = 'failed', input = { command = 'rm -rf /' }, output = { success = false, error = 'the user rejected the command' } }, 'Run `rm -rf /` … failed' },
      { { title = 'run make', status = 'in_progress' }, 'Running `make` …' },
      { { title = 'ask: Which port?', status = 'completed', input = { questions = { { name = 'port', question = 'Which **port**?\nsecond line' } } } }, 'Asked: Which port?' },
      { { title = 'ask the user 2 questions', status = 'in_progress', input = { questions = { { name = 'a', question = 'Branch?' }, { name = 'b', question = 'Tag?' } } } }, 'Asking: Branch? (+1 more) …' },
      { { title = 'ask to approve plans/x.plan', status = 'completed', input = { plan_file_path = 'plans/x.plan' } }, 'Asked to approve plans/x.plan' },
      { { title = 'grep alpha', status = 'completed', input = { pattern = 'alpha' } }, 'Searched for `alpha`' },
      { { title = 'glob *.go', status = 'completed', input = { pattern = '*.go' } }, 'Listed files `*.go`' },
      { { title = 'ls .', status = 'completed', input = {} }, 'Listed .' },
      { { title = 'task explore', status = 'completed' }, 'Task explore' },
      { { title = 'mv a → b', status = 'completed', input = { from = 'a', to = 'b' } }, 'Mv a → b' },
      -- The server's titles put a path, a pattern or a command in a code span, a run's command first (agent/tools).
      { { title = '`echo build:prod`', status = 'completed', input = { command = 'echo build:prod' }, output = { success = true, result = { exit_code = 0 } } }, 'Ran `echo build:prod` ✓ (exit 0)' },
      { { title = '`make`', status = 'in_progress' }, 'Running `make` …' },
      { { title = '`` echo `date` ``', status = 'in_progress' }, 'Running `echo `date`` …' },
      { { title = 'ls `src`', status = 'completed', input = {} }, 'Listed src' },
      { { title = 'mv `a` → `b`', status = 'completed', input = { from = 'a', to = 'b' } }, 'Mv `a` → `b`' },
    }
    for _, r in ipairs(rows) do
      t.eq(r[2], ts.row(r[1]), vim.inspect(r[1]))
    end
  end)

  t.it('an ask: its line, and the answers as text (a button by its label, Yes/No, lists, objects)', function()
    local qs = {
      { name = 'branch', question = 'Branch **name**?', schema = { type = 'string' } },
      { name = 'push', question = 'Push?', schema = { type = 'boolean' } },
      { name = 'mode', question = 'How?', buttons = { { label = 'Squash & merge', value = 'squash' }, { label = 'Rebase', value = 'rebase' } } },
      { name = 'labels', question = 'Labels?' },
      { name = 'db', question = 'Database?' },
    }
    local answers = { branch = 'fix/login', push = true, mode = 'squash', labels = { 'bug', 'ui' }, db = { host = 'h', port = 5432 } }
    local cases = {
      -- {status, answers, dismissed, row, answer lines}
      {
        'completed',
        answers,
        false,
        'Asked: Branch name? (+4 more)',
        {
          { question = 'Branch **name**?', answer = 'fix/login' },
          { question = 'Push?', answer = 'Yes' },
          { question = 'How?', answer = 'Squash & merge' },
          { question = 'Labels?', answer = 'bug, ui' },
          { question = 'Database?', answer = 'host: h; port: 5432' },
        },
      },
      -- as agent/loadSession gives them: JSON decoded, the same text
      { 'completed', vim.fn.json_decode(vim.fn.json_encode(answers)), false, 'Asked: Branch name? (+4 more)', nil },
      { 'completed', { push = false, labels = {} }, false, 'Asked: Branch name? (+4 more)', {
        { question = 'Branch **name**?', answer = '(no answer)' },
        { question = 'Push?', answer = 'No' },
        { question = 'How?', answer = '(no answer)' },
        { question = 'Labels?', answer = '(none)' },
        { question = 'Database?', answer = '(no answer)' },
      } },
      { 'completed', vim.NIL, true, 'Asked: Branch name? (+4 more)', {
        { question = 'Branch **name**?', answer = '(dismissed)' },
        { question = 'Push?', answer = '(dismissed)' },
        { question = 'How?', answer = '(dismissed)' },
        { question = 'Labels?', answer = '(dismissed)' },
        { question = 'Database?', answer = '(dismissed)' },
      } },
    }
    local first
    for _, c in ipairs(cases) do
      t.eq(c[4], ts.row({ title = 'ask the user 5 questions', status = c[1], input = { questions = qs } }))
      local got = ts.answered(qs, c[2], c[3])
      first = first or got
      t.eq(c[5] or first, got, vim.inspect(c[2]))
    end
  end)

  t.it('diff_counts is a line diff', function()
    local cases = {
      { '', '', 0, 0 },
      { 'a\n', 'a\n', 0, 0 },
      { 'alpha', 'ALPHA', 1, 1 },
      { 'a\nb\nc\n', 'a\nc\n', 0, 1 },
      { 'a\nc\n', 'a\nb\nc\n', 1, 0 },
      { '', 'x\ny\n', 2, 0 },
      { 'x\ny\nz\n', 'y\nq\nz\nw\n', 2, 1 },
    }
    for _, c in ipairs(cases) do
      local added, removed = ts.diff_counts(c[1], c[2])
      t.eq({ c[3], c[4] }, { added, removed }, vim.inspect(c))
    end
  end)

  t.it('the tool name comes from the title when not given', function()
    local cases = {
      { nil, 'edit plan plans/a.plan', 'plan_edit' },
      { nil, 'ask: Which?', 'ask_user' },
      { nil, 'ask the user', 'ask_user' },
      { nil, 'ask to approve plans/a.plan', 'exit_plan_mode' },
      { nil, 'read main.go', 'read' },
      { 'edit', 'anything', 'edit' },
    }
    for _, c in ipairs(cases) do
      t.eq(c[3], ts.tool_name(c[1], c[2]), vim.inspect(c))
    end
  end)

  t.it('link: the file a line names and where in it (gf in the chat), live and loaded alike', function()
    local cases = {
      -- {facts, link}
      { { title = 'edit app.txt', status = 'completed', input = { path = 'app.txt', old_string = 'a', new_string = '\n  GAMMA\nDELTA\n' } }, { file = 'app.txt', find = 'GAMMA' } },
      { { name = 'edit', title = 'edit app.txt', status = 'completed', input = json({ path = 'app.txt', insert_line = 4, insert_content = 'x\n' }) }, { file = 'app.txt', line = 5 } },
      { { title = 'read main.go', status = 'completed', input = { path = 'main.go', offset = 40 } }, { file = 'main.go', line = 40 } },
      { { title = 'read main.go', status = 'completed', input = { path = 'main.go' }, output = json({ success = true, result = { start_line = 1 } }) }, { file = 'main.go', line = 1 } },
      { { title = 'write notes.md', status = 'completed', input = { path = 'notes.md', content = 'a\n' } }, { file = 'notes.md' } },
      { { title = 'ask to approve plans/x.plan', status = 'completed', input = { plan_file_path = 'plans/x.plan' } }, { file = 'plans/x.plan' } },
      { { title = 'edit app.txt', status = 'failed', refused = true, input = { path = 'app.txt', old_string = 'a', new_string = 'b' } }, { file = 'app.txt', find = 'b' } },
      { { title = 'run make', status = 'completed', input = { command = 'make' } }, nil },
      { { title = 'grep alpha', status = 'completed', input = { pattern = 'alpha' } }, nil },
    }
    for _, c in ipairs(cases) do
      t.eq(c[2], ts.link(c[1]), vim.inspect(c[1]))
    end
  end)

  t.it('details: the line, then the raw input and output as indented JSON, the same live and loaded', function()
    local live = { title = 'run make', status = 'completed', input = { command = 'make' }, output = { success = true, result = { exit_code = 0, output = 'ok' } } }
    local loaded = { name = 'run', title = 'run make', status = 'completed', input = json(live.input), output = json(live.output) }
    local d = ts.details_lines(live)
    t.eq(d, ts.details_lines(loaded))
    local text = table.concat(d, '\n')
    t.contains(d, '# Ran `make` ✓ (exit 0)')
    t.contains(text, '## Input\n{\n  "command": "make"\n}\n')
    t.contains(text, '## Output\n{\n  "result": {\n    "exit_code": 0,\n    "output": "ok"\n  },\n  "success": true\n}')
    t.contains(ts.details_lines({ title = 'edit a', status = 'failed', refused = true }), 'Status: failed (refused)')
  end)
end)
