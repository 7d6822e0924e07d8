-- The agentls server config for Neovim 0.11+ (`vim.lsp.config('agentls', {...})`,
-- `vim.lsp.enable('agentls')`). It is what require('agentls').setup() would start, with the
-- plugin's handlers (questions, mode, chat). setup() starts the server itself and adds its root
-- filter to vim.lsp.config('agentls'), so that vim.lsp.enable('agentls') reuses its client.
local agentls = require('agentls')
local st = agentls.state_or_default()
local cfg = st:client_config()
cfg.root_dir = nil
cfg.root_markers = st.opts.root_markers
return cfg
