-- The help file ships with its tags: doc/tags is what :helptags makes of doc/agentls.txt (so a
-- plugin manager that never runs :helptags, or a plain 'runtimepath' install, still has
-- `:help agentls`), and `:help agentls` works in a fresh Neovim that only has the plugin's folder
-- on 'runtimepath'.
local t = require('runner')
local h = require('helpers')

local function read_bytes(path)
  return table.concat(vim.fn.readfile(path, 'b'), '\n')
end

t.describe('help', function()
  t.it('doc/tags is what :helptags generates (regenerate: nvim --headless -c "helptags editors/nvim/doc" -c q)', function()
    local dir = h.tmpdir()
    vim.fn.writefile(vim.fn.readfile(h.plugin .. '/doc/agentls.txt', 'b'), dir .. '/agentls.txt', 'b')
    vim.cmd('helptags ' .. vim.fn.fnameescape(dir))
    t.ok(vim.loop.fs_stat(h.plugin .. '/doc/tags'), 'doc/tags is shipped')
    t.eq(read_bytes(dir .. '/tags'), read_bytes(h.plugin .. '/doc/tags'), 'doc/tags')
  end)

  t.it(':help agentls works after a plain runtimepath install', function()
    -- the plugin's files as a user's copy has them (no :helptags run there)
    local copy = h.tmpdir() .. '/agentls'
    for _, f in ipairs({ 'doc/agentls.txt', 'doc/tags', 'plugin/agentls.lua' }) do
      vim.fn.mkdir(vim.fn.fnamemodify(copy .. '/' .. f, ':h'), 'p')
      vim.fn.writefile(vim.fn.readfile(h.plugin .. '/' .. f, 'b'), copy .. '/' .. f, 'b')
    end
    local result = h.tmpdir() .. '/result'
    local function help(topic)
      local out = vim.fn.system({
        vim.v.progpath, '--headless', '-u', 'NONE', '-i', 'NONE', '-n',
        '-c', 'set runtimepath+=' .. copy, -- the README's plain install
        '-c', 'let g:r = [] | try | help ' .. topic .. ' | catch | let g:r = [v:exception] | endtry',
        '-c', 'call writefile(g:r + [expand("%:p"), &buftype, getline(".")], "' .. result .. '")',
        '-c', 'qa!',
      })
      t.eq(0, vim.v.shell_error, out)
      return vim.fn.readfile(result), out
    end
    local r, out = help('agentls')
    t.ok(not out:find('E149'), 'E149: ' .. out)
    t.eq(3, #r, 'no error: ' .. vim.inspect(r))
    t.eq(copy .. '/doc/agentls.txt', r[1], 'the help file opened')
    t.eq('help', r[2])
    t.match("^%*agentls[%.%*]", r[3], "the help file's first tag")
    r = help('agentls.setup()')
    t.eq(3, #r, 'no error: ' .. vim.inspect(r))
    t.contains(r[3], '*agentls.setup()*')
  end)
end)
