-- What a language server says reaches the chat buffer under an edit's line (problems.lua), and a
-- server is an untrusted, faulty peer. A server that cannot start fails every edit's diagnostics
-- with its stderr's tail in the error (a Node stack trace, a Go panic: agentls makes it one line,
-- an older agentls did not), and a diagnostic's `source` or `code` may hold newlines too. A buffer
-- line cannot hold a newline (nvim_buf_set_lines refuses it, and the chat's render would stop for
-- the rest of the session): each goes into its chat line with its newlines made spaces, and the
-- chat goes on rendering what follows.
local t = require('runner')
require('helpers') -- the plugin on 'runtimepath'

local function edit_with(diagnostics)
  return {
    {
      sessionUpdate = 'tool_call',
      toolCallId = 'e1',
      title = 'edit a.go',
      status = 'pending',
      rawInput = { path = 'a.go', old_string = 'x', new_string = 'y' },
    },
    {
      sessionUpdate = 'tool_call_update',
      toolCallId = 'e1',
      status = 'completed',
      rawOutput = { success = true, result = { path = 'a.go', diagnostics = diagnostics } },
    },
  }
end

t.describe('a language server’s text in the chat', function()
  local cases = {
    {
      name = 'the error of a server that could not start (its stderr, several lines)',
      diagnostics = {
        new = {},
        settled = false,
        error = 'the go language server could not start: /usr/bin/gopls: initialize: EOF (stderr: panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n)',
      },
      want = 'diagnostics unavailable',
    },
    {
      name = 'a problem whose source holds a newline',
      diagnostics = {
        new = { { path = 'a.go', line = 3, severity = 'error', message = 'bad line', source = 'fake\nsource', code = '7' } },
        settled = true,
      },
      want = 'a.go:3: error: bad line',
    },
  }
  for _, tc in ipairs(cases) do
    t.it(tc.name .. ': the chat still renders, the edit’s line and what follows', function()
      local c = require('agentls.chat').new(function() end)
      local b = c:buffer()
      t.cleanup(function()
        pcall(vim.api.nvim_buf_delete, b, { force = true })
      end)
      for _, u in ipairs(edit_with(tc.diagnostics)) do
        c:update(u)
      end
      c:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'AFTER THE EDIT' } })
      local ok, err = pcall(c.flush, c)
      t.ok(ok, 'the chat render raised: ' .. tostring(err))
      local text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
      t.contains(text, tc.want, 'the edit’s problems under its line')
      t.contains(text, 'AFTER THE EDIT', 'the agent’s reply after the edit')
    end)
  end
end)
