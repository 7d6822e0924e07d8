-- The agentls server config for Neovim 0.11+ (`vim.lsp.config('agentls', {...})`,
-- `vim.lsp.enable('agentls')`). It is what require('agentls').setup() would start, with the
-- plugin's handlers (questions, mode, chat); setup() itself also calls vim.lsp.config/enable.
local agentls = require('agentls')
local st = agentls.state_or_default()
local cfg = st:client_config()
cfg.root_dir = nil
cfg.root_markers = st.opts.root_markers
return cfg
