-- luacheck (Debian's lua-check; scripts/test runs it over editors/nvim/lua, plugin and lsp).
std = 'luajit'
max_line_length = 160
-- `self` unused in a method is fine, and so are unused arguments of callbacks whose signature
-- Neovim fixes (LSP handlers, autocmd and vim.ui callbacks)
self = false
unused_args = false
-- vim.* is read-only except the option and variable tables the plugin sets
local writable = { read_only = false, other_fields = true }
read_globals = {
  vim = {
    other_fields = true,
    fields = { g = writable, b = writable, bo = writable, wo = writable, o = writable, opt = writable, env = writable },
  },
}
-- protocol.lua is generated from agentproto (go generate ./agentproto): its doc comments are the
-- Go table's, one line each.
files['lua/agentls/protocol.lua'] = { max_line_length = false }
