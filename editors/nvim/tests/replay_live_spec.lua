-- A running command's live line (live_spec.lua) and a session opened again: the chat rebuilt from
-- agent/loadSession (the same session loaded again, or the last chat reopened after Neovim and the
-- server restart) shows a finished run as finished — its row "Ran `…` ✓ (exit 0)", no `⋯` line,
-- no live text left from the run as it was before. Likewise a run the server never finished
-- (killed while the command printed): the live line goes with the server, and the reopened
-- chat does not show the call as still running. End to end against the real agentls binary.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local chatmod = require('agentls.chat')

local live = require('live_lines').live

-- Prints one line, waits (bounded) for go.flag, prints another.
local slow_sh = [[
printf 'still running here\n'
i=0; while [ ! -e go.flag ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
printf 'all done\n'
]]

local script = [[
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "sh slow.sh"}}
  - text: "The command finished."
    expect:
      tool_result_contains: {r1: ["all done"]}
]]

-- Waits until the chat shows `want` as the live text of the call running `sh slow.sh`.
local function wait_live(st, want)
  t.wait(20000, function()
    local _, text = next(live(st.chat))
    return text == want
  end, 'the live line ' .. want)
end

-- A BUILD session whose prompt runs slow.sh (allowed when asked), the chat open beside the
-- current window; returns once the command's first line is the call's live text.
local function start_run()
  local st, root = h.start({ ['slow.sh'] = slow_sh }, script, { chat = { position = 'right', width = 60 } })
  h.build_session()
  h.choose('Run')
  vim.cmd('Agentls chat')
  vim.cmd('wincmd p')
  agentls.prompt('run it')
  wait_live(st, 'still running here')
  return st, root
end

-- The chat as the screen shows it (kept as an artifact named `name`).
local function screen(name)
  vim.cmd('redraw')
  local s = h.screen()
  h.keep(string.format('replay-live-%s-%s.txt', vim.version().minor, name), s)
  return s
end

-- Fails unless the chat shows no live line and no run as running; returns the chat's text.
local function nothing_running(st, what)
  st.chat:flush()
  local text = h.text(st.chat.bufnr)
  t.eq({}, live(st.chat), what .. ': no live text')
  t.ok(not text:find(chatmod.live_mark, 1, true), what .. ': no live mark:\n' .. text)
  t.ok(not text:find('Running `sh slow.sh`', 1, true), what .. ': the run is not shown running:\n' .. text)
  local s = screen(what:gsub('%W+', '-'))
  t.ok(not s:find('still running here', 1, true), what .. ': the old live text on the screen:\n' .. s)
  return text
end

-- The agentls process this Neovim started (the spec's own child), by its id.
local function server_pid()
  for _, l in ipairs(vim.fn.systemlist({ 'ps', '-o', 'pid=,comm=', '--ppid', tostring(vim.fn.getpid()) })) do
    local pid, comm = l:match('^%s*(%d+)%s+(%S+)')
    if pid and comm == 'agentls' then
      return tonumber(pid)
    end
  end
end

t.describe('the live line of a session opened again', function()
  t.it('a finished run: loaded again and reopened after a restart, it reads Ran ✓ with no live line', function()
    local st, root = start_run()
    t.contains(screen('running'), '    ⋯ still running here', 'the live line while it runs')
    h.write(root .. '/go.flag', '')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    local id = st.session.sessionId
    t.contains(nothing_running(st, 'after the turn'), '  • Ran `sh slow.sh` ✓ (exit 0)')

    -- the same session loaded again into the chat
    local loaded = false
    st:load_session(id, function()
      loaded = true
    end)
    t.wait(5000, function()
      return loaded
    end, 'the session loaded again')
    t.contains(nothing_running(st, 'loaded again'), '  • Ran `sh slow.sh` ✓ (exit 0)', 'the replayed row')

    local st2 = h.restart(st, id)
    t.contains(nothing_running(st2, 'reopened after a restart'), '  • Ran `sh slow.sh` ✓ (exit 0)', 'the replayed row')
  end)

  t.it('a run the server never finished: its live line goes with the server, and reopened it is not running', function()
    local st = start_run()
    local id = st.session.sessionId
    local pid = server_pid()
    t.ok(pid, 'the server is a child of this Neovim')
    vim.loop.kill(pid, 9)
    t.wait(10000, function()
      return st.client_id == nil and not st.busy
    end, 'the plugin to see the server exit')
    t.wait(5000, function()
      st.chat:flush()
      return next(live(st.chat)) == nil
    end, 'the live line to go with the server')
    nothing_running(st, 'the server killed')

    local st2 = h.restart(st, id)
    local text = nothing_running(st2, 'reopened after the kill')
    t.match('\n  • [^\n]*sh slow%.sh[^\n]*interrupted', text, 'the call reads as interrupted')
  end)
end)
