-- Every question shows what it grants (issue 17, Guard III), through the real agentls binary:
-- the run question names the command's folder, the network and the sandbox; the plan approval
-- lists the commands approving allows; the trust question shows every widening value in full;
-- control and bidi characters reach the user escaped (`\u202E`), never raw. What the user sees is
-- what vim.ui.select is given (the prompt and the shown labels), on every Neovim version.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

-- Stubs vim.ui.select: records each question (prompt and labels) and picks the item labelled
-- `pick(labels)` (nil: dismiss). Returns the list of questions.
local function answer_with(pick)
  local asked = {}
  h.stub(vim.ui, 'select', h.as_a_person(function(items, opts, cb)
    local labels = vim.tbl_map(opts.format_item or tostring, items)
    table.insert(asked, { prompt = opts.prompt, labels = labels })
    local want = pick(labels, opts.prompt)
    for i, l in ipairs(labels) do
      if l == want then
        return vim.schedule(function()
          cb(items[i], i)
        end)
      end
    end
    vim.schedule(function()
      cb(nil, nil)
    end)
  end))
  return asked
end

local function first_of(...)
  local wanted = { ... }
  return function(labels)
    for _, w in ipairs(wanted) do
      if vim.tbl_contains(labels, w) then
        return w
      end
    end
  end
end

local function raw_controls(s)
  return s:find('\226\128\174', 1, true) or s:find('[\1-\8\11\12\14-\31\127]')
end

local function build_session(st)
  vim.cmd('AgentNew build')
  t.wait(10000, function()
    return agentls.mode() == 'BUILD'
  end, 'a build session')
  return st
end

t.describe('questions show what they grant', function()
  t.it('the run question names the folder, the network and the sandbox', function()
    local st, root = h.start({ ['sub/keep.txt'] = 'x\n' }, [[
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "echo granted-check", cwd: sub}}
  - text: "Ran."
]])
    build_session(st)
    local asked = answer_with(first_of('Reject', 'Reject once'))
    agentls.prompt('run it')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(1, #asked, 'one question')
    local p = asked[1].prompt
    t.contains(p, 'echo granted-check')
    t.contains(p, 'Folder: ' .. root .. '/sub')
    t.match('Network: %S', p)
    t.match('Sandbox: %S', p)
  end)

  t.it('the plan approval lists every command it allows, in full', function()
    local long = string.rep('a', 120) .. ' sh *'
    local st = h.start({}, [[
steps:
  - tool_calls:
      - id: w
        name: plan_write
        args: {title: Grants, path: plans/grants.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] One\n"}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/grants.plan, allowed_commands: ["go test ./...", "]] .. long .. [["]}}
  - text: "Kept planning."
]])
    local asked = answer_with(first_of('Keep Planning'))
    h.stub(vim.ui, 'input', function(_, cb)
      vim.schedule(function()
        cb('no')
      end)
    end)
    agentls.prompt('plan it')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.ok(#asked >= 1, 'the approval question')
    local p = asked[1].prompt
    t.contains(asked[1].labels, 'Accept & Build')
    t.contains(p, 'go test ./...')
    t.contains(p, long, 'the long command whole, its trailing "sh *" included')
  end)

  t.it('the trust question shows every widening value in full', function()
    local long = string.rep('b', 120) .. ' sh *'
    local asked = answer_with(first_of("Don't trust"))
    local st = h.setup({ ['.agentls.yaml'] = 'run:\n  allow: ["echo trusted", "' .. long .. '"]\n' }, 'steps: []\n')
    t.wait(10000, function()
      return #asked > 0
    end, 'the trust question')
    t.ok(st, 'started')
    local p = asked[1].prompt
    t.contains(p, 'run.allow')
    t.contains(p, long, 'the long value whole, its trailing "sh *" included')
    t.contains(p, 'echo trusted')
    t.contains(asked[1].labels, "Don't trust")
  end)

  t.it('control and bidi characters are shown escaped, never raw', function()
    local st = h.start({}, string.format([[
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "echo safe\u202E\u0007\u001b[2Jhs.live"}}
  - text: "ok"
]]))
    build_session(st)
    local asked = answer_with(first_of('Reject', 'Reject once'))
    local echoed = {}
    h.stub(vim.api, 'nvim_echo', function(chunks, ...)
      for _, c in ipairs(chunks) do
        table.insert(echoed, c[1])
      end
    end)
    agentls.prompt('run it')
    t.eq('end_turn', h.turn(st).stopReason)
    t.eq(1, #asked, 'one question')
    t.contains(asked[1].prompt, [[echo safe\u202E\u0007\u001B[2Jhs.live]])
    t.ok(not raw_controls(asked[1].prompt), 'a raw control character in the prompt: ' .. asked[1].prompt)
    for _, l in ipairs(asked[1].labels) do
      t.ok(not raw_controls(l), 'a raw control character in ' .. l)
    end
    for _, e in ipairs(echoed) do
      t.ok(not raw_controls(e), 'a raw control character echoed: ' .. e)
    end
  end)
end)
