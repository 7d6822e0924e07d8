-- minimal_init.lua: the init file of every headless test run (see runner.lua for the runner's
-- API). It makes `require('runner')` (and the other modules in this folder) loadable, keeps the
-- run free of the user's config, swap files and shada, and loads nothing else; the plugin's own
-- specs put the plugin on 'runtimepath' themselves (tests/helpers.lua).
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*)/') or '.'
here = vim.fn.fnamemodify(here, ':p'):gsub('/$', '')
package.path = here .. '/?.lua;' .. package.path
vim.o.swapfile = false
vim.o.shadafile = 'NONE'
vim.o.more = false
vim.env.AGENTLS_NVIM_TESTS = here
