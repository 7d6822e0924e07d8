-- Slash commands in Neovim against the real agentls binary: the chat buffer's omnifunc
-- completes "/word" from agent/listCommands (built-ins and .agentls/commands), `:Agentls`
-- completes and runs a command, /new switches to the new session, and a project command is
-- only a prompt (its "/build" changes nothing).
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local script = [[
name: nvim_commands
steps:
  - text: "Reviewed."
    expect:
      last_message_contains: ["Review main.go.", "/build"]
      system_contains: ["You are in PLAN mode"]
]]

local review = '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS.\n/build\n'

-- Puts `text` on the chat buffer's prompt line and the cursor after it; returns the buffer.
local function type_prompt(text)
  local b = vim.api.nvim_get_current_buf()
  local last = vim.api.nvim_buf_line_count(b)
  vim.api.nvim_buf_set_lines(b, last - 1, last, false, { text })
  vim.api.nvim_win_set_cursor(0, { last, #text })
  return b
end

local function words(items)
  local out = {}
  for _, it in ipairs(items) do
    table.insert(out, it.word)
  end
  return out
end

t.describe('slash commands', function()
  t.it('the chat buffer completes /commands; :Agentls completes and runs them', function()
    local st = h.start({ ['.agentls/commands/review.md'] = review }, script)
    vim.cmd('AgentChat')
    t.wait(5000, function()
      return agentls.mode() == 'PLAN'
    end, 'the new session in PLAN')
    local b = type_prompt('/pl')
    t.eq("v:lua.require'agentls.commands'.omnifunc", vim.bo[b].omnifunc)
    local omni = function(findstart, base)
      return vim.fn.eval(string.format('%s(%d, %q)', vim.bo[b].omnifunc, findstart, base))
    end
    t.eq(0, omni(1, ''), 'completion starts at the slash')
    t.eq({ '/plan', '/plans' }, words(omni(0, '/pl')))
    local rev = omni(0, '/rev')
    t.eq({ '/review' }, words(rev))
    t.eq('/review <file>', rev[1].abbr)
    t.eq('Review a file (project)', rev[1].menu)
    -- As Vim calls it: <C-x><C-o> in insert mode.
    type_prompt('/rev')
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A<C-x><C-o><Esc>', true, false, true), 'x', false)
    t.eq('/review', vim.api.nvim_get_current_line())
    type_prompt('hello /pl')
    t.eq(-3, omni(1, ''), 'no completion after other text')
    type_prompt('')

    t.eq({ 'plan', 'plans' }, vim.fn.getcompletion('Agentls pl', 'cmdline'))
    t.contains(vim.fn.getcompletion('Agentls ', 'cmdline'), 'review')
    t.eq({}, vim.fn.getcompletion('Agentls reject x', 'cmdline'))

    local notes = {}
    h.stub(vim, 'notify', function(msg)
      table.insert(notes, msg)
    end)
    vim.cmd('Agentls build')
    t.wait(5000, function()
      return agentls.mode() == 'BUILD'
    end, ':Agentls build to switch to BUILD')
    h.turn(st, ':Agentls build')
    vim.cmd('Agentls plan')
    t.wait(5000, function()
      return agentls.mode() == 'PLAN'
    end, ':Agentls plan to switch to PLAN')
    h.turn(st, ':Agentls plan')
    vim.cmd('Agentls plans')
    h.turn(st, ':Agentls plans')
    t.contains(notes, 'agentls: No plans in plans yet.')
    t.wait(5000, function()
      return h.text(b):find('No plans in plans yet.', 1, true) ~= nil
    end, 'the answer in the chat buffer')

    -- A project command is a prompt: its "/build" is text for the model.
    vim.cmd('Agentls review main.go')
    local r = h.turn(st, ':Agentls review')
    t.eq('end_turn', r.stopReason, vim.inspect(r))
    t.eq('PLAN', agentls.mode())

    -- An unknown command is an error naming the commands.
    vim.cmd('Agentls deploy')
    r = h.turn(st, ':Agentls deploy')
    t.ok(r.error, 'an error')
    t.match('unknown command /deploy', r.error.message)

    -- /new switches the chat to the new session.
    local first = st.session.sessionId
    vim.cmd('Agentls new')
    h.turn(st, ':Agentls new')
    t.wait(5000, function()
      return st.session.sessionId ~= first
    end, 'the new session to be current')
  end)
end)
