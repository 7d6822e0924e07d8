-- The start branches against a stubbed vim.lsp table. CI's Neovim (Debian's 0.7.2) runs only
-- the start_client branch for real (flow_spec.lua); the 0.8+ `vim.lsp.start` and the 0.11+
-- `vim.lsp.config`/`vim.lsp.enable` branches are checked here with stand-ins.
local t = require('runner')
local h = require('helpers')
local start = require('agentls.start')

local function cfg(root)
  return { name = 'agentls', cmd = { 'agentls' }, root_dir = root, handlers = { x = function() end } }
end

t.describe('start', function()
  t.it('picks the branch by feature', function()
    t.eq('enable', start.strategy({ config = function() end, enable = function() end, start = function() end }))
    t.eq('enable', start.strategy({ config = setmetatable({}, { __call = function() end }), enable = function() end }))
    t.eq('start', start.strategy({ start = function() end, start_client = function() end }))
    t.eq('start_client', start.strategy({ start_client = function() end }))
    t.eq('start_client', start.strategy(vim.lsp), 'this Neovim (0.7.2 in CI)')
  end)

  t.it('0.11+: vim.lsp.config then vim.lsp.enable, root kept', function()
    local calls = {}
    local lsp = {
      config = function(name, c)
        table.insert(calls, { 'config', name, c })
      end,
      enable = function(name)
        table.insert(calls, { 'enable', name })
      end,
    }
    local how, id = start.start(lsp, cfg('/proj'), vim.api.nvim_create_augroup('agentls_test', { clear = true }))
    t.eq('enable', how)
    t.eq(nil, id)
    t.eq('config', calls[1][1])
    t.eq('agentls', calls[1][2])
    t.eq({ 'enable', 'agentls' }, calls[2])
    local got
    calls[1][3].root_dir(0, function(r)
      got = r
    end)
    t.eq('/proj', got, 'root_dir(bufnr, on_dir)')
    t.eq({ 'agentls' }, calls[1][3].cmd)
    t.ok(calls[1][3].handlers.x, 'handlers passed')
  end)

  t.it('0.8+: vim.lsp.start for the current buffer and buffers entered under the root', function()
    local root = h.tmpdir()
    h.write(root .. '/a.txt', 'a')
    local other = h.tmpdir()
    h.write(other .. '/b.txt', 'b')
    local started = {}
    local lsp = {
      start = function(c, o)
        table.insert(started, { c = c, bufnr = o.bufnr })
        return 7
      end,
    }
    local group = vim.api.nvim_create_augroup('agentls_test', { clear = true })
    t.cleanup(function()
      vim.api.nvim_del_augroup_by_id(group)
      vim.cmd('silent! %bwipeout!')
    end)
    local how, id = start.start(lsp, cfg(root), group)
    t.eq('start', how)
    t.eq(7, id)
    t.eq(1, #started)
    vim.cmd('edit ' .. root .. '/a.txt')
    t.eq(2, #started, 'a file under the root')
    t.eq(vim.api.nvim_get_current_buf(), started[2].bufnr)
    t.eq(root, started[2].c.root_dir)
    vim.cmd('edit ' .. other .. '/b.txt')
    t.eq(2, #started, 'a file elsewhere is not attached')
  end)

  t.it('0.7: start_client once, buf_attach_client per buffer under the root', function()
    local root = h.tmpdir()
    h.write(root .. '/a.txt', 'a')
    local attached = {}
    local lsp = {
      start_client = function()
        return 3
      end,
      buf_attach_client = function(b, id)
        table.insert(attached, { b, id })
      end,
    }
    local group = vim.api.nvim_create_augroup('agentls_test', { clear = true })
    t.cleanup(function()
      vim.api.nvim_del_augroup_by_id(group)
      vim.cmd('silent! %bwipeout!')
    end)
    local how, id = start.start(lsp, cfg(root), group)
    t.eq('start_client', how)
    t.eq(3, id)
    vim.cmd('edit ' .. root .. '/a.txt')
    t.ok(#attached >= 1, 'attached')
    t.eq({ vim.api.nvim_get_current_buf(), 3 }, attached[#attached])
  end)
end)
