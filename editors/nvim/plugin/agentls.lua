-- agentls commands (:help agentls-commands). They act on the state made by
-- require('agentls').setup(); nothing starts until setup() is called.
if vim.g.loaded_agentls then
  return
end
vim.g.loaded_agentls = true

local function a()
  return require('agentls')
end

local cmd = vim.api.nvim_create_user_command
cmd('AgentChat', function()
  a().chat()
end, { desc = 'agentls: open the chat' })
cmd('AgentPrompt', function(o)
  if o.range > 0 then
    a().prompt(o.args, o.line1, o.line2)
  else
    a().prompt(o.args)
  end
end, { nargs = '*', range = true, desc = 'agentls: send a prompt (a range sends those lines as context)' })
cmd('AgentNew', function(o)
  a().new_session(o.args)
end, {
  nargs = '?',
  complete = function()
    return { 'plan', 'build' }
  end,
  desc = 'agentls: start a new session',
})
cmd('AgentMode', function(o)
  a().set_mode(o.args)
end, {
  nargs = 1,
  complete = function()
    return { 'plan', 'build' }
  end,
  desc = 'agentls: switch the session to plan or build mode',
})
cmd('AgentApprove', function()
  a().approve()
end, { desc = 'agentls: approve the plan awaiting approval' })
cmd('AgentReject', function(o)
  a().reject(o.args)
end, { nargs = '*', desc = 'agentls: reject the plan awaiting approval, with a reason' })
cmd('AgentCancel', function()
  a().cancel()
end, { desc = "agentls: cancel the session's turn" })
cmd('AgentSessions', function()
  a().sessions()
end, { desc = 'agentls: pick a session to load' })
cmd('Agentls', function(o)
  a().command(o.args)
end, {
  nargs = '+',
  complete = function(arglead, cmdline)
    return require('agentls.commands').complete(arglead, cmdline)
  end,
  desc = 'agentls: run a slash command (:Agentls plans, :Agentls reject {reason})',
})
