-- The run sentinel's long question end to end in the plugin (docs/guard.md "After the command"):
-- a BUILD command makes a new repository with 30 hooks, too many for the question to list itself
-- (permission.DocLines). The server writes the whole list into questions/autorun-<hash>.md in the
-- state folder and opens it beside the question (window/showDocument, which the plugin declares
-- on every Neovim; the plugin also opens the document the question names, whichever comes
-- first): while the question is pending the document is in a split, its buffer holding
-- every change, the chat's window still there, and the question's prompt names the command and
-- where the list is. Remove (restore) takes the hooks away; Keep, in a second repository, keeps
-- them. What the windows and the screen showed is kept as an artifact (h.keep).
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local hooks = 30

local function command(repo)
  return string.format('git init -q %s && for i in $(seq %d); do echo x > %s/.git/hooks/h$i; done', repo, hooks, repo)
end

local script = string.format(
  [[
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: %q}}
  - text: "Turn one."
    expect:
      tool_result_contains: {r1: ["created sub/.git/hooks/h1", "so agentls undid it"]}
  - tool_calls:
      - {id: r2, name: run, args: {command: %q}}
  - text: "Turn two."
    expect:
      tool_result_contains: {r2: ["created sub2/.git/hooks/h1", "the user was asked and kept them"]}
]],
  command('sub'),
  command('sub2')
)

-- The window showing a question document (questions/autorun-*.md; `path` when given), or nil.
local function document_window(path)
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    local name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w))
    if name:match('/questions/autorun%-%x+%.md$') and (not path or name == path) then
      return w, name
    end
  end
end

-- The windows and their buffers' names, for a failure's message and the artifact.
local function windows()
  return vim.tbl_map(function(w)
    return vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w))
  end, vim.api.nvim_list_wins())
end

-- How many of the 30 hooks are on disk in repository `repo` of `root`.
local function on_disk(root, repo)
  local n = 0
  for i = 1, hooks do
    if vim.loop.fs_stat(string.format('%s/%s/.git/hooks/h%d', root, repo, i)) then
      n = n + 1
    end
  end
  return n
end

t.describe("the run sentinel's long question in the plugin", function()
  t.it('opens its document in a split while it is asked, every change in it; Remove undoes, Keep keeps', function()
    local state_home = h.tmpdir()
    h.stub(vim.env, 'XDG_STATE_HOME', state_home) -- the server's state folder: the test's own
    -- A screen the size of a person's terminal: the chat takes 60 columns on the right, the
    -- document gets the rest (in a headless 80×24 it would be 20 columns wide).
    h.stub(vim.o, 'columns', 160)
    h.stub(vim.o, 'lines', 50)
    local st, root = h.start({ ['hello.txt'] = 'hello\n' }, script)
    h.build_session()
    local answer, asked = 'Remove (restore)', {}
    -- vim.ui.select as a person answering once they have read the document: the answer comes when
    -- a window shows it (at most 10 s later; without one it is recorded as missing, and the
    -- question answered so the turn ends).
    h.stub(vim.ui, 'select', h.as_a_person(function(items, opts, cb)
      local labels = vim.tbl_map(opts.format_item, items)
      local function pick(label)
        for _, it in ipairs(items) do
          if opts.format_item(it) == label then
            return cb(it)
          end
        end
      end
      if vim.tbl_contains(labels, 'Run') then
        return vim.schedule(function()
          pick('Run')
        end)
      end
      local q = { prompt = opts.prompt, labels = labels }
      table.insert(asked, q)
      local deadline = vim.loop.now() + 10000
      local function look()
        local w, name = document_window(opts.prompt:match('in full in (%S+%.md)'))
        if not w and vim.loop.now() < deadline then
          return vim.defer_fn(look, 20)
        end
        q.windows = windows()
        if w then
          q.doc, q.lines = name, vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false)
          q.chat_shown = vim.fn.bufwinid(st.chat.bufnr) ~= -1
          vim.cmd('redraw')
          q.screen = h.screen()
          h.keep(string.format('autorun-document-%d-%d.txt', vim.version().minor, #asked), table.concat(q.windows, '\n') .. '\n\n' .. q.screen)
        end
        pick(answer)
      end
      vim.schedule(look)
    end))

    for turn, repo in ipairs({ 'sub', 'sub2' }) do
      if turn == 2 then
        answer = 'Keep'
        vim.api.nvim_win_close(document_window(), true) -- closed: the second question opens its own
      end
      agentls.prompt('add hooks')
      local r = h.turn(st, 'turn ' .. turn, 30000)
      t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
      t.eq(turn, #asked, 'one question after each command: ' .. vim.inspect(asked))
      local q = asked[turn]
      t.eq({ 'Remove (restore)', 'Keep' }, q.labels, 'the choices, Remove first')
      t.contains(q.prompt, 'Keep what the command `' .. command(repo) .. '` did', 'the prompt names the command')
      t.ok(q.doc, 'no window showed the document while the question was asked; windows: ' .. vim.inspect(q.windows))
      t.contains(q.prompt, 'What it did: 30 lines, in full in ' .. q.doc .. ' (opened beside this question)', 'the prompt says where the list is')
      local _, named = q.prompt:gsub(vim.pesc(q.doc), '')
      t.eq(1, named, 'the prompt names the document once: ' .. q.prompt)
      t.ok(not q.prompt:find(repo .. '/.git/hooks/h17', 1, true), 'the prompt lists the hooks itself: ' .. q.prompt)
      t.eq(state_home .. '/agentls/questions', vim.fn.fnamemodify(q.doc, ':h'), 'the document in the state folder')
      t.ok(q.chat_shown, 'the chat window stays beside the document: ' .. vim.inspect(q.windows))
      local listed = vim.tbl_filter(function(l)
        return vim.startswith(l, '- `' .. repo .. '/.git/hooks/h')
      end, q.lines)
      t.eq(hooks, #listed, 'the buffer lists every hook: ' .. table.concat(q.lines, '\n'))
      for i = 1, hooks do
        t.ok(vim.tbl_contains(q.lines, string.format('- `%s/.git/hooks/h%d`: created', repo, i)), 'the buffer lacks h' .. i)
      end
      t.contains(q.screen, '# Keep what `git init -q ' .. repo .. ' && ', 'the document on the screen')
      t.contains(q.screen, 'The command did this to files your editor or shell runs by itself (30 lines).', 'its text on the screen')
      t.contains(q.screen, listed[1], 'its first change on the screen')
    end
    t.eq(0, on_disk(root, 'sub'), 'hooks left after Remove')
    t.eq(hooks, on_disk(root, 'sub2'), 'hooks after Keep')
    st.chat:flush()
    t.contains(h.text(st.chat.bufnr), 'Turn two.', 'the model read the keep')
  end)
end)
