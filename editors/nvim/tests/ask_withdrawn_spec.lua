-- A withdrawn question ($/cancelRequest: the plan was rejected with :AgentReject, the turn was
-- cancelled) closes its form (ask.collect's `close()`, init.lua on $/cancelRequest). The picker
-- of a vim.ui.select replacement stays open (the plugin cannot close it); when the person picks
-- "Keep Planning" in it, the form goes on to the next question — an input asking why — for a
-- request nobody waits for: the person types their feedback and it is thrown away without a
-- word. A closed form must ask nothing more.
local t = require('runner')
local h = require('helpers')
local ask = require('agentls.ask')

t.describe('a withdrawn question', function()
  t.it('asks nothing more once its form is closed', function()
    local select_cb
    local inputs = {}
    h.stub(vim.ui, 'select', function(_, _, cb)
      select_cb = cb
    end)
    h.stub(vim.ui, 'input', function(opts, cb)
      table.insert(inputs, opts.prompt)
    end)
    local params = {
      sessionId = 's1',
      questionId = 'q1',
      purpose = 'plan_approval',
      questions = {
        {
          name = 'approve',
          question = 'Review the plan `plans/a.plan`. Accept it and start building?',
          schema = { type = 'boolean' },
          buttons = { { label = 'Accept & Build', value = true }, { label = 'Keep Planning', value = false } },
        },
        { name = 'feedback', question = 'What should change?', schema = { type = 'string' }, optional = true },
      },
    }
    local result
    local form = ask.collect(params, nil, function(r)
      result = r
    end)
    t.ok(select_cb ~= nil, 'the approval asked')
    form.close() -- the request is withdrawn while the picker is open
    select_cb({ label = 'Keep Planning', value = false }) -- the stale picker answered
    t.eq({}, inputs, 'no question of the withdrawn request asked after its withdrawal')
    t.eq(nil, result, 'no result for a withdrawn request')
  end)
end)
