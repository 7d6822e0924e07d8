-- Sub-agents in the Neovim chat (issue 23, docs/subagents.md): a sub-agent's tool calls come in
-- the parent's agent/update stream with parentToolCallId; the chat indents them under their
-- task line, prefixed with the sub-agent's short id, never as lines of their own, and shows each
-- sub-agent's tokens and the total at the end of the turn. Against the real agentls binary and
-- the scripted model's children: section.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local chat = require('agentls.chat')

local explore = [[
name: nvim_subagent
steps:
  - text: "Asking an explorer."
    tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: "where is alpha?"}}
  - text: "The explorer found it."
    expect:
      tool_result_contains: {t1: ["completed", "line 1 of app.txt"]}
children:
  explore-1:
    - tool_calls:
        - {id: r1, name: read, args: {path: "app.txt"}}
        - {id: g1, name: grep, args: {pattern: "alpha"}}
    - text: "alpha is on line 1 of app.txt."
]]

-- The lines of the chat between `from` (a Lua pattern) and the marker.
local function chat_lines(st)
  st.chat:flush()
  return vim.api.nvim_buf_get_lines(st.chat.bufnr, 0, -1, false)
end

local function find(lines, pat)
  for i, l in ipairs(lines) do
    if l:find(pat) then
      return i, l
    end
  end
  return nil
end

t.describe('sub-agents in the chat', function()
  t.it("a sub-agent's calls are indented under its task line with its short id; its tokens and the total end the turn", function()
    local st = h.start({ ['app.txt'] = 'alpha\n' }, explore)
    vim.cmd('AgentChat')
    t.wait(5000, function()
      return agentls.mode() == 'PLAN'
    end, 'the new session')
    agentls.prompt('where is alpha?')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    local lines = chat_lines(st)
    local text = table.concat(lines, '\n')
    local ti, task = find(lines, '^  • Task explore')
    t.ok(ti, 'the task line:\n' .. text)
    t.match('^  • Task explore · %d+ tokens$', task)
    local short
    t.match('^      ↳ %[(%x+)%] Read app%.txt$', lines[ti + 1], 'the read, indented under the task')
    short = lines[ti + 1]:match('%[(%x+)%]')
    t.eq(8, #short, 'the short id')
    t.match('^      ↳ %[' .. short .. '%] Searched for `alpha`$', lines[ti + 2], 'the grep, indented under the task')
    t.eq(nil, find(lines, '^  • Read app%.txt'), 'no top-level line for the child call:\n' .. text)
    t.eq(nil, find(lines, '^  • Searched'), 'no top-level line for the child call')
    t.match('^  ↳ explore %[' .. short .. '%] %(t1%): %d+ in · %d+ out$', lines[find(lines, '^  ↳ explore %[')], 'the sub-agent tokens')
    local tl = lines[find(lines, '^Total with sub%-agents: ')]
    t.match('^Total with sub%-agents: %d+ in · %d+ out$', tl)
    -- the task line's tokens are the sub-agent's in + out
    local cin, cout = lines[find(lines, '^  ↳ explore %[')]:match(': (%d+) in · (%d+) out')
    t.eq(tonumber(cin) + tonumber(cout), tonumber(task:match('(%d+) tokens')))
    t.ok(tonumber(tl:match(': (%d+) in')) > tonumber(cin), 'the total holds the parent and the sub-agent')

    -- Loaded again (agent/loadSession): the task line keeps its result; the child's calls are in its own session.
    local loaded = false
    st:load_session(st.session.sessionId, function()
      loaded = true
    end)
    t.wait(5000, function()
      return loaded
    end, 'the session loaded')
    lines = chat_lines(st)
    text = table.concat(lines, '\n')
    t.eq(task, lines[find(lines, '^  • Task')], 'the reloaded task line keeps its title and tokens:\n' .. text)
    t.eq(nil, find(lines, '^  • Read app%.txt'), 'the child call is still no top-level line')
  end)

  t.it('a grandchild nests one level deeper; a child call before its task line makes the task line', function()
    local c = chat.new(function() end)
    local b = c:buffer()
    t.cleanup(function()
      vim.api.nvim_buf_delete(b, { force = true })
    end)
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'aaaa1111/r', title = 'ls', status = 'in_progress', parentToolCallId = 't0', childSessionId = 'x-aaaa1111' })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 't1', title = 'task build', status = 'in_progress' })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'bbbb2222/t9', title = 'task explore', status = 'in_progress', parentToolCallId = 't1', childSessionId = 'x-bbbb2222' })
    c:update({ sessionUpdate = 'tool_call', toolCallId = 'cccc3333/g', title = 'grep x', status = 'in_progress', parentToolCallId = 'bbbb2222/t9', childSessionId = 'x-cccc3333' })
    c:update({ sessionUpdate = 'tool_call_update', toolCallId = 'cccc3333/g', status = 'completed', parentToolCallId = 'bbbb2222/t9', childSessionId = 'x-cccc3333' })
    c:update({
      sessionUpdate = 'tool_call_update',
      toolCallId = 't1',
      status = 'completed',
      rawOutput = { success = true, result = { status = 'budget_exhausted', tokens = 5120, turns = 20 } },
    })
    c:flush()
    local text = h.text(b)
    t.contains(text, '  • Task …\n      ↳ [aaaa1111] Listing . …\n')
    t.contains(text, '  • Task build (budget_exhausted) · 5120 tokens\n      ↳ [bbbb2222] Task explore …\n          ↳ [cccc3333] Searched for `x`\n')
  end)
end)
