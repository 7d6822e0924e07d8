-- agentls.ask: the question surfaces, with vim.ui stubbed.
local t = require('runner')
local h = require('helpers')
local ask = require('agentls.ask')

-- Stubs vim.ui.select/input with scripted answers: select answers pick an item by its shown
-- label; input answers are strings. Returns the list of prompts shown.
local function script(selects, inputs)
  local shown = {}
  h.stub(vim.ui, 'select', function(items, opts, cb)
    table.insert(shown, { 'select', opts.prompt, vim.tbl_map(opts.format_item or tostring, items) })
    local want = table.remove(selects, 1)
    for _, it in ipairs(items) do
      if (opts.format_item or tostring)(it) == want then
        return cb(it)
      end
    end
    cb(nil)
  end)
  h.stub(vim.ui, 'input', function(opts, cb)
    table.insert(shown, { 'input', opts.prompt, opts.default })
    cb(table.remove(inputs, 1))
  end)
  return shown
end

local function collect(params, previous)
  local out
  ask.collect(params, previous, function(r)
    out = r
  end)
  t.ok(out, 'answered')
  return out
end

t.describe('ask.collect', function()
  t.it('buttons give their value', function()
    script({ 'Production' }, {})
    local r = collect({ questions = { { name = 'env', question = 'Where?', schema = { type = 'string', enum = { 'dev', 'prod' } }, buttons = { { label = 'Development', value = 'dev' }, { label = 'Production', value = 'prod' } } } } })
    t.eq({ answers = { env = 'prod' } }, r)
  end)
  t.it('boolean and enum through select', function()
    local shown = script({ 'No', 'staging' }, {})
    local r = collect({ questions = {
      { name = 'ok', question = 'Sure?', schema = { type = 'boolean' } },
      { name = 'env', question = 'Env?', schema = { type = 'string', enum = { 'dev', 'staging' } } },
    } })
    t.eq({ answers = { ok = false, env = 'staging' } }, r)
    t.eq({ 'Yes', 'No' }, shown[1][3])
  end)
  t.it('multi-select toggles and ends with Done', function()
    local shown = script({ '[ ] a', '[ ] c', '[x] a', 'Done' }, {})
    local r = collect({ questions = { { name = 'pick', question = 'Which?', schema = { type = 'array', items = { enum = { 'a', 'b', 'c' } } } } } })
    t.eq({ answers = { pick = { 'c' } } }, r)
    t.eq({ '[ ] a', '[ ] b', '[x] c', 'Done' }, shown[4][3])
  end)
  t.it('text re-asked locally until valid, with the reason', function()
    local shown = script({}, { 'ab', 'abcd' })
    local r = collect({ questions = { { name = 'n', question = 'Name', schema = { type = 'string', minLength = 3 } } } })
    t.eq({ answers = { n = 'abcd' } }, r)
    t.contains(shown[2][2], 'must be at least 3 characters')
    t.eq('ab', shown[2][3], 'the bad text is the default')
  end)
  t.it('an object asks one input per field', function()
    local shown = script({}, { 'example.org', '8080' })
    local r = collect({ questions = { { name = 'srv', question = 'Server', schema = { type = 'object', required = { 'host' }, properties = { host = { type = 'string' }, port = { type = 'integer' } } } } } })
    t.eq({ answers = { srv = { host = 'example.org', port = 8080 } } }, r)
    t.contains(shown[1][2], '› host')
    t.contains(shown[2][2], '› port')
  end)
  t.it("the server's errors are shown and the previous answer is the default", function()
    local shown = script({}, { '8080' })
    local r = collect({ questions = { { name = 'port', question = 'Port', schema = { type = 'integer' } } }, errors = { port = 'not multipleOf 2' } }, { port = 8081 })
    t.eq({ answers = { port = 8080 } }, r)
    t.contains(shown[1][2], 'not multipleOf 2')
    t.eq('8081', shown[1][3])
  end)
  t.it('cancel dismisses; an optional question may be skipped', function()
    script({}, { nil })
    t.eq({ dismissed = true }, collect({ questions = { { name = 'a', question = 'A', schema = { type = 'string' } } } }))
    script({}, { '' })
    local r = collect({ questions = { { name = 'a', question = 'A', schema = { type = 'string' }, optional = true } } })
    t.eq('{}', vim.json.encode(r.answers), 'empty answers encode as an object')
  end)
  t.it('plan approval: Accept skips the feedback; Keep Planning asks it', function()
    local q = {
      { name = 'approve', question = 'Review the plan', schema = { type = 'boolean' }, buttons = { { label = 'Accept & Build', value = true }, { label = 'Keep Planning', value = false } } },
      { name = 'feedback', question = 'Feedback', schema = { type = 'string' }, optional = true },
    }
    local shown = script({ 'Accept & Build' }, {})
    t.eq({ answers = { approve = true } }, collect({ purpose = 'plan_approval', questions = q }))
    t.eq(1, #shown)
    script({ 'Keep Planning' }, { 'smaller steps' })
    t.eq({ answers = { approve = false, feedback = 'smaller steps' } }, collect({ purpose = 'plan_approval', questions = q }))
  end)
  t.it('plan approval: the prompt lists every command approving grants', function()
    local q = {
      { name = 'approve', question = 'Review the plan', schema = { type = 'boolean' }, buttons = { { label = 'Accept & Build', value = true }, { label = 'Keep Planning', value = false } } },
    }
    local long = string.rep('a', 120) .. ' sh *'
    local shown = script({ 'Keep Planning' }, {})
    collect({ purpose = 'plan_approval', questions = q, permission = { kind = 'plan', what = 'plans/x.plan', grants = { 'go test ./...', long } } })
    t.eq('Review the plan\nApproving also allows these commands for this session:\n  - go test ./...\n  - ' .. long, shown[1][2])
    -- A question text that lists them already is not repeated.
    shown = script({ 'Keep Planning' }, {})
    q[1].question = 'Review the plan\n\nApproving also allows these commands for this session:\n- `go test ./...`\n- `' .. long .. '`'
    collect({ purpose = 'plan_approval', questions = q, permission = { kind = 'plan', what = 'plans/x.plan', grants = { 'go test ./...', long } } })
    t.eq(q[1].question, shown[1][2])
  end)
  t.it('run permission: the prompt names the folder, the network and the sandbox', function()
    local q = { { name = 'decision', question = 'Run `make`?', schema = { type = 'string', enum = { 'reject_once', 'allow_once' } },
      buttons = { { label = 'Reject', value = 'reject_once' }, { label = 'Run', value = 'allow_once' } } } }
    local shown = script({ 'Run' }, {})
    local r = collect({ purpose = 'permission', questions = q, permission = { kind = 'run', what = 'make', cwd = '/w/sub', network = 'not isolated', sandbox = 'off', grants = {} } })
    t.eq({ answers = { decision = 'allow_once' } }, r)
    t.eq('Run `make`?\nFolder: /w/sub\nNetwork: not isolated\nSandbox: off', shown[1][2])
  end)
  t.it('severity sets the highlight', function()
    t.eq('ErrorMsg', ask.severity_hl('critical'))
    t.eq('WarningMsg', ask.severity_hl('major'))
    t.eq('Question', ask.severity_hl(nil))
  end)
end)
