-- The plan approval and a bare <CR> (from the plain-face and Neovim audit).
--
-- The plugin asks every question through vim.ui.select, and its help recommends a
-- replacement "that is not modal, such as a floating picker" (|agentls-versions|). Such pickers
-- (telescope, fzf-lua, snacks, dressing, mini.pick) open with the first item highlighted, and a
-- bare <CR> takes it. PROTOCOL.md §5 puts the safe choice first for exactly this reason ("some
-- clients pick the first action on a bare Enter"; "the same order holds for every yes/no the
-- server asks"): the run question lists Reject first, the trust question Don't trust, the
-- autorun question Remove. The plan approval alone reaches the plugin with "Accept & Build"
-- first, so an Enter pressed by reflex (or meant for the chat, as the picker pops up) approves
-- the plan: the session goes to BUILD and the agent edits and runs without another question.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

t.describe('plan approval and a bare <CR>', function()
  t.it('a picker\'s bare <CR> (its first item) does not approve the plan', function()
    local st = h.start({}, [[
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Enter, path: plans/enter.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] Delete the old tests\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/enter.plan}}
  - text: "Next."
]])
    local asked = {}
    -- A floating picker: a bare <CR> takes the highlighted (first) item.
    h.stub(vim.ui, 'select', function(items, opts, cb)
      local labels = vim.tbl_map(opts.format_item or tostring, items)
      table.insert(asked, { prompt = opts.prompt, labels = labels })
      vim.schedule(function()
        cb(items[1], 1)
      end)
    end)
    h.stub(vim.ui, 'input', function(_, cb) -- the optional feedback: <CR> on an empty line
      vim.schedule(function()
        cb('')
      end)
    end)
    agentls.prompt('plan it')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.ok(#asked >= 1, 'the approval question')
    t.eq(
      'PLAN',
      agentls.mode(),
      'a bare <CR> on the approval picker approved the plan (its first item: '
        .. tostring(asked[1] and asked[1].labels[1])
        .. '; items '
        .. vim.inspect(asked[1] and asked[1].labels)
        .. '); the safe choice, Keep Planning, must come first'
    )
  end)
end)
