-- A sub-agent's running command in the chat (docs/subagents.md; agent/subagent_notes.go): its
-- newest output line reaches the root's agent/update stream under the child call's id, and the
-- chat shows it as it shows a root call's (live_spec.lua): under the child's indented row, a line
-- holding only `⋯`, the text as virtual text after it, replaced by each newer line and gone when
-- the call ends. End to end against the real agentls binary: a BUILD session whose `build`
-- sub-agent runs a command whose lines the test lets out one by one.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local live = require('live_lines').live

-- The command's lines, each let out once the test saw the one before (flag files go0…).
local live_sh = [[
wait_for() { i=0; while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; }
wait_for go0; printf 'child step one\n'; wait_for go1
printf '\033[32mchild step two\033[0m\n'; wait_for go2
printf 'child done\n'
]]

local script = [[
name: nvim_subagent_live
steps:
  - text: "Handing it to a builder."
    tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "run live.sh"}}
  - text: "The builder ran it."
    expect:
      tool_result_contains: {t1: ["completed"]}
children:
  build-1:
    - tool_calls:
        - {id: r1, name: run, args: {command: "sh live.sh"}}
    - text: "ran live.sh"
      expect:
        tool_result_contains: {r1: ["child done"]}
]]

t.describe("a sub-agent's running command in the chat", function()
  t.it("shows its newest line under the child's row, replaced, gone at its end", function()
    local st, root = h.start({ ['live.sh'] = live_sh }, script, { chat = { position = 'right', width = 70 } })
    h.build_session()
    h.choose('Run') -- the child's command is asked in the root's session
    vim.cmd('Agentls chat')
    vim.cmd('wincmd p')
    agentls.prompt('run it through a builder')
    local steps = { 'child step one', 'child step two' }
    for i, want in ipairs(steps) do
      h.write(root .. '/go' .. (i - 1), '')
      if not vim.wait(20000, function()
        local l, text = next(live(st.chat))
        return l and text == want
      end, 10) then
        local shown = vim.inspect(live(st.chat))
        local chat = h.text(st.chat.bufnr)
        error(string.format('timed out waiting for %q under the child row; shown: %s; chat:\n%s', want, shown, chat))
      end
      t.eq(1, vim.tbl_count(live(st.chat)), want .. ': one live line')
      local l = next(live(st.chat))
      local ls = vim.api.nvim_buf_get_lines(st.chat.bufnr, 0, -1, false)
      t.eq('        ⋯', ls[l], want .. ": the line in the buffer, indented under the child's row")
      -- the child's run question and its answer stand under the child's row, indented with it
      t.eq({ '        ? Run `sh live.sh`?', '        → Run' }, { ls[l - 2], ls[l - 1] }, want .. ": the child's question above it")
      local child = l - 3
      t.match('^      ↳ %[%x+%] Running `sh live%.sh` …', ls[child], want .. ": the child's row right above them")
      t.match('^  • Task build', ls[child - 1], want .. ': the task row above the child')
      t.eq(st.chat.rows[child], st.chat:call_at(l), want .. ": the line belongs to the child's call")
      t.ok(not h.text(st.chat.bufnr):find(want, 1, true), want .. ': the text is not in the markdown')
      vim.cmd('redraw')
      local screen = h.screen()
      h.keep(string.format('subagent-live-%s-%d.txt', vim.version().minor, i), screen)
      t.contains(screen, '        ⋯ ' .. want, want .. ': on the screen as text')
      t.ok(not screen:find('\27', 1, true), want .. ': an escape on the screen')
    end
    h.write(root .. '/go' .. #steps, '')
    local r = h.turn(st, 'the turn to end', 30000)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    st.chat:flush()
    t.eq({}, live(st.chat), 'no live line after the call')
    local text = h.text(st.chat.bufnr)
    t.match('\n      ↳ %[%x+%] Ran `sh live%.sh` ✓ %(exit 0%)\n', text, "the child's final row")
    t.ok(not text:find('⋯', 1, true), 'no live mark after the turn:\n' .. text)
    vim.cmd('redraw')
    h.keep(string.format('subagent-live-%s-after.txt', vim.version().minor), h.screen())
  end)
end)
