-- Slash commands in Neovim (docs/commands.md): completion in the chat buffer's prompt area
-- (omnifunc: <C-x><C-o> on a line starting with "/") and `:Agentls {command} [args]`, whose
-- first argument completes. The list comes from the server (agent/listCommands: the built-ins
-- and the user's .agentls/commands); the server runs a command when it is sent as a prompt.
local protocol = require('agentls.protocol')
local M = {}

--- The built-ins, for completion while the server cannot answer.
M.builtins = {
  { name = 'plan', description = 'Switch to plan mode' },
  { name = 'build', description = 'Switch to build mode' },
  { name = 'approve', description = 'Approve the plan awaiting approval' },
  { name = 'reject', description = 'Reject the plan awaiting approval', hint = '<reason>' },
  { name = 'plans', description = 'List the plans of this workspace' },
  { name = 'compact', description = 'Compact the conversation' },
  { name = 'new', description = 'Start a new session' },
  { name = 'model', description = "Show or set this session's model", hint = '<model id>' },
  { name = 'init', description = 'Write a starter AGENTS.md (build mode)' },
  { name = 'rewind', description = 'Not available yet' },
}

-- request_sync with the calling convention of the running Neovim.
local function request_sync(client, method, params, timeout)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, params, timeout)
  end
  return client.request_sync(method, params, timeout)
end

--- The commands of state `st` (agent/listCommands, waiting at most `timeout` ms), or the
--- built-ins when the server cannot say.
function M.list(st, timeout)
  local c = st and st:client()
  if c then
    local params = st.session and { sessionId = st.session.sessionId } or vim.empty_dict()
    local ok, res = pcall(request_sync, c, protocol.methods.listCommands, params, timeout or 1000)
    if ok and res and not res.err and res.result and type(res.result.commands) == 'table' then
      return res.result.commands
    end
  end
  return M.builtins
end

local function state()
  return require('agentls').state()
end

--- The commands whose name starts with `prefix`, in the server's order.
function M.matching(commands, prefix)
  local out = {}
  for _, c in ipairs(commands) do
    if c.name:sub(1, #prefix) == prefix then
      table.insert(out, c)
    end
  end
  return out
end

--- omnifunc of the chat buffer: completes "/word" at the start of a line.
function M.omnifunc(findstart, base)
  if findstart == 1 then
    local line = vim.api.nvim_get_current_line()
    local col = vim.api.nvim_win_get_cursor(0)[2]
    local before = line:sub(1, col)
    local s = before:find('^%s*/[^%s/]*$')
    if not s then
      return -3 -- not a command: leave completion mode quietly
    end
    return (before:find('/', 1, true)) - 1
  end
  local items = {}
  for _, c in ipairs(M.matching(M.list(state()), (base or ''):gsub('^/', ''))) do
    local hint = c.hint ~= vim.NIL and c.hint or nil
    table.insert(items, { word = '/' .. c.name, abbr = '/' .. c.name .. (hint and (' ' .. hint) or ''), menu = c.description, info = c.description })
  end
  return items
end

--- Completion of :Agentls: the command names for the first argument.
function M.complete(arglead, cmdline)
  local args = vim.split(cmdline:gsub('^%s*%S+%s*', ''), '%s+')
  if #args > 1 then
    return {}
  end
  local names = {}
  for _, c in ipairs(M.matching(M.list(state(), 500), (arglead or ''):gsub('^/', ''))) do
    table.insert(names, c.name)
  end
  return names
end

return M
