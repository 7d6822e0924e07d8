-- Plans reviewed with comments in Neovim (docs/review.md "Plans reviewed with comments"), as an
-- :Agentls subcommand:
--
--   :Agentls requestchanges   rejects the plan awaiting approval with its open `> review:`
--                             comments as the reason (the command agentls.requestChanges)
--
-- Write the comments in the .plan buffer while the plan awaits approval (dismiss the approval
-- question to edit the plan: it stays pending): the server refuses an approval while one is
-- open, with the reason.
local protocol = require('agentls.protocol')
local M = {}

local notify = require('agentls.notify').notify

--- Runs `args` when it is one of this file's subcommands; true when it was.
function M.dispatch(st, args)
  local name = (args or ''):match('^/?(%S+)')
  if name == 'requestchanges' or name == 'request-changes' then
    M.request_changes(st)
    return true
  end
  return false
end

--- :Agentls requestchanges: sends the open review comments of the plan awaiting approval in
--- the current session to the planner; calls cb(session) once the server took them.
function M.request_changes(st, cb)
  if not st.session then
    return notify('no session yet: :AgentChat starts one', vim.log.levels.WARN)
  end
  -- The server reads the plan's buffer (the editor's text first), unsaved comments included.
  local params = { command = protocol.commands.requestChanges, arguments = { { sessionId = st.session.sessionId } } }
  st:request('workspace/executeCommand', params, function(err, res)
    if err then
      return notify('request changes: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    notify('changes requested: the open review comments went to the planner')
    if cb then
      cb(res)
    end
  end)
end

return M
