-- helpers.lua: shared set-up for the plugin's specs. Puts the plugin on 'runtimepath', makes
-- throw-away workspaces, starts the plugin against the real agentls binary ($AGENTLS_BIN,
-- built by tests/run) with the scripted model, and stubs functions for one test.
local t = require('runner')
local person = require('person')
local h = {}

h.plugin = vim.fn.fnamemodify(vim.env.AGENTLS_NVIM_TESTS .. '/..', ':p'):gsub('/$', '')
vim.opt.runtimepath:prepend(h.plugin)
vim.cmd('runtime plugin/agentls.lua')

local files = require('testfiles')
h.tmpdir, h.write, h.read = files.tmpdir, files.write, files.read

--- fn, a vim.ui.select or vim.ui.input stand-in, answering agentls's questions as a person does:
--- no sooner than a person reads them (person.lua).
h.as_a_person = person.answering

--- Waits as long as a person reads a question or a plan before acting on it (:AgentApprove):
--- agentls refuses a plan approval that comes within 300 ms of the plan awaiting it.
function h.read_as_a_person()
  vim.wait(person.reads_ms)
end

--- Replaces tbl[key] with value for the current test.
function h.stub(tbl, key, value)
  local old = tbl[key]
  tbl[key] = value
  t.cleanup(function()
    tbl[key] = old
  end)
end

--- Stubs vim.ui.select for the current test to pick, in every list it is shown, the item
--- labelled `pick(labels, opts)` (as a person clicking it would: no sooner than a person reads
--- the question, person.lua).
function h.answer(pick)
  h.stub(vim.ui, 'select', person.answering(function(items, opts, cb)
    local want = pick(vim.tbl_map(opts.format_item, items), opts)
    for _, it in ipairs(items) do
      if opts.format_item(it) == want then
        vim.schedule(function()
          cb(it)
        end)
      end
    end
  end))
end

--- Stubs vim.ui.select for the current test to pick, in every list it is shown, the item
--- labelled `label`.
function h.choose(label)
  h.answer(function()
    return label
  end)
end

--- Starts a new BUILD session (:AgentNew build) and waits for it.
function h.build_session()
  vim.cmd('AgentNew build')
  t.wait(5000, function()
    return require('agentls').mode() == 'BUILD'
  end, 'a BUILD session')
end

--- The lines of buffer b as one string.
function h.text(b)
  return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
end

--- Starts the plugin on a new workspace holding `files` (name -> text) with the scripted model
--- playing `script` (YAML), without waiting for the server. Returns the State and the workspace
--- root. Stops everything when the test ends.
function h.setup(files, script, opts)
  local root = h.tmpdir()
  for name, text in pairs(files or {}) do
    h.write(root .. '/' .. name, text)
  end
  local script_path = h.tmpdir() .. '/script.yaml'
  h.write(script_path, script)
  vim.cmd('cd ' .. vim.fn.fnameescape(root))
  local o = vim.tbl_deep_extend('force', {
    cmd = { vim.env.AGENTLS_BIN or 'agentls' },
    root = root,
    model = { provider = 'scripted', script = script_path },
  }, opts or {})
  local agentls = require('agentls')
  local st = agentls.setup(o)
  st.trace = t.note
  t.cleanup(function()
    local c = (agentls._state or st):client() -- a test that set up again (a restart) left its own
    agentls.teardown()
    -- wait for the exit before wiping buffers (0.7 resets their diagnostics on exit)
    if c then
      t.wait(5000, function()
        return vim.lsp.get_client_by_id(c.id) == nil
      end, 'the server to exit')
    end
    vim.cmd('silent! only')
    vim.cmd('silent! %bwipeout!')
  end)
  return st, root
end

--- h.setup, then waits for the server to initialize.
function h.start(files, script, opts)
  local st, root = h.setup(files, script, opts)
  t.wait(10000, function()
    return st.server_info ~= nil
  end, 'the server to initialize')
  return st, root
end

--- Neovim and the server restart: setup() again on st's workspace and options, once st's server
--- has exited; with `id`, :Agentls chat then reopens the last chat, that session. Returns the new
--- State.
---@param id? string
function h.restart(st, id)
  local agentls = require('agentls')
  local old = st:client()
  local st2 = agentls.setup(vim.deepcopy(st.opts))
  st2.trace = t.note
  if old then
    t.wait(5000, function()
      return vim.lsp.get_client_by_id(old.id) == nil
    end, 'the first server to exit')
  end
  if id then
    vim.cmd('Agentls chat')
    t.wait(10000, function()
      return st2.session and st2.session.sessionId == id
    end, 'the last chat reopened')
  end
  return st2
end

--- What the screen shows now (headless Neovim keeps a screen grid too): its rows, joined by
--- newlines. Only what was drawn is there: a window made since the last redraw is not.
function h.screen()
  local rows = {}
  for r = 1, vim.o.lines do
    local cells = {}
    for c = 1, vim.o.columns do
      table.insert(cells, vim.fn.screenstring(r, c))
    end
    table.insert(rows, table.concat(cells))
  end
  return table.concat(rows, '\n')
end

--- Keeps `text` as an artifact: `name` in $AGENTLS_NVIM_ARTIFACTS (tests/run makes the folder
--- and prints it; nothing is kept when it is unset). Returns the file's path, or nil.
function h.keep(name, text)
  local dir = vim.env.AGENTLS_NVIM_ARTIFACTS
  if not dir or dir == '' then
    return nil
  end
  vim.fn.mkdir(dir, 'p')
  local path = dir .. '/' .. name
  vim.fn.writefile(vim.split(text, '\n', true), path, 'b')
  return path
end

--- Records the notifications client `c` sends (method, params), on every Neovim version
--- (a method on 0.11, a closure before). Returns the list.
function h.record_notifications(c)
  local sent = {}
  local orig = c.notify
  c.notify = function(a, b, d)
    if type(a) == 'table' then
      table.insert(sent, { method = b, params = d })
      return orig(a, b, d)
    end
    table.insert(sent, { method = a, params = b })
    return orig(a, b)
  end
  t.cleanup(function()
    c.notify = orig
  end)
  return sent
end

--- Waits for the current prompt's turn to end (at most `ms`, default 20 s); returns its result.
function h.turn(st, what, ms)
  t.wait(ms or 20000, function()
    return st.last_result ~= nil
  end, what or 'the turn to end')
  local r = st.last_result
  st.last_result = nil
  return r
end

return h
