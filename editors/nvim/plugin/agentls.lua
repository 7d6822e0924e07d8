-- agentls commands (:help agentls-commands): one `:Agentls {subcommand} [args]` with completion,
-- the `<Plug>(agentls-…)` mappings (:help agentls-mappings; no key is mapped for you), and the
-- old `:Agent*` commands, kept as deprecated aliases for one release. They act on the state made
-- by require('agentls').setup(); nothing starts until setup() is called.
if vim.g.loaded_agentls then
  return
end
vim.g.loaded_agentls = true

local function a()
  return require('agentls')
end

local cmd = vim.api.nvim_create_user_command
cmd('Agentls', function(o)
  a().command(o.args, o)
end, {
  nargs = '+',
  range = true,
  complete = function(arglead, cmdline)
    return require('agentls.subcommands').complete(arglead, cmdline)
  end,
  desc = 'agentls: :Agentls chat|prompt|mode|approve|reject|cancel|history|rename|diff|review|problems|health or a slash command',
})
require('agentls.subcommands').define_plugs()

-- Deprecated aliases (one release): :AgentChat is :Agentls chat, and so on.
cmd('AgentChat', function()
  a().chat()
end, { desc = 'agentls: open the chat (deprecated: :Agentls chat)' })
cmd('AgentPrompt', function(o)
  if o.range > 0 then
    a().prompt(o.args, o.line1, o.line2)
  else
    a().prompt(o.args)
  end
end, { nargs = '*', range = true, desc = 'agentls: send a prompt (deprecated: :Agentls prompt)' })
cmd('AgentNew', function(o)
  a().new_session(o.args)
end, {
  nargs = '?',
  complete = function()
    return { 'plan', 'build' }
  end,
  desc = 'agentls: start a new session (deprecated: :Agentls new)',
})
cmd('AgentMode', function(o)
  a().set_mode(o.args)
end, {
  nargs = 1,
  complete = function()
    return { 'plan', 'build' }
  end,
  desc = 'agentls: switch the mode (deprecated: :Agentls mode)',
})
cmd('AgentApprove', function()
  a().approve()
end, { desc = 'agentls: approve the plan (deprecated: :Agentls approve)' })
cmd('AgentReject', function(o)
  a().reject(o.args)
end, { nargs = '*', desc = 'agentls: keep planning, with a reason (deprecated: :Agentls reject)' })
cmd('AgentCancel', function()
  a().cancel()
end, { desc = "agentls: cancel the session's turn (deprecated: :Agentls cancel)" })
cmd('AgentSessions', function()
  a().sessions()
end, { desc = 'agentls: open a chat from the history (deprecated: :Agentls history)' })
