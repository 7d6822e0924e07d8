-- Reloads the buffers whose files changed on disk behind them, as VS Code does for a document
-- without unsaved changes. The server writes an agent edit of an open file on disk when the
-- editor could not hold the file as it is (bytes that are not UTF-8, a BOM, lone CR or mixed line
-- breaks: docs/editors.md "Files an editor cannot hold as they are"), and a rewind of such a file
-- goes to disk too; a stale buffer would show the old text, and a :write would put it back.
local M = {}

--- Reloads each loaded, unmodified file buffer whose file changed on disk, without Neovim's
--- "file changed" prompt ('autoread' for the check only: the user's setting is left as it is).
--- A buffer with unsaved changes is never touched (Neovim asks about it at its next check).
function M.unmodified()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].buftype == '' and not vim.bo[b].modified and vim.api.nvim_buf_get_name(b) ~= '' then
      vim.api.nvim_buf_call(b, function()
        vim.cmd('setlocal autoread')
        vim.cmd('silent! checktime ' .. b)
        vim.cmd('set autoread<') -- back to the global value
      end)
    end
  end
end

return M
