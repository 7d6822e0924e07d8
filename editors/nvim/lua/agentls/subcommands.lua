-- agentls.subcommands: the plugin's own subcommands of `:Agentls {subcommand} [args]` (chat,
-- prompt, mode, approve, reject, cancel, retry, details, history, rename, diff, review, problems,
-- requestchanges, health), their completion, and the `<Plug>(agentls-…)` mappings. Anything
-- else after `:Agentls` is a slash command the server runs (agentls.commands).
local M = {}

local function a()
  return require('agentls')
end

---@class agentls.Subcommand
---@field desc string what it does
---@field run? fun(args: string, o: table) o: the user command's table (range, line1, line2)
---@field own? boolean run by its module's dispatch (review.lua, problems.lua, plan_review.lua)
---@field complete? fun(arglead: string): string[] completion of its argument

local function modes()
  return { 'plan', 'build' }
end

--- The subcommands, by name. An alias points to the same table.
---@type table<string, agentls.Subcommand>
M.list = {
  chat = {
    desc = 'open the chat (the last one after a restart)',
    run = function()
      a().chat()
    end,
  },
  prompt = {
    desc = 'send a prompt; with a range those lines go as context',
    run = function(args, o)
      if o and o.range and o.range > 0 then
        a().prompt(args, o.line1, o.line2)
      else
        a().prompt(args)
      end
    end,
  },
  mode = {
    desc = 'switch the session to plan or build mode',
    run = function(args)
      a().set_mode(args)
    end,
    complete = modes,
  },
  approve = {
    desc = 'approve the plan awaiting approval',
    run = function()
      a().approve()
    end,
  },
  reject = {
    desc = 'keep planning, with a reason',
    run = function(args)
      a().reject(args)
    end,
  },
  cancel = {
    desc = "cancel the session's turn",
    run = function()
      a().cancel()
    end,
  },
  retry = {
    desc = 'send the failed last prompt again',
    run = function()
      a().retry()
    end,
  },
  details = {
    desc = "the tool call's raw input and output (the one under the cursor in the chat, else the last)",
    run = function()
      a().details()
    end,
  },
  history = {
    desc = 'pick a chat by title and date and open it',
    run = function()
      a().sessions()
    end,
  },
  rename = {
    desc = 'rename the current chat',
    run = function(args)
      a().rename(args)
    end,
  },
  diff = {
    desc = 'review the changed files against their checkpoints',
    own = true,
  },
  review = {
    desc = 'ask before each BUILD edit (on) or not (off)',
    own = true,
    complete = function()
      return { 'on', 'off' }
    end,
  },
  problems = {
    desc = "the last edit's new problems in the quickfix list",
    own = true,
  },
  requestchanges = {
    desc = "send the plan's open review comments back to the planner",
    own = true,
  },
  health = {
    desc = ':checkhealth agentls',
    run = function()
      vim.cmd('checkhealth agentls')
    end,
  },
}
M.list.switch = M.list.mode
M.list.sessions = M.list.history

--- The subcommand names in completion order.
M.names = {
  'chat',
  'prompt',
  'mode',
  'switch',
  'approve',
  'reject',
  'cancel',
  'retry',
  'details',
  'history',
  'sessions',
  'rename',
  'diff',
  'review',
  'problems',
  'requestchanges',
  'health',
}

--- Runs `:Agentls {args}` when it names one of the subcommands here; returns false for the
--- rest (the `own` ones, which their modules' dispatch runs, and slash commands).
---@param args string
---@param o? table the user command's table
---@return boolean
function M.run(args, o)
  local name, rest = vim.trim(args or ''):match('^(%S+)%s*(.-)%s*$')
  local sub = name and M.list[name]
  if not sub or sub.own then
    return false
  end
  sub.run(rest, o or {})
  return true
end

--- Completion of `:Agentls`: the plugin's subcommands and the server's slash commands for
--- the first argument, then the subcommand's own argument completion.
---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local rest = cmdline:gsub("^[%s%d,.'<>$%%]*%a+!?%s*", '', 1)
  local args = vim.split(rest, '%s+')
  if #args > 1 then
    local sub = M.list[args[1]]
    if sub and sub.complete and #args == 2 then
      return vim.tbl_filter(function(v)
        return v:sub(1, #arglead) == arglead
      end, sub.complete(arglead))
    end
    return {}
  end
  local prefix = (arglead or ''):gsub('^/', '')
  local out, seen = {}, {}
  for _, n in ipairs(M.names) do
    if n:sub(1, #prefix) == prefix then
      table.insert(out, n)
      seen[n] = true
    end
  end
  for _, n in ipairs(require('agentls.commands').complete(arglead, cmdline)) do
    if not seen[n] then
      table.insert(out, n)
      seen[n] = true
    end
  end
  return out
end

--- The `<Plug>(agentls-…)` mappings: {lhs, modes, rhs, desc}. No key is mapped to them by the
--- plugin: map yours (:help agentls-mappings).
M.plugs = {
  { '<Plug>(agentls-chat)', 'n', '<Cmd>Agentls chat<CR>', 'open the chat' },
  { '<Plug>(agentls-prompt)', 'n', '<Cmd>Agentls prompt<CR>', 'ask for a prompt and send it' },
  { '<Plug>(agentls-prompt)', 'x', ':Agentls prompt<CR>', 'send a prompt with the selected lines as context' },
  { '<Plug>(agentls-approve)', 'n', '<Cmd>Agentls approve<CR>', 'approve the plan' },
  { '<Plug>(agentls-reject)', 'n', '<Cmd>Agentls reject<CR>', 'keep planning (asks why)' },
  { '<Plug>(agentls-cancel)', 'n', '<Cmd>Agentls cancel<CR>', 'cancel the turn' },
  { '<Plug>(agentls-retry)', 'n', '<Cmd>Agentls retry<CR>', 'send the failed last prompt again' },
  { '<Plug>(agentls-history)', 'n', '<Cmd>Agentls history<CR>', 'open a chat from the history' },
  { '<Plug>(agentls-mode-plan)', 'n', '<Cmd>Agentls mode plan<CR>', 'switch to plan mode' },
  { '<Plug>(agentls-mode-build)', 'n', '<Cmd>Agentls mode build<CR>', 'switch to build mode' },
  { '<Plug>(agentls-diff)', 'n', '<Cmd>Agentls diff<CR>', 'review the changed files' },
  { '<Plug>(agentls-problems)', 'n', '<Cmd>Agentls problems<CR>', "the last edit's new problems" },
}

--- Defines the `<Plug>` mappings (plugin/agentls.lua).
function M.define_plugs()
  for _, p in ipairs(M.plugs) do
    vim.keymap.set(p[2], p[1], p[3], { silent = true, desc = 'agentls: ' .. p[4] })
  end
end

return M
