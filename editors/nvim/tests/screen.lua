-- screen.lua: a child Neovim (this same binary) with its real terminal UI in a pty, for the specs
-- that check what a person sees. A terminal buffer of this Neovim renders the pty's output
-- (nvim_open_term): that buffer's last rows are the child's screen as it is now (not the stream of
-- everything ever drawn). The child is driven over --listen and stopped when the test ends.
local t = require('runner')
local h = require('helpers')

local M = {}

--- Starts a child Neovim on a width x height terminal with the plugin on its 'runtimepath'.
--- Returns a handle: resize(w, h), mode(), input(keys), lua(code, ...), notify_lua(code, ...),
--- screen() (the rows joined by newlines) and settle(pat, what) (waits until the screen matches
--- the Lua pattern `pat` and stays the same for 300 ms; returns it).
function M.child(width, height)
  local addr = vim.fn.tempname() .. '.sock'
  vim.o.columns, vim.o.lines = math.max(vim.o.columns, width + 4), math.max(vim.o.lines, height + 4)
  local tbuf = vim.api.nvim_create_buf(false, true)
  local twin = vim.api.nvim_open_win(tbuf, true, { relative = 'editor', row = 0, col = 0, width = width, height = height })
  local term = vim.api.nvim_open_term(tbuf, {})
  local job = vim.fn.jobstart({ vim.v.progpath, '-u', 'NONE', '-i', 'NONE', '-n', '--listen', addr }, {
    pty = true,
    width = width,
    height = height,
    on_stdout = function(_, data)
      pcall(vim.api.nvim_chan_send, term, table.concat(data, '\n'))
    end,
  })
  t.ok(job > 0, 'child Neovim started')
  local ch
  t.cleanup(function()
    if ch then
      pcall(vim.fn.chanclose, ch)
    end
    vim.fn.jobstop(job)
    vim.fn.jobwait({ job }, 5000)
    pcall(vim.api.nvim_win_close, twin, true)
    pcall(vim.api.nvim_buf_delete, tbuf, { force = true })
  end)
  t.wait(10000, function()
    return vim.loop.fs_stat(addr) ~= nil
  end, 'the child to listen')
  t.wait(10000, function()
    local ok, id = pcall(vim.fn.sockconnect, 'pipe', addr, { rpc = true })
    ch = ok and id > 0 and id or nil
    return ch
  end, 'a connection to the child')
  local c = {}
  function c.resize(w, hh)
    height = hh
    vim.api.nvim_win_set_config(twin, { relative = 'editor', row = 0, col = 0, width = w, height = hh })
    vim.fn.jobresize(job, w, hh)
  end
  function c.mode()
    return vim.rpcrequest(ch, 'nvim_get_mode')
  end
  function c.input(keys)
    vim.rpcrequest(ch, 'nvim_input', keys)
  end
  function c.lua(code, ...)
    return vim.rpcrequest(ch, 'nvim_exec_lua', code, { ... })
  end
  function c.notify_lua(code, ...)
    vim.rpcnotify(ch, 'nvim_exec_lua', code, { ... })
  end
  function c.screen()
    local ls = vim.api.nvim_buf_get_lines(tbuf, 0, -1, false)
    local out = {}
    for i = math.max(1, #ls - height + 1), #ls do
      table.insert(out, ls[i])
    end
    while #out < height do
      table.insert(out, '')
    end
    return table.concat(out, '\n')
  end
  function c.settle(pat, what)
    local last, since = nil, vim.loop.now()
    local ok = vim.wait(20000, function()
      local s = c.screen()
      if s ~= last then
        last, since = s, vim.loop.now()
        return false
      end
      return (not pat or s:find(pat)) and vim.loop.now() - since > 300
    end, 20)
    if not ok then
      error(string.format('timed out waiting for %s; the screen:\n%s', what or pat, c.screen()), 2)
    end
    return last
  end
  t.wait(20000, function()
    return c.mode().mode == 'n' and #vim.rpcrequest(ch, 'nvim_list_uis') > 0
  end, 'the child and its terminal UI to be ready')
  c.lua('vim.opt.runtimepath:prepend(...)', h.plugin)
  return c
end

return M
