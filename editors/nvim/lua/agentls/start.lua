-- agentls.start: starts the language server the way the running Neovim can, detected by
-- feature (never by version number): `vim.lsp.config` + `vim.lsp.enable` (0.11+),
-- `vim.lsp.start` (0.8+), `vim.lsp.start_client` + `vim.lsp.buf_attach_client` (0.7).
-- `lsp` is vim.lsp or a stand-in (tests/start_spec.lua stubs the newer branches).
local M = {}

--- Which way `lsp` offers: 'enable', 'start' or 'start_client'.
function M.strategy(lsp)
  if type(lsp.config) == 'function' or (type(lsp.config) == 'table' and getmetatable(lsp.config) and getmetatable(lsp.config).__call) then
    if type(lsp.enable) == 'function' then
      return 'enable'
    end
  end
  if type(lsp.start) == 'function' then
    return 'start'
  end
  return 'start_client'
end

--- Whether buffer `b` is a file the server should see: a normal buffer with a name under root.
function M.attachable(b, root)
  if not vim.api.nvim_buf_is_valid(b) or vim.bo[b].buftype ~= '' then
    return false
  end
  local name = vim.api.nvim_buf_get_name(b)
  if name == '' then
    return false
  end
  name = vim.fn.fnamemodify(name, ':p')
  return name:sub(1, #root + 1) == root .. '/' or name == root
end

--- Starts the server with client config `cfg` (name, cmd, root_dir, handlers, …) and attaches
--- file buffers under `cfg.root_dir` as they are entered. Returns the strategy and, when
--- known at once, the client id (the 'enable' branch finds its client by name later).
function M.start(lsp, cfg, augroup)
  local how = M.strategy(lsp)
  local root = cfg.root_dir
  if how == 'enable' then
    local c = vim.deepcopy(cfg)
    c.root_dir = nil
    c.root_markers = nil
    -- A function root keeps the server on this project whatever buffer starts it.
    c.root_dir = function(_, on_dir)
      if on_dir then
        on_dir(root)
      else
        return root
      end
    end
    c.handlers = cfg.handlers
    lsp.config(cfg.name, c)
    lsp.enable(cfg.name)
    return how, nil
  end
  local id
  if how == 'start' then
    local function attach(b)
      if M.attachable(b, root) then
        id = lsp.start(cfg, { bufnr = b }) or id
      end
    end
    id = lsp.start(cfg, { bufnr = vim.api.nvim_get_current_buf() })
    vim.api.nvim_create_autocmd('BufEnter', {
      group = augroup,
      callback = function(a)
        attach(a.buf)
      end,
    })
    return how, id
  end
  id = lsp.start_client(cfg)
  if not id then
    return how, nil
  end
  local function attach(b)
    if M.attachable(b, root) then
      lsp.buf_attach_client(b, id)
    end
  end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      attach(b)
    end
  end
  vim.api.nvim_create_autocmd({ 'BufEnter', 'BufReadPost', 'BufNewFile' }, {
    group = augroup,
    callback = function(a)
      attach(a.buf)
    end,
  })
  return how, id
end

return M
