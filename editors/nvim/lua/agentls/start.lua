-- agentls.start: starts the language server at once, the way the running Neovim can, detected
-- by feature (never by version number):
--   * `vim.lsp.start` (0.8+): started for the project root without a buffer where `attach =
--     false` is understood (0.11+, the Neovim that has `vim.lsp.config`), else with the current
--     buffer when it is a file under the root, else by `vim.lsp.start_client` (0.8 to 0.10);
--   * `vim.lsp.start_client` + `vim.lsp.buf_attach_client` (0.7).
-- On every version the plugin's own filter attaches exactly the files under the root, as they
-- are entered (whatever their filetype), and never a file outside it. A client of the same name
-- and root that is already running (started by `vim.lsp.enable('agentls')`) is reused.
-- `lsp` is vim.lsp or a stand-in (tests/start_spec.lua).
local M = {}

--- The autocmd group of the attach filter (replaced by each start).
M.augroup = 'agentls_attach'

--- Which way `lsp` offers: 'start' (0.8+) or 'start_client' (0.7).
---@param lsp table vim.lsp or a stand-in
---@return 'start'|'start_client'
function M.strategy(lsp)
  if type(lsp.start) == 'function' then
    return 'start'
  end
  return 'start_client'
end

--- Whether `lsp.start` understands `{ attach = false }` (it came with vim.lsp.config/enable).
local function starts_detached(lsp)
  local c = lsp.config
  local callable = type(c) == 'function' or (type(c) == 'table' and getmetatable(c) ~= nil and getmetatable(c).__call ~= nil)
  return callable and type(lsp.enable) == 'function'
end

--- Whether buffer `b` is a file the server should see: a normal buffer with a name under root.
---@param b integer buffer number
---@param root string the project root (absolute, no trailing slash)
---@return boolean
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

--- Whether `client` is an agentls client for `root` that is still running.
function M.same_server(client, name, root)
  if client.name ~= name then
    return false
  end
  local stopped = client.is_stopped
  if type(stopped) == 'function' then
    -- 0.11 clients take self (a method); older ones are closures without arguments
    local ok, s = pcall(stopped, client)
    if ok and s then
      return false
    end
  end
  local r = client.root_dir or (client.config and client.config.root_dir)
  return type(r) == 'string' and vim.fn.fnamemodify(r, ':p'):gsub('/$', '') == root
end

--- The id of a running client named `name` for `root` (e.g. started by vim.lsp.enable), or nil.
function M.find_running(lsp, name, root)
  local get = lsp.get_clients or lsp.get_active_clients
  if type(get) ~= 'function' then
    return nil
  end
  for _, c in ipairs(get({ name = name, _uninitialized = true }) or {}) do
    if M.same_server(c, name, root) then
      return c.id
    end
  end
  return nil
end

--- The options of `lsp.start` for buffer `b`: reuse our client (by id), or one of the same name
--- and root.
local function start_opts(b, id_of, name, root)
  return {
    bufnr = b,
    reuse_client = function(client)
      return client.id == id_of() or M.same_server(client, name, root)
    end,
  }
end

--- Starts the server with client config `cfg` (name, cmd, root_dir, handlers, …) now, and
--- attaches each file buffer under `cfg.root_dir` when it is entered or read. Returns the
--- strategy and the client id (nil when the server could not be started). `existing` is the id
--- of a running client to reuse instead of starting one.
---@param lsp table vim.lsp or a stand-in
---@param cfg table the client config
---@param existing integer|nil
---@return 'start'|'start_client', integer|nil
function M.start(lsp, cfg, existing)
  local how = M.strategy(lsp)
  local root = cfg.root_dir
  local id = existing
  local function current()
    return id
  end
  local attach
  if how == 'start' then
    attach = function(b)
      if M.attachable(b, root) then
        id = lsp.start(cfg, start_opts(b, current, cfg.name, root)) or id
      end
    end
    if not id then
      local cur = vim.api.nvim_get_current_buf()
      if starts_detached(lsp) then
        id = lsp.start(cfg, { attach = false, reuse_client = start_opts(cur, current, cfg.name, root).reuse_client })
      elseif M.attachable(cur, root) then
        id = lsp.start(cfg, start_opts(cur, current, cfg.name, root))
      elseif type(lsp.start_client) == 'function' then
        id = lsp.start_client(cfg)
      end
    end
  else
    id = id or lsp.start_client(cfg)
    if not id then
      return how, nil
    end
    attach = function(b)
      if M.attachable(b, root) then
        lsp.buf_attach_client(b, id)
      end
    end
  end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      attach(b)
    end
  end
  vim.api.nvim_create_autocmd({ 'BufEnter', 'BufReadPost', 'BufNewFile' }, {
    group = vim.api.nvim_create_augroup(M.augroup, { clear = true }),
    callback = function(a)
      attach(a.buf)
    end,
  })
  return how, id
end

return M
