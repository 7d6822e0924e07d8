-- agentls.reply: deferred replies to server requests, in both modes.
local t = require('runner')
require('helpers')
local reply = require('agentls.reply')

-- A stand-in for the scheduled closure of vim/lsp/rpc.lua (0.7): it calls the handler and
-- sends the handler's return value with `send_response(decoded.id, err, result)`.
local function rpc_like(handler, sent)
  local function send_response(id, err, result)
    table.insert(sent, { id = id, err = err, result = result })
  end
  return function(decoded)
    local function scheduled() -- has `decoded` and `send_response` as upvalues, like rpc.lua's
      local result = handler()
      send_response(decoded.id, nil, result)
    end
    scheduled()
  end
end

t.describe('reply', function()
  t.it('stack mode: the immediate reply goes nowhere, the later one carries the answer', function()
    local sent, d = {}, nil
    local dispatch = rpc_like(function()
      d = reply.defer()
      return d.wait()
    end, sent)
    dispatch({ id = 41 })
    t.eq('stack', d.mode)
    t.eq(41, d.id)
    t.eq({}, sent, 'nothing sent yet')
    d.send({ answers = { a = 1 } })
    t.eq({ { id = 41, result = { answers = { a = 1 } } } }, sent)
    dispatch({ id = 42 }) -- the closure's send_response is restored: a second ask works too
    t.eq(42, d.id)
    d.send({ answers = {} })
    t.eq(2, #sent)
    t.eq(42, sent[2].id)
  end)

  t.it('stack mode: an answer known before the handler returns goes at once', function()
    local sent = {}
    local dispatch = rpc_like(function()
      local d = reply.defer()
      d.send({ answers = { b = 2 } })
      return d.wait()
    end, sent)
    dispatch({ id = 5 })
    t.eq({ { id = 5, result = { answers = { b = 2 } } } }, sent)
  end)

  t.it('coroutine mode: the handler yields until the answer', function()
    local d, result
    local co = coroutine.create(function()
      d = reply.defer()
      result = d.wait()
    end)
    coroutine.resume(co)
    t.eq('coroutine', d.mode)
    t.eq(nil, result)
    d.send({ dismissed = true })
    t.wait(1000, function()
      return result ~= nil
    end, 'the resumed handler')
    t.eq({ dismissed = true }, result)
  end)

  t.it("coroutine mode: the request's id from the rpc closure (0.10 and later), for a withdrawal", function()
    local d
    local decoded = { id = 77, method = 'agent/askUser' }
    local co = coroutine.create(function()
      local function dispatched() -- holds `decoded` as an upvalue, like rpc.lua's coroutine
        d = reply.defer()
        return decoded.id and d.wait()
      end
      return dispatched()
    end)
    coroutine.resume(co)
    t.eq('coroutine', d.mode)
    t.eq(77, d.id)
    d.send({ dismissed = true })
  end)

  t.it('none: no coroutine and no rpc frame', function()
    local d = reply.defer()
    t.eq('none', d.mode)
  end)
end)
