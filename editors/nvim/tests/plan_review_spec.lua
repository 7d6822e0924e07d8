-- Plans reviewed with comments in Neovim against the real agentls binary (docs/review.md): while
-- the plan awaits approval the user writes two `> review:` comments in the plan's buffer;
-- :AgentApprove is refused with the reason; :Agentls requestchanges sends both comments to the
-- planner as the rejection's reason (the scripted model checks it); the revision resolves both
-- and is approved.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local script = [[
name: nvim_plan_comments
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Write hello.txt\n- [ ] Test it\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x: ["Plan rejected by the user", "the user requests changes: 2 open review comment(s)", "name it greeting.txt", "test the accent"]
    tool_calls:
      - {id: w2, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Write greeting.txt\n> resolved: named greeting.txt\n- [ ] Test it with héllo\n> resolved: the test says héllo\n"}}
  - tool_calls:
      - {id: x2, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x2: ['"approved":true']
    text: "Building."
]]

-- The buffer of the plan file `path`, or nil.
local function buf_of(path)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == path then
      return b
    end
  end
  return nil
end

t.describe('plan comments', function()
  t.it('approval is refused while a comment is open; :Agentls requestchanges sends the comments as the reason', function()
    local st, root = h.start({}, script)
    local plan = root .. '/plans/greet.plan'
    local selects = {}
    h.stub(vim.ui, 'select', h.as_a_person(function(items, opts, cb)
      table.insert(selects, { items = items, opts = opts, cb = cb })
      if #selects == 1 then
        return -- the first approval: the user reads the plan and comments on it instead
      end
      for _, it in ipairs(items) do
        if opts.format_item(it) == 'Accept & Build' then
          vim.schedule(function()
            cb(it)
          end)
        end
      end
    end))
    local messages = {}
    h.stub(vim, 'notify', function(msg, level)
      table.insert(messages, { msg = msg, level = level })
    end)
    agentls.prompt('Plan a greeting')
    t.wait(10000, function()
      return #selects == 1 and buf_of(plan) ~= nil
    end, 'the approval question, with the plan shown')

    -- The user's two comments, in the plan's buffer (not saved: the server reads the buffer).
    local b = buf_of(plan)
    local lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)
    local out = {}
    for _, l in ipairs(lines) do
      table.insert(out, l)
      if l == '- [ ] Write hello.txt' then
        table.insert(out, '> review: name it greeting.txt')
      elseif l == '- [ ] Test it' then
        table.insert(out, '> review: test the accent')
      end
    end
    t.eq(#lines + 2, #out, 'both steps found in ' .. vim.inspect(lines))
    vim.api.nvim_buf_set_lines(b, 0, -1, false, out)

    vim.cmd('AgentApprove')
    t.wait(5000, function()
      for _, m in ipairs(messages) do
        if m.msg:find('cannot be approved while it has 2 open review comment', 1, true) and m.level == vim.log.levels.ERROR then
          return true
        end
      end
      return false
    end, 'the approval refused with the reason')
    t.eq('PLAN', agentls.mode(), 'still planning')
    t.eq(nil, st.last_result, 'the turn still waits for the decision')

    vim.cmd('Agentls requestchanges')
    local r = h.turn(st, 'the turn after the requested changes')
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(2, #selects, 'asked again for the revised plan')
    t.eq('BUILD', agentls.mode(), 'the revision that resolves both is approved')
  end)

  t.it(':Agentls requestchanges without an open comment is refused by the server', function()
    local st = h.start({}, [[
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Tiny, path: plans/tiny.plan, content: "# Goal\nTiny.\n\n## Steps\n- [ ] One step\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/tiny.plan}}
  - text: "Approved."
    expect:
      tool_result_contains: {x: ['"approved":true']}
]])
    local asked = false
    h.stub(vim.ui, 'select', function()
      asked = true
    end)
    local messages = {}
    h.stub(vim, 'notify', function(msg, level)
      table.insert(messages, { msg = msg, level = level })
    end)
    agentls.prompt('Plan something tiny')
    t.wait(10000, function()
      return asked
    end, 'the approval question')
    vim.cmd('Agentls requestchanges')
    t.wait(5000, function()
      for _, m in ipairs(messages) do
        if m.msg:find('has no open review comment', 1, true) then
          return true
        end
      end
      return false
    end, 'the refusal')
    h.read_as_a_person()
    vim.cmd('AgentApprove')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq('BUILD', agentls.mode())
  end)
end)
