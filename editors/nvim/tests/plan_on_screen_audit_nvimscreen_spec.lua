-- Audit (nvimscreen): the plan on the screen when its approval is asked. The plan opens in a
-- split below the current window, half its height, and Neovim's own vim.ui.select (an
-- inputlist, 0.7 and 0.11) then prints the question over the bottom of the screen and blocks it:
-- on a small screen the question covers the whole plan, on a normal one the plan's last steps,
-- though the plan and the question fit on the screen together. The person cannot scroll the plan
-- while the choice waits.
local t = require('runner')
local h = require('helpers')

-- A child Neovim (this same binary) with its real terminal UI in a pty whose output a terminal
-- buffer of this Neovim renders (nvim_open_term): that buffer's last rows are the child's screen
-- as a person sees it now (not the stream of everything ever drawn). Driven over --listen.
local function child(width, height)
  local addr = vim.fn.tempname() .. '.sock'
  vim.o.columns, vim.o.lines = math.max(vim.o.columns, width + 4), math.max(vim.o.lines, height + 4)
  local tbuf = vim.api.nvim_create_buf(false, true)
  local twin = vim.api.nvim_open_win(tbuf, true, { relative = 'editor', row = 0, col = 0, width = width, height = height })
  local term = vim.api.nvim_open_term(tbuf, {})
  local job = vim.fn.jobstart({ vim.v.progpath, '-u', 'NONE', '-i', 'NONE', '-n', '--listen', addr }, {
    pty = true, width = width, height = height,
    on_stdout = function(_, data)
      pcall(vim.api.nvim_chan_send, term, table.concat(data, '\n'))
    end,
  })
  t.ok(job > 0, 'child Neovim started')
  local ch
  t.cleanup(function()
    if ch then pcall(vim.fn.chanclose, ch) end
    vim.fn.jobstop(job)
    vim.fn.jobwait({ job }, 5000)
    pcall(vim.api.nvim_win_close, twin, true)
    pcall(vim.api.nvim_buf_delete, tbuf, { force = true })
  end)
  t.wait(10000, function() return vim.loop.fs_stat(addr) ~= nil end, 'the child to listen')
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
  function c.mode() return vim.rpcrequest(ch, 'nvim_get_mode') end
  function c.input(keys) vim.rpcrequest(ch, 'nvim_input', keys) end
  function c.lua(code, ...) return vim.rpcrequest(ch, 'nvim_exec_lua', code, { ... }) end
  function c.notify_lua(code, ...) vim.rpcnotify(ch, 'nvim_exec_lua', code, { ... }) end
  -- the child's screen now: the terminal's last `height` rows
  function c.screen()
    local ls = vim.api.nvim_buf_get_lines(tbuf, 0, -1, false)
    local out = {}
    for i = math.max(1, #ls - height + 1), #ls do table.insert(out, ls[i]) end
    while #out < height do table.insert(out, '') end
    return table.concat(out, '\n')
  end
  -- waits until the screen (rows joined) matches `pat` and stays the same for 300 ms
  function c.settle(pat, what)
    local last, since = nil, vim.loop.now()
    local ok = vim.wait(20000, function()
      local s = c.screen()
      if s ~= last then last, since = s, vim.loop.now() return false end
      return (not pat or s:find(pat)) and vim.loop.now() - since > 300
    end, 20)
    if not ok then error(string.format('timed out waiting for %s; the screen:\n%s', what or pat, c.screen()), 2) end
    return last
  end
  t.wait(20000, function()
    return c.mode().mode == 'n' and #vim.rpcrequest(ch, 'nvim_list_uis') > 0
  end, 'the child and its terminal UI to be ready')
  c.lua('vim.opt.runtimepath:prepend(...)', h.plugin)
  return c
end

local ask = [[
  local root, grants = ...
  vim.cmd('cd ' .. root)
  local st = require('agentls')._State.new(require('agentls.config').merge({ root = root }))
  st.chat:open('right', 80, true)
  vim.cmd('wincmd p') -- the prompt was sent from a code window
  st.plan_files.s1 = 'plans/p.plan'
  _G.res = nil
  vim.schedule(function()
    _G.res = st:on_ask({
      sessionId = 's1', questionId = 'q', purpose = 'plan_approval',
      questions = {
        { name = 'approve', question = 'Review the plan `plans/p.plan`. Accept it and start building?', schema = { type = 'boolean' },
          buttons = { { label = 'Accept & Build', value = true }, { label = 'Keep Planning', value = false } } },
        { name = 'feedback', question = 'What should change?', schema = { type = 'string' }, optional = true },
      },
      permission = { kind = 'plan', what = 'plans/p.plan', grants = grants },
    })
  end)
]]

-- {columns, lines, steps, grants}: each plan (4 lines and its steps) and its question fit on the screen together.
for _, case in ipairs({ { 60, 15, 3, {} }, { 120, 40, 20, { 'run: go test ./...', 'run: make' } } }) do
  local cols, rows, steps, grants = case[1], case[2], case[3], case[4]
  t.it(string.format('a %d-step plan on %dx%d: every step on the screen when the approval is asked', steps, cols, rows), function()
    local c = child(cols, rows)
    local root = h.tmpdir()
    local plan = '# Goal\nShip it\n\n## Steps\n'
    for i = 1, steps do
      plan = plan .. '- [ ] STEP-' .. i .. '-MARK\n'
    end
    h.write(root .. '/plans/p.plan', plan)
    c.notify_lua(ask, root, grants)
    local screen = c.settle('Accept & Build', 'the approval question')
    h.keep(string.format('screen-audit-plan-approval-%dx%d-0.%d.txt', cols, rows, vim.version().minor), screen)
    local missing = {}
    for i = 1, steps do
      if not screen:find('STEP-' .. i .. '-MARK', 1, true) then
        table.insert(missing, i)
      end
    end
    t.eq({}, missing, 'the steps not on the screen when the choice is asked; the screen:\n' .. screen .. '\n')
    c.input('1<CR>') -- Keep Planning
  end)
end
