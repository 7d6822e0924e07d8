-- Audit (nvimscreen): the chat's newest line on a small screen while a BUILD turn streams. The
-- chat follows the end by putting its cursor on the prompt marker, but the plan checklist and the
-- token usage stand between the transcript and the marker, so on a short window they fill it and
-- the agent's newest words (and the working line) are scrolled off the top
-- (doc/agentls.txt: "the newest line stays in view").
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

for _, case in ipairs({ { 60, 15, 8 }, { 40, 12, 5 } }) do
  local cols, rows, steps = case[1], case[2], case[3]
  t.it(string.format('a streaming BUILD turn with a %d-step plan on %dx%d: the newest line is on the screen', steps, cols, rows), function()
    local c = child(cols, rows)
    c.lua(
      [[
      local root, steps = ...
      local st = require('agentls')._State.new(require('agentls.config').merge({ root = root }))
      _G.st = st
      st.chat:open('right', 80, true)
      vim.cmd('wincmd p') -- as a prompt sent from a code window leaves it (open_on_prompt)
      local entries = {}
      for i = 1, steps do
        table.insert(entries, { content = 'Step ' .. i, status = i == 1 and 'completed' or (i == 2 and 'in_progress' or 'pending') })
      end
      st.chat:update({ sessionUpdate = 'current_mode_update', currentModeId = 'build' })
      st.chat:update({ sessionUpdate = 'plan', planFile = 'plans/p.plan', entries = entries })
      st.chat:update({ sessionUpdate = 'usage_update', inputTokens = 1200, outputTokens = 80 })
      st.chat:set_working(true)
      st.chat:user('Build it')
    ]],
      h.tmpdir(),
      steps
    )
    for i = 1, 20 do
      c.lua("st.chat:update({ sessionUpdate = 'agent_message_chunk', content = { text = ... } })", 'answer line ' .. i .. '\n')
    end
    c.lua("st.chat:update({ sessionUpdate = 'agent_message_chunk', content = { text = 'NEWEST-MARK done.' } })")
    local screen = c.settle('Tokens:', 'the chat drawn')
    h.keep(string.format('screen-audit-chat-follow-plan-%dx%d-0.%d.txt', cols, rows, vim.version().minor), screen)
    t.ok(screen:find('NEWEST-MARK', 1, true), "the agent's newest line on the screen; the screen:\n" .. screen)
  end)
end
