-- An agent edit of an open file the editor cannot hold as it is (here Latin-1 bytes) goes on
-- disk byte for byte (docs/editors.md, "Files an editor cannot hold as they are"). The plugin
-- then reloads the buffer from disk, without Neovim's "file changed" prompt, so the buffer shows
-- the edit and a later :write cannot put the old text back over it.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local script = [[
steps:
  - text: "Editing."
    tool_calls:
      - {id: c1, name: edit, args: {path: "latin.txt", old_string: "old", new_string: "new"}}
  - text: "Done."
    expect:
      tool_result_contains: {c1: ['"success":true']}
]]

t.describe('an agent edit written behind an open buffer', function()
  t.it('reloads the unmodified buffer from disk, no prompt, and :write keeps the bytes', function()
    local st, root = h.start({ ['latin.txt'] = 'old caf\233\n' }, script)
    local file = root .. '/latin.txt'
    vim.cmd('edit ' .. file)
    local b = vim.api.nvim_get_current_buf()
    t.eq('latin1', vim.bo[b].fileencoding, 'Neovim took the file for Latin-1')
    t.eq('old café', vim.api.nvim_buf_get_lines(b, 0, 1, false)[1])
    vim.o.autoread = false -- the user's setting: reloading is the plugin's doing
    h.build_session()
    agentls.prompt('edit it')
    t.eq('end_turn', h.turn(st).stopReason)
    t.eq('new caf\233\n', h.read(file), 'the bytes on disk, Latin-1 kept')
    t.wait(5000, function()
      return vim.api.nvim_buf_get_lines(b, 0, 1, false)[1] == 'new café'
    end, 'the buffer shows the edit: ' .. vim.inspect(vim.api.nvim_buf_get_lines(b, 0, -1, false)))
    t.eq(false, vim.bo[b].modified, 'reloaded, not edited')
    vim.api.nvim_buf_call(b, function()
      vim.cmd('silent write')
    end)
    t.eq('new caf\233\n', h.read(file), 'a :write keeps the edit and the encoding')
  end)
end)
