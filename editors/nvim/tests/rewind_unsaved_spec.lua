-- A code rewind over a buffer with unsaved changes, in a real Neovim (docs/rewind.md "Code"):
-- the agent edits a file open in a buffer (BUILD mode, written by save_edits), the person types
-- into the buffer without :write (the server learns it through didChange), then rewinds to
-- before the turn. The file is a conflict, left alone, and the person's unsaved text stays in
-- the buffer.
local t = require('runner')
local h = require('helpers')

t.describe('a rewind over an unsaved buffer', function()
  t.it('reports the file as a conflict and leaves the buffer and the file as they are', function()
    local st, root = h.start({ ['app.txt'] = 'alpha\n' }, [[
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: app.txt, old_string: "alpha", new_string: "ALPHA"}}
  - text: "Edited."
    expect:
      tool_result_contains: {e1: ['"success":true']}
]])
    vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/app.txt'))
    local b = vim.api.nvim_get_current_buf()
    t.wait(5000, function()
      if vim.lsp.get_clients then
        return #vim.lsp.get_clients({ bufnr = b }) > 0
      end
      return next(vim.lsp.buf_get_clients(b)) ~= nil
    end, 'the buffer attached to agentls')
    h.build_session()
    st:prompt('shout')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq('ALPHA\n', h.read(root .. '/app.txt'), 'the agent edit on disk')
    t.eq({ 'ALPHA' }, vim.api.nvim_buf_get_lines(b, 0, -1, false), 'and in the buffer')
    t.eq(false, vim.bo[b].modified, 'saved by save_edits')

    local sent = h.record_notifications(st:client())
    vim.api.nvim_buf_set_lines(b, 1, 1, false, { 'typed, not saved' })
    t.eq(true, vim.bo[b].modified)
    t.wait(5000, function()
      for _, n in ipairs(sent) do
        if n.method == 'textDocument/didChange' and vim.inspect(n.params):find('typed, not saved', 1, true) then
          return true
        end
      end
    end, 'the unsaved text sent to the server (didChange)')

    local answer
    st:prompt('/rewind', nil, function(res)
      answer = res
    end)
    t.wait(10000, function()
      return answer ~= nil
    end, "the rewind's answer")
    t.contains(tostring(answer.text), 'app.txt', 'the answer names the file: ' .. tostring(answer.text))
    t.contains(tostring(answer.text), 'app.txt — has unsaved changes in the editor; left as it is', 'as a conflict')
    -- what the plugin does when a command ends ($/progress end): reload the buffers that
    -- changed on disk, unless they have unsaved changes
    require('agentls.reload').unmodified()
    t.eq({ 'ALPHA', 'typed, not saved' }, vim.api.nvim_buf_get_lines(b, 0, -1, false), 'the unsaved text is still in the buffer')
    t.eq(true, vim.bo[b].modified, 'still unsaved')
    t.eq('ALPHA\n', h.read(root .. '/app.txt'), 'the file left as it was')
  end)
end)
