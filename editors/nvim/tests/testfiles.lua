-- testfiles.lua: throw-away folders and files for the specs, the plugin's and the plugin-less
-- ones alike (it loads nothing of the plugin).
local M = {}

--- A new empty directory (its real path).
function M.tmpdir()
  local d = vim.fn.tempname()
  vim.fn.mkdir(d, 'p')
  return vim.loop.fs_realpath(d)
end

--- Writes text to path, creating folders.
function M.write(path, text)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f = assert(io.open(path, 'w'))
  f:write(text)
  f:close()
end

--- The file's text, or nil.
function M.read(path)
  local f = io.open(path, 'r')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

return M
