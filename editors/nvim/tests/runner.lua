-- runner.lua: a tiny test runner for headless Neovim (0.7.2 and later).
--
-- Shared by the agentls Neovim plugin's tests (editors/nvim/tests/*_spec.lua) and the
-- plugin-less Neovim tests (editors/nvim/tests/plain/). Run it as
--
--   nvim --headless -u editors/nvim/tests/minimal_init.lua \
--     -c "lua require('runner').run({'editors/nvim/tests/foo_spec.lua', 'editors/nvim/tests/plain/*_spec.lua'})"
--
-- `run` takes file paths or glob patterns. It prints one line per test, then a last line
-- `N passed, N failed`, and quits Neovim with exit code 0 (all passed) or 1 (any failure, or no
-- test at all). $RUNNER_FILTER (a Lua pattern) runs only the tests whose full name matches.
--
-- A spec file is plain Lua that registers tests:
--
--   local t = require('runner')
--   t.describe('statusline', function()         -- optional grouping, nestable
--     t.it('reads PLAN', function()              -- t.test is the same as t.it
--       t.cleanup(function() ... end)            -- runs after this test, pass or fail
--       t.eq('PLAN', mode(), 'mode after start') -- deep equality, shows both values
--       t.ok(cond, 'message')                    -- truthy
--       t.match('^BUILD', str)                   -- Lua pattern
--       t.contains(list_or_string, value)        -- list element or plain substring
--       t.wait(5000, function() return done end, 'the reply') -- predicate wait (vim.wait), never a sleep
--       local err = t.fails(fn)                  -- fn must raise; returns the message
--     end)
--   end)
--
-- Tests run one after another, in the order registered; `t.wait` lets the event loop run (LSP
-- messages, scheduled callbacks) until the predicate holds, and fails the test with `what` on
-- timeout.
--
-- LSP traffic on failure: `t.note(kind, value)` records a message in a ring buffer (the last
-- 30 are kept); `t.wrap_handlers(handlers)` returns a copy of an LSP handler table (method ->
-- function(err, result, ctx, config)) that notes each call before delegating. When a test
-- fails, the runner prints the notes recorded during that test, so a timeout shows what the
-- server did say. `t.notes()` returns them (newest last) for assertions.
local M = {}

local tests = {}
local prefix = {}
local current -- the running test: {name, cleanups, notes}

local function inspect(v)
  if type(v) == 'string' then
    return string.format('%q', v)
  end
  return vim.inspect(v)
end

local function fail(msg, level)
  error(msg, (level or 1) + 1)
end

--- Registers a group; `fn` registers its tests (and nested groups).
function M.describe(name, fn)
  table.insert(prefix, name)
  local ok, err = pcall(fn)
  table.remove(prefix)
  if not ok then
    error(err, 0)
  end
end

--- Registers a test.
function M.it(name, fn)
  local full = table.concat(vim.tbl_flatten({ prefix, name }), ' › ')
  table.insert(tests, { name = full, fn = fn })
end
M.test = M.it

--- Registers a function to run when the current test ends (last registered runs first).
function M.cleanup(fn)
  assert(current, 'cleanup outside a test')
  table.insert(current.cleanups, 1, fn)
end

--- Fails unless `actual` deep-equals `expected`.
function M.eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    fail(string.format('%sexpected %s\n     got %s', what and (what .. ': ') or '', inspect(expected), inspect(actual)), 2)
  end
end

--- Fails unless `cond` is truthy.
function M.ok(cond, what)
  if not cond then
    fail('not true: ' .. (what or 'condition'), 2)
  end
  return cond
end

--- Fails unless string `s` matches Lua pattern `pat`.
function M.match(pat, s, what)
  if type(s) ~= 'string' or not s:find(pat) then
    fail(string.format('%s%s does not match %s', what and (what .. ': ') or '', inspect(s), inspect(pat)), 2)
  end
end

--- Fails unless `hay` (a list, or a string: plain substring) contains `needle`.
function M.contains(hay, needle, what)
  local found = false
  if type(hay) == 'string' then
    found = hay:find(needle, 1, true) ~= nil
  elseif type(hay) == 'table' then
    for _, v in ipairs(hay) do
      if vim.deep_equal(v, needle) then
        found = true
        break
      end
    end
  end
  if not found then
    fail(string.format('%s%s not found in %s', what and (what .. ': ') or '', inspect(needle), inspect(hay)), 2)
  end
end

--- Fails unless `fn` raises an error; returns the error (as a string).
function M.fails(fn, what)
  local ok, err = pcall(fn)
  if ok then
    fail('expected an error: ' .. (what or 'call'), 2)
  end
  return tostring(err)
end

--- Runs the event loop until `pred()` is truthy (checked every 10 ms) or `timeout` ms pass;
--- fails the test with `what` on timeout. Returns pred()'s value.
function M.wait(timeout, pred, what)
  local value
  local ok = vim.wait(timeout, function()
    value = pred()
    return value
  end, 10)
  if not ok then
    fail(string.format('timed out after %d ms waiting for %s', timeout, what or 'condition'), 2)
  end
  return value
end

--- Records one LSP message (or anything worth showing if the test fails).
function M.note(kind, value)
  local list = current and current.notes or M._loose_notes
  table.insert(list, { kind = kind, value = value })
  if #list > 30 then
    table.remove(list, 1)
  end
end
M._loose_notes = {}

--- The notes recorded in the current test, oldest first.
function M.notes()
  return current and current.notes or M._loose_notes
end

--- Wraps an LSP handler table so that each call is noted before it is delegated.
function M.wrap_handlers(handlers)
  local out = {}
  for method, fn in pairs(handlers) do
    out[method] = function(err, result, ctx, config)
      M.note(method, err or result)
      return fn(err, result, ctx, config)
    end
  end
  return out
end

local function out(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

local function run_one(t)
  current = { name = t.name, cleanups = {}, notes = {} }
  local ok, err = xpcall(t.fn, function(e)
    -- keep the message and the spec's own frames; drop the runner's and C frames
    local lines = { tostring(e) }
    for line in debug.traceback('', 2):gmatch('[^\n]+') do
      if line:find('%.lua:%d+') and not line:find('runner%.lua') then
        table.insert(lines, line)
      end
    end
    return table.concat(lines, '\n')
  end)
  for _, fn in ipairs(current.cleanups) do
    local cok, cerr = pcall(fn)
    if not cok and ok then
      ok, err = false, 'cleanup: ' .. tostring(cerr)
    end
  end
  local notes = current.notes
  current = nil
  return ok, err, notes
end

--- Loads the spec files (paths or glob patterns), runs their tests, prints the results and
--- quits Neovim (exit code 1 on any failure, or when no test ran).
function M.run(files)
  local passed, failed = 0, 0
  local load_errors = {}
  for _, pattern in ipairs(files) do
    local paths = vim.fn.glob(pattern, false, true)
    if #paths == 0 then
      table.insert(load_errors, pattern .. ': no such file')
    end
    table.sort(paths)
    for _, path in ipairs(paths) do
      local ok, err = pcall(dofile, path)
      if not ok then
        table.insert(load_errors, path .. ': ' .. tostring(err))
      end
    end
  end
  for _, e in ipairs(load_errors) do
    out('LOAD ERROR ' .. e)
    failed = failed + 1
  end
  local filter = vim.env.RUNNER_FILTER
  for _, t in ipairs(tests) do
    if not filter or filter == '' or t.name:find(filter) then
      local ok, err, notes = run_one(t)
      if ok then
        passed = passed + 1
        out('ok   ' .. t.name)
      else
        failed = failed + 1
        out('FAIL ' .. t.name)
        out('     ' .. tostring(err):gsub('\n', '\n     '))
        if #notes > 0 then
          out('     last LSP messages (oldest first):')
          for _, n in ipairs(notes) do
            local s = vim.inspect(n.value, { newline = ' ', indent = '' })
            if #s > 300 then
              s = s:sub(1, 300) .. '…'
            end
            out('       ' .. n.kind .. ' ' .. s)
          end
        end
      end
    end
  end
  if passed + failed == 0 then
    out('no tests ran')
    failed = 1
  end
  out(string.format('%d passed, %d failed', passed, failed))
  vim.cmd(failed > 0 and 'cquit 1' or 'qall!')
end

return M
