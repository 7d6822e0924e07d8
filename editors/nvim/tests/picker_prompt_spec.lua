-- What a person sees of a permission question in a floating picker.
--
-- The plugin puts the whole question — what a permission grants included — in the `prompt` of
-- vim.ui.select, on lines under the question (ask.lua: permission_lines, "with everything a
-- permission grants under it … in full", |agentls-questions|), and its help recommends a
-- vim.ui.select replacement "that is not modal, such as a floating picker". Those pickers
-- (dressing.nvim, telescope, fzf-lua, snacks, mini.pick) show the prompt as the picker's title or
-- prompt line: one line (dressing.nvim turns its newlines into spaces), no wider than the screen.
-- What comes after the question's first sentence is never on screen: the values a trusted
-- `.agentls.yaml` applies, the commands a plan approval allows. The person picks "Trust" /
-- "Accept & Build" having seen none of what it grants. Whatever the picker, everything the
-- question grants must be on screen while it is open: in the one line it shows, in its items, or
-- in a window the plugin opened beside it (agentls.question_window: a float across the top of
-- the screen, closed with the answer or the request's withdrawal; Neovim's own vim.ui.select
-- prints every line of the prompt and gets no window).
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local question_window = require('agentls.question_window')
local builtin_select, builtin_input = vim.ui.select, vim.ui.input

-- The text of the floats above a picker's (zindex over 50, the pickers' default) that show all
-- of their text (as high as its wrapped rows): what the plugin puts on screen beside a picker.
-- Headless Neovim draws no float into its screen grid: screen_spec.lua checks the real screen.
local function floats_shown()
  local shown = {}
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local cfg = vim.api.nvim_win_get_config(w)
    if cfg.relative ~= '' and (cfg.zindex or 50) > 50 then
      local b = vim.api.nvim_win_get_buf(w)
      local width, rows = vim.api.nvim_win_get_width(w), 0
      for _, l in ipairs(vim.api.nvim_buf_get_lines(b, 0, -1, false)) do
        rows = rows + math.max(1, math.ceil(vim.fn.strdisplaywidth(l) / width))
      end
      if rows <= vim.api.nvim_win_get_height(w) then
        table.insert(shown, h.text(b))
      end
    end
  end
  return table.concat(shown, '\n')
end

-- A floating picker: it shows the prompt on one line (newlines as spaces) cut to the screen's
-- width, and the items. Records what it showed and what the plugin's floats showed then;
-- picks the item labelled `pick` (on the next tick).
local function floating_picker(pick)
  local asked = {}
  h.stub(vim.ui, 'select', function(items, opts, cb)
    local labels = vim.tbl_map(opts.format_item or tostring, items)
    local line = vim.fn.strcharpart((opts.prompt or ''):gsub('\n', ' '), 0, vim.o.columns)
    local floats = floats_shown()
    h.keep(string.format('picker-prompt-%d-%d.txt', vim.version().minor, #asked + 1), line .. '\n\n' .. floats)
    table.insert(asked, { prompt = opts.prompt, line = line, labels = labels, floats = floats })
    for i, l in ipairs(labels) do
      if l == pick then
        return vim.schedule(function()
          cb(items[i], i)
        end)
      end
    end
    vim.schedule(function()
      cb(nil, nil)
    end)
  end)
  return asked
end

-- Whether `text` is on screen while the picker is open: in its line, its items, or a float of
-- the plugin's.
local function seen(a, text)
  return a.line:find(text, 1, true) ~= nil or a.floats:find(text, 1, true) ~= nil
    or vim.tbl_contains(a.labels, text)
end

-- A plan written, then offered for approval allowing two commands; the turn ends after a rejection.
local grants_script = [[
steps:
  - tool_calls:
      - id: w
        name: plan_write
        args: {title: Grants, path: plans/grants.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] One\n"}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/grants.plan, allowed_commands: ["go test ./...", "go vet ./..."]}}
  - text: "Kept planning."
]]

t.describe('a floating picker shows what a question grants', function()
  t.it('the trust question: the values trusting applies are on screen', function()
    local asked = floating_picker("Don't trust")
    h.setup({ ['.agentls.yaml'] = 'run:\n  allow: ["echo trusted", "npm publish *"]\n' }, 'steps: []\n')
    t.wait(10000, function()
      return #asked > 0
    end, 'the trust question')
    local a = asked[1]
    t.contains(a.prompt, 'npm publish *', 'the prompt holds the grant')
    t.ok(seen(a, 'npm publish *'),
      'trusting allows "npm publish *", but a floating picker shows only ' .. vim.inspect(a.line)
        .. ' and the floats ' .. vim.inspect(a.floats))
  end)

  t.it('the plan approval: the commands approving allows are on screen', function()
    local st = h.start({}, grants_script)
    local asked = floating_picker('Keep Planning')
    h.stub(vim.ui, 'input', function(_, cb)
      vim.schedule(function()
        cb('no')
      end)
    end)
    agentls.prompt('plan it')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.ok(#asked >= 1, 'the approval question')
    local a = asked[1]
    t.contains(a.prompt, 'go vet ./...', 'the prompt holds the grant')
    t.ok(seen(a, 'go vet ./...'),
      'approving allows "go vet ./...", but a floating picker shows only ' .. vim.inspect(a.line)
        .. ' and the floats ' .. vim.inspect(a.floats))
  end)

  t.it('the window closes with the answer', function()
    local asked = floating_picker("Don't trust")
    h.setup({ ['.agentls.yaml'] = 'run:\n  allow: ["npm publish *"]\n' }, 'steps: []\n')
    t.wait(10000, function()
      return #asked > 0
    end, 'the trust question')
    t.contains(asked[1].floats, 'npm publish *', 'the window while the picker was open')
    t.wait(5000, function()
      return floats_shown() == ''
    end, 'the question window closed after the answer')
  end)

  t.it('a withdrawn question takes its window along', function()
    local st = h.start({}, grants_script)
    local asked = false
    h.stub(vim.ui, 'select', function()
      asked = true -- the person is still deciding: never answers
    end)
    agentls.prompt('plan it')
    t.wait(10000, function()
      return asked
    end, 'the approval question')
    local function question_shown()
      return floats_shown():find('go test ./...', 1, true) ~= nil
    end
    t.ok(question_shown(), 'the question window while the picker is open')
    vim.cmd('AgentReject too big')
    h.turn(st)
    t.wait(5000, function()
      return not question_shown()
    end, 'the window closed with the withdrawal')
  end)

  t.it("Neovim's own vim.ui.select and vim.ui.input get no window: they print every line", function()
    t.ok(question_window.builtin(builtin_select), 'vim.ui.select is the builtin at the start')
    t.ok(question_window.builtin(builtin_input), 'vim.ui.input is the builtin at the start')
    t.ok(not question_window.builtin(function() end), 'a replacement is not')
    t.ok(question_window.fits('Run `go test`?'), 'a short line fits')
    t.ok(not question_window.fits('Run?\nFolder: /x'), 'two lines do not')
    t.ok(not question_window.fits(string.rep('x', vim.o.columns)), 'a line as wide as the screen does not')
  end)

  t.it('a question taller than half the screen: its beginning on top, all of it in a split', function()
    local lines = { 'Approving also allows these commands for this session:' }
    for i = 1, vim.o.lines do
      table.insert(lines, string.format('  - cmd-%03d --flag', i))
    end
    local w = question_window.open(table.concat(lines, '\n'))
    local float, split
    for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      local text = h.text(vim.api.nvim_win_get_buf(win))
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        float = { win = win, text = text }
      elseif text:find('cmd-001', 1, true) then
        split = { win = win, text = text }
      end
    end
    t.ok(float, 'the float')
    t.ok(split, 'the split')
    t.contains(float.text, 'cmd-001', 'the float begins with the question')
    t.match('… %d+ more lines: the whole question is in the window below', float.text)
    t.ok(vim.api.nvim_win_get_height(float.win) <= vim.o.lines / 2, 'at most half the screen')
    t.contains(split.text, string.format('cmd-%03d', vim.o.lines), 'the split holds the last line')
    h.keep(string.format('picker-prompt-%d-long.txt', vim.version().minor), float.text .. '\n\n' .. split.text)
    w.close()
    t.ok(not vim.api.nvim_win_is_valid(float.win), 'the float closed')
    t.ok(not vim.api.nvim_win_is_valid(split.win), 'the split closed')
  end)
end)
