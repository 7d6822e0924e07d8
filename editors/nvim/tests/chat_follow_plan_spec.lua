-- The chat's newest line on a small screen while a BUILD turn streams (doc/agentls.txt: "the
-- newest line stays in view"). The chat follows the end by putting its cursor on the prompt marker;
-- the plan checklist and the token usage stand between the transcript and the marker, so on a
-- short window the checklist shrinks to one line and the step in progress, and the agent's newest
-- words stay on the screen with the usage. A real terminal UI (screen.lua) shows what a person sees.
local t = require('runner')
local h = require('helpers')
local child = require('screen').child

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
    h.keep(string.format('screen-chat-follow-plan-%dx%d-0.%d.txt', cols, rows, vim.version().minor), screen)
    t.ok(screen:find('NEWEST-MARK', 1, true), "the agent's newest line on the screen; the screen:\n" .. screen)
  end)
end
