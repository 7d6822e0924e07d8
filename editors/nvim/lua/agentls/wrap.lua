-- agentls.wrap: how many screen rows text takes in a window with 'wrap', for the layouts that
-- must keep something in view (the chat's newest lines, the plan above an approval question, a
-- question above a picker).
local M = {}

--- The rows `lines` take wrapped at `width` cells (at least one each; an estimate: 'linebreak'
--- and concealed text are not counted).
---@param lines string[]
---@param width integer
---@return integer
function M.rows(lines, width)
  local n = 0
  for _, l in ipairs(lines) do
    n = n + math.max(1, math.ceil(vim.fn.strdisplaywidth(l) / math.max(1, width)))
  end
  return n
end

return M
