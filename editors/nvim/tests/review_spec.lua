-- Review in Neovim against the real agentls binary (docs/review.md): `:Agentls diff` opens each
-- file the last turn changed beside its checkpoint in a :diffsplit, `ku` undoes one file (a
-- code rewind of it: the other file keeps the turn's change), `kk` keeps one; `:Agentls review
-- on` switches the session's review of edits on the server.
local t = require('runner')
local h = require('helpers')

local script = [[
name: nvim_review
steps:
  - tool_calls:
      - {id: a, name: edit, args: {path: a.txt, old_string: "one", new_string: "ONE"}}
      - {id: b, name: edit, args: {path: b.txt, old_string: "two", new_string: "TWO"}}
  - text: "Edited both."
    expect:
      tool_result_contains: {a: ['"success":true'], b: ['"success":true']}
]]

-- The window showing the buffer named `name` (in any tab), or nil.
local function win_of(name)
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w)) == name then
      return w
    end
  end
  return nil
end

-- Starts a build session on st and waits for it.
local function build_session(st)
  local ready = false
  st:new_session('build', function()
    ready = true
  end)
  t.wait(5000, function()
    return ready
  end, 'a build session')
end

t.describe('review', function()
  t.it(':Agentls diff shows each changed file against its checkpoint; ku undoes one, kk keeps one', function()
    local st, root = h.start({ ['a.txt'] = 'one\n', ['b.txt'] = 'two\n' }, script)
    build_session(st)
    st:prompt('edit both')
    local r = h.turn(st)
    t.ok(not r.error, 'the turn ended well')
    t.eq('ONE\n', h.read(root .. '/a.txt'))
    t.eq('TWO\n', h.read(root .. '/b.txt'))

    vim.cmd('Agentls diff')
    t.wait(5000, function()
      return win_of('agentls-checkpoint://a.txt') ~= nil and win_of('agentls-checkpoint://b.txt') ~= nil
    end, 'a diff tab per changed file')
    t.eq(3, vim.fn.tabpagenr('$'), 'one tab each, beside the first')
    local wa = win_of('agentls-checkpoint://a.txt')
    t.eq({ 'one' }, vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(wa), 0, -1, false), 'the checkpoint holds a.txt before the turn')
    t.ok(vim.api.nvim_win_get_option(wa, 'diff'), 'the checkpoint is in diff mode')
    t.ok(vim.api.nvim_win_get_option(win_of(root .. '/a.txt'), 'diff'), 'so is the file')

    vim.api.nvim_set_current_win(wa)
    vim.api.nvim_feedkeys('ku', 'x', false)
    t.wait(5000, function()
      return h.read(root .. '/a.txt') == 'one\n'
    end, 'a.txt undone on disk')
    t.wait(5000, function()
      return win_of('agentls-checkpoint://a.txt') == nil
    end, "a.txt's diff tab closed")
    t.eq('TWO\n', h.read(root .. '/b.txt'), 'the undo of a.txt leaves b.txt')

    vim.api.nvim_set_current_win(win_of('agentls-checkpoint://b.txt'))
    vim.api.nvim_feedkeys('kk', 'x', false)
    t.wait(5000, function()
      return win_of('agentls-checkpoint://b.txt') == nil
    end, "b.txt's diff tab closed")
    t.eq('TWO\n', h.read(root .. '/b.txt'), 'kept')
    t.eq(1, vim.fn.tabpagenr('$'))
  end)

  t.it('review off, an edit of .vscode/tasks.json is asked, saying why; Reject writes nothing', function()
    local st, root = h.start({}, [[
name: nvim_autorun
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: .vscode/tasks.json, content: "{}"}}
  - text: "Declined."
    expect:
      tool_result_contains: {w: ['"success":false', 'rejected when asked', 'runs by itself']}
]])
    build_session(st)
    t.eq('off', st.session.review, 'review mode is off')
    local prompts = {}
    h.stub(vim.ui, 'select', function(items, opts, cb)
      table.insert(prompts, opts.prompt)
      for _, it in ipairs(items) do
        if (opts.format_item and opts.format_item(it) or it) == 'Reject' then
          return cb(it)
        end
      end
      cb(nil)
    end)
    st:prompt('set up the editor')
    local r = h.turn(st)
    t.ok(not r.error, 'the turn ended well: ' .. vim.inspect(r.error))
    t.eq(1, #prompts, 'asked once')
    t.ok(prompts[1]:find("`.vscode/tasks.json` — your editor or shell runs what it names by itself, outside agentls's sandbox", 1, true),
      'the question names the file and why: ' .. tostring(prompts[1]))
    t.eq(0, vim.fn.filereadable(root .. '/.vscode/tasks.json'), 'nothing written')
  end)

  t.it(':Agentls review on|off sets the session\'s review on the server', function()
    local st = h.start({}, 'name: idle\nsteps:\n  - text: "hi"\n')
    build_session(st)
    vim.cmd('Agentls review on')
    t.wait(5000, function()
      return st.session.review == 'edits'
    end, 'review on')
    local loaded
    st:request('agent/loadSession', { sessionId = st.session.sessionId }, function(_, s)
      loaded = s
    end)
    t.wait(5000, function()
      return loaded ~= nil
    end, 'the session reloaded')
    t.eq('edits', loaded.review, 'the server keeps it')
    vim.cmd('Agentls review off')
    t.wait(5000, function()
      return st.session.review == 'off'
    end, 'review off')
  end)
end)
