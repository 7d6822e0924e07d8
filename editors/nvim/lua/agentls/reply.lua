-- agentls.reply: answering a server request later, so that a question can wait for the user
-- without blocking the editor.
--
-- Neovim sends the return value of an LSP request handler as the reply at once. Where the
-- handler runs in a coroutine (Neovim's rpc wraps server requests in one in newer versions),
-- the handler yields until the answer is there. Where it does not (0.7 to 0.9), the handler
-- finds the pending request's id and the rpc's `send_response` on the call stack (the scheduled
-- closure of vim/lsp/rpc.lua that called it), lets that closure's immediate reply go nowhere,
-- and sends the real reply itself when the user has answered. If neither works, `mode` is
-- 'none' and the caller chooses a fallback (see agentls.ask).
local M = {}

-- Calls visit(f, upvalues) for each function on the call stack, innermost first (at most
-- max_level levels), upvalues mapping each upvalue's name to {index, value}; returns what
-- visit returns first that is not nil.
local function each_frame(max_level, visit)
  for level = 2, max_level or 30 do
    local info = debug.getinfo(level, 'f')
    if not info then
      return nil
    end
    local ups = {}
    for i = 1, 60 do
      local name, value = debug.getupvalue(info.func, i)
      if not name then
        break
      end
      ups[name] = { i, value }
    end
    local a, b, c = visit(info.func, ups)
    if a ~= nil then
      return a, b, c
    end
  end
  return nil
end

--- Finds the rpc closure that dispatched the current server request: returns the function,
--- the index of its `send_response` upvalue, and the request id; or nil.
function M.find_dispatch(max_level)
  return each_frame(max_level, function(f, ups)
    local send, decoded = ups.send_response, ups.decoded
    if send and type(send[2]) == 'function' and decoded and type(decoded[2]) == 'table' and decoded[2].id ~= nil then
      return f, send[1], decoded[2].id
    end
  end)
end

--- The id of the server request being handled in a coroutine (Neovim 0.10 and later): the
--- `decoded` message the rpc's dispatching closure holds; or nil.
function M.find_request_id(max_level)
  return each_frame(max_level, function(_, ups)
    local decoded = ups.decoded and ups.decoded[2]
    if type(decoded) == 'table' and decoded.id ~= nil and type(decoded.method) == 'string' then
      return decoded.id
    end
  end)
end

--- Prepares a deferred reply for the server request being handled. Returns an object with
--- `mode` ('coroutine', 'stack' or 'none'), `id` (the request id when known), `send(result)`
--- (call it once, from anywhere, when the answer is known), `cancel()` (the server withdrew
--- the request: it is answered RequestCancelled, and a handler waiting in a coroutine ends)
--- and `wait()` (the handler's return value: call it last in the handler).
function M.defer()
  local d = { mode = 'none' }
  local done, value, failure = false, nil, nil
  local co, is_main = coroutine.running()
  if co and not is_main then
    local yieldable = coroutine.isyieldable
    if yieldable == nil or yieldable() then
      d.mode = 'coroutine'
    end
  end
  local f, idx, id
  if d.mode == 'coroutine' then
    d.id = M.find_request_id() -- for a withdrawal ($/cancelRequest) to find the question
  end
  if d.mode == 'none' then
    f, idx, id = M.find_dispatch()
    if f then
      d.mode = 'stack'
      d.id = id
    end
  end
  local waiting = false
  local orig_send
  local function reply(result, e)
    if done then
      return
    end
    done, value, failure = true, result, e
    if not waiting then
      return -- the handler has not returned yet: wait() returns the value
    end
    if d.mode == 'coroutine' then
      vim.schedule(function()
        coroutine.resume(co, result, e)
      end)
    elseif d.mode == 'stack' then
      orig_send(id, e, result)
    end
  end
  function d.send(result)
    reply(result, nil)
  end
  -- A withdrawn request still gets its reply (LSP: a cancelled request is answered), which
  -- the server drops; without it the handler's coroutine would wait for good.
  function d.cancel()
    reply(nil, vim.lsp.rpc_response_error(vim.lsp.protocol.ErrorCodes.RequestCancelled, 'withdrawn'))
  end
  function d.wait()
    if done then
      return value, failure
    end
    waiting = true
    if d.mode == 'coroutine' then
      return coroutine.yield()
    elseif d.mode == 'stack' then
      local _, current = debug.getupvalue(f, idx)
      orig_send = current
      -- The closure sends our return value next; swallow that one send (and restore).
      debug.setupvalue(f, idx, function(rid, err, res)
        if rid == id then
          debug.setupvalue(f, idx, orig_send)
          return true
        end
        return orig_send(rid, err, res)
      end)
      return { pending = true } -- sent nowhere
    end
    error('agentls: no way to answer later')
  end
  return d
end

return M
