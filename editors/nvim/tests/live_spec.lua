-- A running call's newest line (experimental.agent.toolCallProgress; docs/protocol.md): shown in
-- the chat under the call's row as plain text — the row's `⋯` line in the buffer, the text as
-- virtual text after it (never parsed as markdown), one line cut to the window without splitting
-- a character — replaced by each newer line and gone when the call ends. Checked on the line
-- cleaner (table and seeded random input), on the chat alone, and end to end with a real command
-- whose lines the test lets out one by one (the server reports the newest once a second).
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local chatmod = require('agentls.chat')
local plain = require('agentls.plain_line')

local live = require('live_lines').live

-- The only live text and its line, or nil.
local function only_live(chat)
  local l, text = next(live(chat))
  return text, l
end

-- Whether s is valid UTF-8 without control characters.
local function clean_utf8(s)
  return vim.str_utfindex(s) ~= nil and not s:find('[%z\1-\31\127]') and not s:find('\194[\128-\159]')
end

local function marker_line(chat)
  local ls = vim.api.nvim_buf_get_lines(chat.bufnr, 0, -1, false)
  for i = #ls, 1, -1 do
    if ls[i] == chatmod.marker then
      return i
    end
  end
end

t.describe('plain_line', function()
  t.it('clean: terminal sequences and control characters dropped, one line, invalid bytes shown', function()
    local cases = {
      { 'plain', 'ok  example.com/x 0.3s', 'ok  example.com/x 0.3s' },
      { 'markdown and HTML stay text', '**bold** <img src=x onerror=alert(1)>', '**bold** <img src=x onerror=alert(1)>' },
      { 'a colour', '\27[31mred\27[0m alert', 'red alert' },
      { 'a cursor move and a title', '\27[2K\27[1Gx\27]0;title\7y', 'xy' },
      { 'C0, DEL and C1', 'a\1b\127c\194\155d', 'abcd' },
      { 'a tab', 'a\tb', 'a b' },
      { 'the newest part of several', 'one\rtwo\n\n', 'two' },
      { 'invalid UTF-8', 'a\255b\192\128c\237\160\128', 'a?b??c???' },
      { 'a wide character', '中文', '中文' },
      { 'not a string', nil, '' },
    }
    for _, c in ipairs(cases) do
      t.eq(c[3], plain.clean(c[2]), c[1])
    end
    local long = plain.clean(string.rep('x', 5000))
    t.eq(string.rep('x', plain.max_bytes) .. '…', long, 'a 5 KB line')
  end)

  t.it('cut: at most the width, a character never split, a wide one at the edge left out', function()
    local cases = {
      { 'fits', 'abc', 3, 'abc' },
      { 'cut', 'abcdef', 4, 'abc…' },
      { 'a wide char across the edge', 'aa中文', 4, 'aa…' },
      { 'a wide char at the edge', 'a中文', 4, 'a中…' },
      { 'no room', 'abc', 0, '' },
      { 'room for the ellipsis only', 'abc', 1, '…' },
    }
    for _, c in ipairs(cases) do
      t.eq(c[4], plain.cut(c[2], c[3]), c[1])
    end
  end)

  t.it('any bytes: clean gives valid text without controls, cut stays within the width', function()
    math.randomseed(20261127)
    local pieces = { 'a', ' ', '中', 'é', '\27[31m', '\27', '\r', '\n', '\t', '\0', '\127', '\194\133', '\255', '\226\128', '😀', '\204\129', '**', '<' }
    for i = 1, 1500 do
      local parts = {}
      for _ = 1, math.random(0, 40) do
        if math.random() < 0.3 then
          table.insert(parts, string.char(math.random(0, 255)))
        else
          table.insert(parts, pieces[math.random(#pieces)])
        end
      end
      local raw = table.concat(parts)
      local s = plain.clean(raw)
      t.ok(clean_utf8(s), string.format('case %d: clean(%q) = %q', i, raw, s))
      local width = math.random(0, 30)
      local c = plain.cut(s, width)
      t.ok(clean_utf8(c), string.format('case %d: cut(%q, %d) = %q', i, s, width, c))
      t.ok(vim.api.nvim_strwidth(c) <= width, string.format('case %d: cut(%q, %d) = %q is wider', i, s, width, c))
      local kept = c:gsub('…$', '')
      t.eq(kept, s:sub(1, #kept), string.format('case %d: cut(%q, %d) is not a start of it', i, s, width))
    end
  end)
end)

t.describe('the chat: a running call shows its newest line', function()
  local function chat_in_window(width)
    local c = chatmod.new(function() end)
    local w = c:open('right', width, true)
    t.cleanup(function()
      vim.cmd('silent! only')
      vim.cmd('silent! %bwipeout!')
    end)
    return c, w
  end
  local function progress(c, id, text)
    c:update({
      sessionUpdate = 'tool_call_update',
      toolCallId = id,
      status = 'in_progress',
      content = { { type = 'content', content = { type = 'text', text = text } } },
    })
    c:flush()
  end

  t.it('under its row, replaced, gone at its end; never in the markdown', function()
    local c = chat_in_window(60)
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'r1', title = 'run', status = 'in_progress', rawInput = { command = 'make' } })
    progress(c, 'r1', '**bold** <img src=x>')
    local text, l = only_live(c)
    t.eq('**bold** <img src=x>', text)
    local ls = vim.api.nvim_buf_get_lines(c.bufnr, 0, -1, false)
    t.eq('    ⋯', ls[l], 'the line under the row holds only the mark')
    t.ok(c.rows[l - 1] ~= nil, "the line is under the call's row: " .. ls[l - 1])
    t.ok(not h.text(c.bufnr):find('bold', 1, true), 'the text is not in the markdown')
    t.eq(c.rows[l - 1], c:call_at(l), 'K on the line is the call')
    progress(c, 'r1', 'second')
    t.eq({ [l] = 'second' }, live(c), 'replaced')
    c:update({ sessionUpdate = 'tool_call_update', toolCallId = 'r1', status = 'completed', rawOutput = { success = true, result = { exit_code = 0 } } })
    c:flush()
    t.eq({}, live(c), 'gone at the end')
    t.ok(not h.text(c.bufnr):find('⋯', 1, true), 'no mark left: ' .. h.text(c.bufnr))
  end)

  t.it("with 'ambiwidth' double the text starts after the mark and stays within the window", function()
    local old = vim.o.ambiwidth
    vim.o.ambiwidth = 'double'
    t.cleanup(function()
      vim.o.ambiwidth = old
    end)
    local c = chat_in_window(40)
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'r1', title = 'run', status = 'in_progress', rawInput = { command = 'make' } })
    progress(c, 'r1', string.rep('y', 100))
    local m = vim.api.nvim_buf_get_extmarks(c.bufnr, chatmod.live_ns, 0, -1, { details = true })[1]
    local col = vim.api.nvim_strwidth('    ⋯') + 1
    t.eq(col, m[4].virt_text_win_col, 'after `    ⋯` and a space')
    t.eq(2, vim.api.nvim_strwidth('…'), 'a double-width ellipsis')
    t.eq(string.rep('y', 40 - col - 2) .. '…', m[4].virt_text[1][1], 'the rest of the 40 cells')
  end)

  t.it('the activity line does not repeat it, and is plain text too', function()
    local c = chat_in_window(60)
    c:set_working(true)
    c:set_activity('run: **x**')
    c:flush()
    local text, l = only_live(c)
    t.eq('run: **x**', text, 'the activity as plain text')
    t.eq('  ⋯', vim.api.nvim_buf_get_lines(c.bufnr, l - 1, l, false)[1])
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'r1', title = 'run', status = 'in_progress', rawInput = { command = 'make' } })
    progress(c, 'r1', 'x')
    text, l = only_live(c)
    t.eq('x', text, "only the call's line")
    t.ok(c.rows[l - 1] ~= nil, "under the call's row")
  end)

  t.it('a window at the end follows it and keeps the newest line in view; one scrolled up stays', function()
    local c, w = chat_in_window(60)
    vim.cmd('wincmd p')
    c:update({ sessionUpdate = 'agent_message_chunk', content = { text = string.rep('words\n', 30) } })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'r1', title = 'run', status = 'in_progress', rawInput = { command = 'make' } })
    c:set_working(true)
    c:update({ sessionUpdate = 'usage_update', inputTokens = 1, outputTokens = 2 })
    progress(c, 'r1', 'one')
    t.eq(marker_line(c), vim.api.nvim_win_get_cursor(w)[1], 'the cursor on the marker')
    vim.api.nvim_win_set_height(w, 3)
    progress(c, 'r1', 'two')
    local _, l = only_live(c)
    local top, bot = unpack(vim.api.nvim_win_call(w, function()
      return { vim.fn.line('w0'), vim.fn.line('w$') }
    end))
    t.ok(top <= l and l <= bot, string.format('the newest line %d in view (%d-%d)', l, top, bot))
    progress(c, 'r1', 'three')
    t.eq(l, vim.api.nvim_win_get_cursor(w)[1], 'still following')
    vim.api.nvim_win_set_height(w, 20)
    vim.api.nvim_win_set_cursor(w, { 3, 0 })
    progress(c, 'r1', 'four')
    t.eq(3, vim.api.nvim_win_get_cursor(w)[1], 'a window scrolled up stays')
  end)
end)

-- The command's lines, each let out once the test saw the one before (flag files go0…).
local live_sh = [[
wait_for() { i=0; while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; }
wait_for go0; printf 'step one\n'; wait_for go1
printf 'step two\n'; wait_for go2
printf '%s\n' '**bold** <img src=x onerror=alert(1)>'; wait_for go3
printf '\033[31mred alert\033[0m\n'; wait_for go4
printf '%5000s\n' '' | tr ' ' x; wait_for go5
printf '%52s' '' | tr ' ' a; printf '中文 tail\n'; wait_for go6
printf 'all done\n'
]]

t.describe('a running command in the chat (end to end)', function()
  t.it('each newest line under the row, hostile ones plain and cut, the view at the end, gone after', function()
    local st, root = h.start(
      { ['live.sh'] = live_sh },
      [[
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "sh live.sh"}}
  - text: "Ran it."
    expect:
      tool_result_contains: {r1: ["all done"]}
]],
      { chat = { position = 'right', width = 60 } }
    )
    h.build_session()
    h.choose('Run')
    vim.cmd('Agentls chat')
    local w = vim.api.nvim_get_current_win()
    vim.wo[w].winfixwidth = true -- the cut below is for 60 cells
    t.eq(60, vim.api.nvim_win_get_width(w) - vim.fn.getwininfo(w)[1].textoff, "the chat's text width")
    vim.cmd('wincmd p') -- the chat is not the current window: it follows the end by itself
    agentls.prompt('run it')
    -- the room after `    ⋯ ` in the chat window as it is now (the test keeps it 60 wide, but a
    -- layout change may move the separator by a cell)
    local function room()
      return vim.api.nvim_win_get_width(w) - vim.fn.getwininfo(w)[1].textoff - 6
    end
    local steps = {
      { 'step one', 'step one' },
      { 'step two', 'step two' },
      { 'markdown and HTML', '**bold** <img src=x onerror=alert(1)>' },
      { 'a colour code', 'red alert' },
      {
        'a 5 KB line',
        function()
          return string.rep('x', room() - 1) .. '…'
        end,
      },
      {
        'a wide character at the cut',
        function() -- 52 a's, then 中 across the edge of 53 cells
          return string.rep('a', math.min(52, room() - 1)) .. '…'
        end,
      },
    }
    for i, s in ipairs(steps) do
      local want = s[2]
      vim.api.nvim_win_set_width(w, 60)
      h.write(root .. '/go' .. (i - 1), '')
      if not vim.wait(20000, function()
        want = type(s[2]) == 'function' and s[2]() or s[2]
        return only_live(st.chat) == want
      end, 10) then
        error(
          string.format(
            'timed out waiting for %s under the row (%q); shown: %s; windows %s',
            s[1],
            want,
            vim.inspect(live(st.chat)),
            vim.inspect(vim.tbl_map(function(x)
              return { x, vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(x)), vim.api.nvim_win_get_width(x), vim.api.nvim_win_get_config(x).relative }
            end, vim.api.nvim_list_wins()))
          )
        )
      end
      local _, l = only_live(st.chat)
      local ls = vim.api.nvim_buf_get_lines(st.chat.bufnr, 0, -1, false)
      t.eq('    ⋯', ls[l], s[1] .. ': the line in the buffer')
      local row = l - 1
      while row > 0 and not st.chat.rows[row] do
        row = row - 1
      end
      t.match('^  • Running `sh live.sh` …', ls[row], s[1] .. ": the call's row above it")
      t.eq(st.chat.rows[row], st.chat:call_at(l), s[1] .. ': the line belongs to the call')
      t.ok(not h.text(st.chat.bufnr):find(want:sub(1, 8), 1, true), s[1] .. ': the text is not in the markdown')
      t.eq(marker_line(st.chat), vim.api.nvim_win_get_cursor(w)[1], s[1] .. ': the chat follows the end')
      local top, bot = unpack(vim.api.nvim_win_call(w, function()
        return { vim.fn.line('w0'), vim.fn.line('w$') }
      end))
      t.ok(top <= l and l <= bot, string.format('%s: the line %d in view (%d-%d)', s[1], l, top, bot))
      vim.cmd('redraw')
      local screen = h.screen()
      h.keep(string.format('live-%s-%d-%s.txt', vim.version().minor, i, s[1]:gsub('%W+', '-')), screen)
      t.contains(screen, '    ⋯ ' .. want, s[1] .. ': on the screen as text')
      t.ok(not screen:find('\27', 1, true), s[1] .. ': an escape on the screen')
    end
    h.write(root .. '/go' .. #steps, '')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    st.chat:flush()
    t.eq({}, live(st.chat), 'no live line after the call')
    local text = h.text(st.chat.bufnr)
    t.contains(text, '  • Ran `sh live.sh` ✓ (exit 0)', 'the final row')
    t.ok(not text:find('⋯', 1, true), 'no live mark after the turn')
    t.eq(marker_line(st.chat), vim.api.nvim_win_get_cursor(w)[1], 'the chat at the end after the turn')
    vim.cmd('redraw')
    h.keep(string.format('live-%s-after.txt', vim.version().minor), h.screen())
  end)
end)
