-- The plan on the screen when its approval is asked. Neovim's own vim.ui.select (an inputlist,
-- 0.7 and 0.11) prints the question over the bottom of the screen and blocks until the choice, so
-- the plan's split goes above the current window, as high as the plan and clear of the
-- question's rows: every step is on the screen with the question when both fit, and when the plan
-- is longer the question names the lines shown and how to read the rest before deciding. A real
-- terminal UI (screen.lua) shows what a person sees.
local t = require('runner')
local h = require('helpers')
local child = require('screen').child

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
    h.keep(string.format('screen-plan-approval-%dx%d-0.%d.txt', cols, rows, vim.version().minor), screen)
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

t.it('a 30-step plan on 80x20: the question says which lines of the plan are on the screen, and those are', function()
  local c = child(80, 20)
  local root = h.tmpdir()
  local plan = '# Goal\nShip it\n\n## Steps\n'
  for i = 1, 30 do
    plan = plan .. '- [ ] STEP-' .. i .. '-MARK\n'
  end
  h.write(root .. '/plans/p.plan', plan)
  c.notify_lua(ask, root, {})
  local screen = c.settle('Accept & Build', 'the approval question')
  h.keep(string.format('screen-plan-approval-long-0.%d.txt', vim.version().minor), screen)
  local n = tonumber(screen:match('The plan above shows lines 1–(%d+) of 34'))
  t.ok(n and n > 4 and n < 34, 'the question names the lines shown; the screen:\n' .. screen)
  for i = 1, n - 4 do
    t.ok(screen:find('STEP-' .. i .. '-MARK', 1, true), 'step ' .. i .. ' on the screen; the screen:\n' .. screen)
  end
  t.ok(not screen:find('STEP-' .. (n - 3) .. '-MARK', 1, true), 'the first line not named is not on the screen either')
  t.ok(screen:find(':AgentApprove', 1, true), 'how to read it all before deciding')
  c.input('1<CR>') -- Keep Planning
end)
