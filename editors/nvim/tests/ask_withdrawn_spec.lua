-- A withdrawn question ($/cancelRequest: the plan was rejected with :AgentReject, the turn was
-- cancelled) closes its form (ask.collect's `close()`, init.lua on $/cancelRequest). The picker
-- of a vim.ui.select replacement stays open (the plugin cannot close it); when the person picks
-- "Keep Planning" in it, the form goes on to the next question — an input asking why — for a
-- request nobody waits for: the person types their feedback and it is thrown away without a
-- word. A closed form must ask nothing more.
local t = require('runner')
local h = require('helpers')
local ask = require('agentls.ask')
local agentls = require('agentls')

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

-- On Neovim 0.10 and later the askUser handler runs in a coroutine (vim/lsp/rpc.lua) that
-- waits for the person's answer (reply.lua). A withdrawn question never gets that answer: its
-- coroutine stayed suspended for the rest of the session, holding the request, one more per
-- withdrawal, and the request was never answered. Withdrawal must end it (a RequestCancelled
-- reply, which the server drops).
t.describe('a withdrawn question, end to end', function()
  t.it('its handler ends: no coroutine is left waiting for the answer', function()
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
    local co
    st.trace = function(method, p)
      if method == 'agent/askUser' then
        local c, is_main = coroutine.running()
        co = (c and not is_main) and c or false -- false: 0.7 to 0.9, no coroutine
      end
      t.note(method, p)
    end
    local input_cb
    h.stub(vim.ui, 'input', function(_, cb)
      input_cb = cb -- the person never answers
    end)
    agentls.prompt('Ask me')
    t.wait(10000, function()
      return input_cb ~= nil
    end, 'the question')
    t.ok(co ~= nil, 'the askUser handler ran')
    vim.cmd('AgentCancel')
    t.eq('cancelled', h.turn(st).stopReason)
    t.wait(5000, function()
      return next(st.asks) == nil
    end, 'the question withdrawn ($/cancelRequest)')
    if co then
      t.wait(2000, function()
        return coroutine.status(co) == 'dead'
      end, 'the handler coroutine to end (it was ' .. coroutine.status(co) .. ')')
    end
    input_cb('too late') -- the stale input answered: nothing happens, nothing breaks
    t.eq({}, st.asks, 'no question pending')
  end)
end)
