-- person.lua: the specs' person answers a question no sooner than a person reads it. agentls
-- takes an allowing answer given within 300 ms of its question (permission.HumanFloor) as the
-- client's own, not a person's: it runs the one call at most, saves no "always" rule, trusts
-- nothing and approves no plan (docs/guard.md, "How fast an answer came").
local M = {}

--- How long the person takes over a question before answering it.
M.reads_ms = 350

--- fn (a vim.ui.select or vim.ui.input stand-in, its callback last) answering as a person does:
--- the callback's answer goes on no sooner than M.reads_ms after the question came.
function M.answering(fn)
  return function(...)
    local args, n = { ... }, select('#', ...)
    local cb = args[n]
    if type(cb) == 'function' then
      local asked = vim.loop.now()
      args[n] = function(...)
        local answer, m = { ... }, select('#', ...)
        local wait = M.reads_ms - (vim.loop.now() - asked)
        if wait <= 0 then
          return cb(unpack(answer, 1, m))
        end
        vim.defer_fn(function()
          cb(unpack(answer, 1, m))
        end, wait)
      end
    end
    return fn(unpack(args, 1, n))
  end
end

--- Blocks for the person's reading of a modal question (vim.fn.inputlist's stand-in).
function M.read_modal()
  vim.loop.sleep(M.reads_ms)
end

return M
