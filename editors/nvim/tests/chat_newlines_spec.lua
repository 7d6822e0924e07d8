-- Untrusted text with line breaks reaching the chat buffer's own lines. A buffer line cannot hold a
-- newline: nvim_buf_set_lines refuses it, the scheduled render raises, and since the offending
-- entry stays in the transcript every later render raises too: the chat stops updating for the
-- rest of the session. problems.lua makes a language server's text one line (problems_text_spec);
-- the model's own text put on a one-line row (a multi-line `run` command, an edited path, a plan
-- step, the session's title) and an endpoint's multi-line error must be too.
local t = require('runner')
require('helpers') -- the plugin on 'runtimepath'

t.describe('untrusted newlines in the chat lines', function()
  local cases = {
    {
      name = 'a run whose command spans lines (the model wrote a script)',
      updates = {
        { sessionUpdate = 'tool_call', toolCallId = 'r1', title = 'run', status = 'pending', rawInput = { command = 'set -e\ngo test ./...' } },
      },
    },
    {
      name = 'a grep whose pattern holds a newline',
      updates = {
        { sessionUpdate = 'tool_call', toolCallId = 'g1', title = 'grep', status = 'pending', rawInput = { pattern = 'foo\nbar' } },
      },
    },
    {
      name = 'an edit of a path the model wrote with a newline',
      updates = {
        {
          sessionUpdate = 'tool_call',
          toolCallId = 'e1',
          title = 'edit',
          status = 'pending',
          rawInput = { path = 'a\nb.go', old_string = 'x', new_string = 'y' },
        },
      },
    },
    {
      name = 'a plan step holding a newline',
      updates = {
        { sessionUpdate = 'plan', planFile = 'plans/x.plan', entries = { { content = 'step one\nstep two', status = 'pending' } } },
      },
    },
    {
      name = 'a session title holding a newline (the model titled it)',
      updates = { { sessionUpdate = 'session_info_update', title = 'Fix\nthe build' } },
    },
    {
      name = 'project instructions under a folder whose name holds a newline (the repository chose it)',
      updates = { { sessionUpdate = 'instructions_loaded', files = { { path = 'x\ny/AGENTS.md', bytes = 10 } } } },
    },
  }
  for _, tc in ipairs(cases) do
    t.it(tc.name .. ': the chat still renders what follows', function()
      local c = require('agentls.chat').new(function() end)
      local b = c:buffer()
      t.cleanup(function()
        pcall(vim.api.nvim_buf_delete, b, { force = true })
      end)
      for _, u in ipairs(tc.updates) do
        c:update(u)
      end
      c:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'AFTER' } })
      local ok, err = pcall(c.flush, c)
      t.ok(ok, 'the chat render raised: ' .. tostring(err))
      t.contains(table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n'), 'AFTER', 'the reply after it')
    end)
  end

  t.it("an endpoint's multi-line error ending the turn: the chat still renders", function()
    local c = require('agentls.chat').new(function() end)
    local b = c:buffer()
    t.cleanup(function()
      pcall(vim.api.nvim_buf_delete, b, { force = true })
    end)
    -- init.lua State:send_prompt: 'error: ' .. res.error.message
    c:note('error: HTTP 502: <html>\n<body>Bad gateway</body>\n</html> (:Agentls retry sends it again)')
    c:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'AFTER' } })
    local ok, err = pcall(c.flush, c)
    t.ok(ok, 'the chat render raised: ' .. tostring(err))
    t.contains(table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n'), 'AFTER', 'the reply after it')
  end)
end)
