-- The plugin's messages to the user: one prefix, one way to report a request's error.
local M = {}

--- Shows msg as agentls's (level: vim.log.levels, INFO by default).
---@param msg string
---@param level integer|nil
function M.notify(msg, level)
  vim.notify('agentls: ' .. msg, level or vim.log.levels.INFO)
end

--- Reports a request error as an error message; true when there was one.
---@param err table|nil the request's error
---@param what string what was asked, for the message
---@return boolean
function M.failed(err, what)
  if err then
    M.notify(what .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    return true
  end
  return false
end

return M
