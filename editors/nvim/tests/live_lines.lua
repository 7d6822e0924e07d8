-- live_lines.lua: what the chat draws as live text (a running call's newest line, the turn's
-- activity: chat.lua's live namespace), for the specs that check it.
local chatmod = require('agentls.chat')

local M = {}

--- The live texts chat draws: buffer line (1-based) -> text.
function M.live(chat)
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(chat.bufnr, chatmod.live_ns, 0, -1, { details = true })) do
    out[m[2] + 1] = m[4].virt_text[1][1]
  end
  return out
end

return M
