-- agentls.config: the plugin's options: defaults, validation, and what is derived from them
-- (the server's initializationOptions, the client capabilities, the server's environment).
-- Pure Lua apart from running `model.api_key_cmd`; unit-tested in tests/config_spec.lua.
local M = {}

---@alias agentls.ChatPosition 'right'|'left'|'below'|'above'|'tab'|'current'

--- The model section (`.agentls.yaml`'s `model:` keys), sent as initializationOptions.model;
--- the API key is never part of it (:help agentls-model).
---@class agentls.ModelOpts
---@field provider? string e.g. "openai", "anthropic", "ollama"
---@field name? string the model
---@field base_url? string the provider's endpoint
---@field api_key_env? string the environment variable holding the key (default OPENAI_API_KEY)
---@field api_key_cmd? string|string[] a command printing the key; its output goes to the server's environment only
---@field plan_name? string the model used in plan mode
---@field script? string a scripted model's script (tests)
---@field [string] any other keys of the model section

--- Where the chat opens and how it shows markdown.
---@class agentls.ChatOpts
---@field position? agentls.ChatPosition default 'right'
---@field width? integer default 80 (right/left)
---@field conceal? boolean hide the markdown markers (`**`, backticks) in the chat window, default true
---@field open_on_prompt? boolean open the chat when a prompt is sent while no window shows it, default true

--- The options of require('agentls').setup() (:help agentls-options). Every field is optional.
---@class agentls.Config
---@field cmd? string[] the server command, default { 'agentls' }
---@field root? string the project root; default: found upwards from the current directory by root_markers
---@field root_markers? string[] default { '.agentls.yaml', '.git' }
---@field model? agentls.ModelOpts
---@field plan_mode? table sent as initializationOptions.plan_mode (default_active, require_approval, ...)
---@field edits? 'auto'|'client'|'disk' sent as initializationOptions.edits
---@field save_edits? boolean write each document the agent edited once the edit is applied (default true)
---@field chat? agentls.ChatOpts
---@field log_level? string|integer passed to vim.lsp.set_log_level()

--- The former name of agentls.Config.
---@alias agentls.Opts agentls.Config

--- The options after setup() merged them over the defaults: every default is there.
---@class agentls.ResolvedConfig: agentls.Config
---@field cmd string[]
---@field root_markers string[]
---@field model agentls.ModelOpts
---@field save_edits boolean
---@field chat agentls.ChatOpts

--- The defaults; `setup(opts)` deep-merges the user's options over a copy.
---@return agentls.ResolvedConfig
function M.defaults()
  return {
    cmd = { 'agentls' }, -- the server command (a list)
    root = nil, -- project root; nil: found upwards from the current directory by root_markers
    root_markers = { '.agentls.yaml', '.git' },
    model = {}, -- passed as initializationOptions.model (without api_key_cmd); see :help agentls-model
    plan_mode = nil, -- passed as initializationOptions.plan_mode
    edits = nil, -- passed as initializationOptions.edits ("auto" | "client" | "disk")
    save_edits = true, -- write documents the agent edited after each applied edit
    chat = { position = 'right', width = 80, conceal = true, open_on_prompt = true }, -- where :Agentls chat opens
    log_level = nil, -- vim.lsp.set_log_level(...) if set
  }
end

local function is_list_of_strings(v)
  if type(v) ~= 'table' or #v == 0 then
    return false
  end
  for _, s in ipairs(v) do
    if type(s) ~= 'string' then
      return false
    end
  end
  return true
end

--- Checks merged options; returns a list of problems (empty when valid), each a sentence.
---@param o agentls.ResolvedConfig
---@return string[]
function M.validate(o)
  local problems = {}
  local function bad(msg)
    table.insert(problems, msg)
  end
  if not is_list_of_strings(o.cmd) then
    bad('cmd must be a non-empty list of strings, e.g. { "agentls" }')
  end
  if o.root ~= nil and type(o.root) ~= 'string' then
    bad('root must be a path (string)')
  end
  if type(o.model) ~= 'table' then
    bad('model must be a table')
  else
    if o.model.api_key ~= nil then
      bad('model.api_key must not be in the config: set the key in the environment (model.api_key_env, default OPENAI_API_KEY) or give model.api_key_cmd')
    end
    local c = o.model.api_key_cmd
    if c ~= nil and type(c) ~= 'string' and not is_list_of_strings(c) then
      bad('model.api_key_cmd must be a shell command (string) or a list of strings')
    end
    for _, k in ipairs({ 'provider', 'name', 'base_url', 'api_key_env', 'plan_name', 'script' }) do
      if o.model[k] ~= nil and type(o.model[k]) ~= 'string' then
        bad('model.' .. k .. ' must be a string')
      end
    end
  end
  if o.plan_mode ~= nil and type(o.plan_mode) ~= 'table' then
    bad('plan_mode must be a table')
  end
  if o.edits ~= nil and not vim.tbl_contains({ 'auto', 'client', 'disk' }, o.edits) then
    bad('edits must be "auto", "client" or "disk"')
  end
  if type(o.save_edits) ~= 'boolean' then
    bad('save_edits must be true or false')
  end
  if type(o.chat) ~= 'table' or not vim.tbl_contains({ 'right', 'left', 'below', 'above', 'tab', 'current' }, o.chat.position) then
    bad('chat.position must be one of right, left, below, above, tab, current')
  elseif o.chat.conceal ~= nil and type(o.chat.conceal) ~= 'boolean' then
    bad('chat.conceal must be true or false')
  elseif o.chat.open_on_prompt ~= nil and type(o.chat.open_on_prompt) ~= 'boolean' then
    bad('chat.open_on_prompt must be true or false')
  end
  return problems
end

--- Merges user options over the defaults.
---@param user? agentls.Config
---@return agentls.ResolvedConfig
function M.merge(user)
  return vim.tbl_deep_extend('force', M.defaults(), user or {})
end

--- The initializationOptions: model (never a key or the key command), plan_mode, edits.
function M.init_options(o)
  local model = vim.deepcopy(o.model or {})
  model.api_key = nil
  model.api_key_cmd = nil
  local init = {}
  if next(model) then
    init.model = model
  end
  init.plan_mode = o.plan_mode
  init.edits = o.edits
  if next(init) == nil then
    return vim.empty_dict()
  end
  return init
end

--- The client capabilities: Neovim's own plus experimental.agent.
function M.capabilities(o, base)
  local caps = vim.deepcopy(base or vim.lsp.protocol.make_client_capabilities())
  -- the plugin opens what the server shows beside a question itself (init.lua), also on
  -- Neovim 0.7, whose own capabilities lack it: else a long question's document never shows
  caps.window = caps.window or {}
  caps.window.showDocument = { support = true }
  caps.experimental = caps.experimental or {}
  -- languageIntel: the plugin answers agent/diagnostics and agent/navigate (intel.lua);
  -- toolCallProgress: the chat shows a running call's newest line under its row (chat.lua)
  caps.experimental.agent = {
    askUser = true,
    modeIndicator = true,
    savesEdits = o.save_edits and true or false,
    languageIntel = true,
    toolCallProgress = true,
  }
  return caps
end

--- The environment variable that holds the API key.
function M.key_env(o)
  return (o.model and o.model.api_key_env) or 'OPENAI_API_KEY'
end

--- The server's extra environment: the API key from model.api_key_cmd when the variable is
--- not set already. `run` runs a command (list or string) and returns its output and exit code
--- (injected by tests). Returns env (table, possibly empty) and an error message or nil.
function M.server_env(o, getenv, run)
  local env = {}
  local var = M.key_env(o)
  if getenv(var) and getenv(var) ~= '' then
    return env, nil
  end
  local c = o.model and o.model.api_key_cmd
  if not c then
    return env, nil
  end
  local out, code = run(c)
  local key = vim.trim(out or '')
  if code ~= 0 or key == '' then
    return env, string.format('model.api_key_cmd failed (exit code %s)%s', tostring(code), key == '' and ', no output' or '')
  end
  env[var] = key
  return env, nil
end

--- Runs a command for server_env with vim.fn.system.
function M.run_cmd(c)
  local out = vim.fn.system(c)
  return out, vim.v.shell_error
end

return M
