-- A plan approval answered where the plugin cannot reply later (reply.defer's mode 'none', protocol
-- 2): the question is answered "dismissed" at once, the approval stays pending, and the person's
-- choice is sent afterwards with agent/resolvePlan (init.lua State:on_ask, resolve_later). That
-- decision goes to whatever session is current when the person clicks (State:resolve_plan uses
-- self.session), not the session whose plan the question showed: switch chats (:Agentls history)
-- while the approval is open, click "Accept & Build", and another session's plan is approved and
-- that session starts building. The decision must name the session that asked.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local config = require('agentls.config')

t.describe('a plan approval answered later', function()
  t.it('decides the plan of the session that asked, not the current one', function()
    local st = agentls._State.new(config.merge({ root = h.tmpdir() }))
    agentls._state = st
    t.cleanup(function()
      agentls._state = nil
    end)
    st.session = { sessionId = 's1' }
    st.protocol_version = 2
    h.stub(require('agentls.reply'), 'defer', function()
      return { mode = 'none' }
    end)
    h.stub(st, 'show_plan', function() end)
    local sent = {}
    h.stub(st, 'request', function(_, method, params)
      table.insert(sent, { method = method, params = params })
      return true
    end)
    local select_cb
    h.stub(vim.ui, 'select', function(_, _, cb)
      select_cb = cb
    end)
    local params = {
      sessionId = 's1',
      questionId = 'q1',
      purpose = 'plan_approval',
      permission = { kind = 'plan', what = 'plans/a.plan' },
      questions = {
        {
          name = 'approve',
          question = 'Review the plan `plans/a.plan`. Accept it and start building?',
          schema = { type = 'boolean' },
          buttons = { { label = 'Keep Planning', value = false }, { label = 'Accept & Build', value = true } },
        },
        { name = 'feedback', question = 'What should change?', schema = { type = 'string' }, optional = true },
      },
    }
    t.eq({ dismissed = true }, st:on_ask(params), 'answered at once, the approval stays pending')
    t.wait(5000, function()
      return select_cb ~= nil
    end, 'the approval asked')
    st.session = { sessionId = 's2' } -- the person opened another chat meanwhile
    select_cb({ label = 'Accept & Build', value = true })
    t.eq(1, #sent, 'one decision sent')
    t.eq('s1', sent[1] and sent[1].params.sessionId, 'the decision is for the session whose plan was shown')
    -- and names the plan shown: the server refuses it when the session awaits another plan by then
    t.eq('plans/a.plan', sent[1] and sent[1].params.planFile, 'the decision names the plan that was shown')
  end)
end)
