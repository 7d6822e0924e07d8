-- :checkhealth agentls — the binary and its version, the running server, the model and its
-- context window (through agent/checkModel), the sandbox and the MCP servers (agent/status), and
-- the plugin's options. Uses vim.health (0.8+; start/ok/warn/error from 0.10, report_* before) or
-- require('health') on 0.7.
local protocol = require('agentls.protocol')
local M = {}

local function reporter()
  local h = vim.health or require('health')
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

-- Runs cmd and returns its output's first line, or nil.
local function version(bin)
  local out = vim.fn.system({ bin, 'version' })
  if vim.v.shell_error ~= 0 then
    return nil
  end
  return vim.split(vim.trim(out), '\n')[1]
end

-- Sends method with empty params and waits (at most timeout_ms, default 15000) for the answer.
local function request(client, method, timeout_ms)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, vim.empty_dict(), timeout_ms or 15000)
  end
  return client.request_sync(method, vim.empty_dict(), timeout_ms or 15000)
end

--- Runs the checks (`timeout_ms` bounds each of the agent/checkModel and agent/status requests;
--- default 15000).
function M.check(timeout_ms)
  local r = reporter()
  local agentls = require('agentls')
  local st = agentls.state()
  local o = st and st.opts or require('agentls.config').merge({})

  r.start('agentls: binary')
  local bin = vim.fn.exepath(o.cmd[1] or '')
  if bin == '' then
    r.error(string.format('%s not found on $PATH', tostring(o.cmd[1])), {
      'go install github.com/agentls/agentls/cmd/agentls@latest',
      'or set cmd = { "/path/to/agentls" } in setup()',
    })
  else
    local v = version(bin)
    if v then
      r.ok(string.format('%s: %s', bin, v))
    else
      r.warn(bin .. ' found, but `' .. bin .. ' version` failed')
    end
  end

  r.start('agentls: configuration')
  if not st then
    r.error('setup() was not called', { "require('agentls').setup({})" })
  else
    local problems = require('agentls.config').validate(st.opts)
    if #problems == 0 then
      r.ok('options are valid; project root ' .. st.root)
    else
      for _, p in ipairs(problems) do
        r.error(p)
      end
    end
    if st:client() then
      if #st.config_messages == 0 then
        r.ok('config files: the server reported no problem')
      end
      for _, m in ipairs(st.config_messages) do
        if m.type == 1 or m.type == 2 then
          r.error(m.message, { 'fix the file; the server ignores it until then' })
        else
          r.warn(m.message)
        end
      end
    end
    local key_var = require('agentls.config').key_env(st.opts)
    if (os.getenv(key_var) or '') ~= '' then
      r.ok('API key: $' .. key_var .. ' is set')
    elseif st.cfg and st.cfg.cmd_env and st.cfg.cmd_env[key_var] then
      r.ok('API key: from model.api_key_cmd')
    else
      r.info('API key: $' .. key_var .. ' is not set and there is no model.api_key_cmd (fine for local or scripted models)')
    end
  end

  r.start('agentls: server')
  local client = st and st:client()
  if not client then
    r.error('the server is not running', { 'open a file of the project, or see :LspLog' })
    return
  end
  local info = st.server_info or {}
  r.ok(string.format('running (client %d, %s %s, protocol %s)', client.id, info.name or 'agentls', info.version or '?', tostring(st.protocol_version or '?')))

  r.start('agentls: model')
  local m = M.model(r, request(client, protocol.methods.checkModel, timeout_ms)) or {}
  -- The sandbox, language intelligence and MCP servers from agent/status (no request to the
  -- model: reported even when the model does not answer); checkModel's copy from older servers.
  local res = request(client, protocol.methods.status, timeout_ms)
  local s = (res and not res.err and res.result) or m
  M.sandbox(r, s.sandbox)
  M.language_intel(r, s.languageIntel)
  M.mcp_servers(r, s.mcpServers)
end

--- Reports agent/checkModel's answer (`res, err` of request_sync); returns its result, or nil.
function M.model(r, res, err)
  if not res then
    r.error('agent/checkModel: ' .. tostring(err))
    return nil
  end
  if res.err then
    if res.err.code == -32601 then
      r.warn('this agentls does not implement agent/checkModel (protocol 2): the model was not checked', { 'update agentls' })
    else
      r.error('agent/checkModel: ' .. tostring(res.err.message))
    end
    return nil
  end
  local m = res.result or {}
  local what = string.format('%s %s', tostring(m.provider), tostring(m.model))
  if type(m.baseUrl) == 'string' and m.baseUrl ~= '' then
    what = what .. ' at ' .. m.baseUrl -- none for the scripted model
  end
  if m.ok then
    r.ok('model reachable: ' .. what)
    M.context_window(r, m)
  else
    r.error('model not reachable: ' .. what .. (m.message and m.message ~= vim.NIL and (': ' .. m.message) or ''))
  end
  return m
end

--- Reports the context window agent/checkModel gives with a model that answers, and where it
--- comes from (model.context_window, the server's report, the model's family); a warning when it
--- is only assumed. Nothing when the server does not say (older than contextWindow).
---@param m agentls.ModelCheck
function M.context_window(r, m)
  local n = tonumber(m.contextWindow)
  if not n or n <= 0 then
    return
  end
  local source = m.contextWindowSource
  source = (type(source) == 'string' and source ~= '') and M.visible(source) or nil
  local line = string.format('context window: %d tokens', n) .. (source and (' (' .. source .. ')') or '')
  if source and source:find('^assumed') then
    r.warn(line, {
      "set model.context_window to the window the model's server really has",
      'or use a server that reports its window (llama.cpp, LM Studio, Ollama, vLLM)',
    })
  else
    r.ok(line)
  end
end

--- How many of a server's tool names the report lists before "+N more" (as VS Code's tooltip).
M.mcp_tools_shown = 8

--- `text` (a name an MCP server chose) with control, line-separator and bidi characters written
--- as \uXXXX, so that it cannot start a line of its own or reorder the report's text.
function M.visible(text)
  local function code(c)
    local b1, b2, b3 = c:byte(1, 3)
    local cp = b1
    if #c == 2 then
      cp = (b1 % 32) * 64 + b2 % 64
    elseif #c == 3 then
      cp = (b1 % 16) * 4096 + (b2 % 64) * 64 + b3 % 64
    end
    return string.format('\\u%04X', cp)
  end
  return (
    tostring(text)
      :gsub('[%z\1-\31\127]', code)
      :gsub('\194[\128-\159]', code)
      :gsub('\226\128[\142\143\168\169\170-\174]', code)
      :gsub('\226\129[\166-\169]', code)
  )
end

--- A running or idle server's tools: the count and the first mcp_tools_shown names.
local function tools_of(s)
  local n = tonumber(s.tools) or 0
  local text = string.format('%d tool%s', n, n == 1 and '' or 's')
  local names = type(s.toolNames) == 'table' and s.toolNames or {}
  if #names == 0 then
    return text
  end
  local shown = {}
  for i = 1, math.min(#names, M.mcp_tools_shown) do
    table.insert(shown, M.visible(names[i]))
  end
  local more = #names > M.mcp_tools_shown and string.format(', +%d more', #names - M.mcp_tools_shown) or ''
  return text .. ': ' .. table.concat(shown, ', ') .. more
end

--- Reports each MCP server's state (agent/checkModel's `mcpServers`, docs/mcp.md): running or
--- idle with its tools' names, failed with the tail of its stderr, or skipped / stopped with why.
function M.mcp_servers(r, list)
  r.start('agentls: MCP servers')
  if type(list) ~= 'table' or #list == 0 then
    r.info('no MCP servers configured (mcp.servers, .mcp.json, .vscode/mcp.json; docs/mcp.md)')
    return
  end
  for _, s in ipairs(list) do
    -- What the server and the workspace's files chose, on one line and with nothing hidden.
    local function str(v)
      return (v ~= nil and v ~= vim.NIL) and M.visible(vim.trim((tostring(v):gsub('%s+', ' ')))) or ''
    end
    local what = string.format('%s (%s, from %s): %s', str(s.name), str(s.command), str(s.origin), str(s.state))
    if s.state == 'failed' then
      local advice = {}
      if str(s.reason) ~= '' then
        table.insert(advice, str(s.reason))
      end
      if str(s.stderrTail) ~= '' then
        table.insert(advice, 'its stderr ends with: ' .. str(s.stderrTail))
      end
      r.error(what, advice)
    elseif s.state == 'skipped' or s.state == 'stopped' or s.state == 'disabled' then
      r.info(what .. (str(s.reason) ~= '' and (': ' .. str(s.reason)) or ''))
    else
      r.ok(what .. ', ' .. tools_of(s))
    end
  end
end

--- Reports which source serves each file type (agent/checkModel's `languageIntel`,
--- docs/language-intel.md): the editor (this plugin, from your language clients), agentls's
--- pool, or none.
function M.language_intel(r, list)
  r.start('agentls: language intelligence')
  if type(list) ~= 'table' or #list == 0 then
    r.info('this agentls does not report its language intelligence (or lsp.source is off)')
    return
  end
  for _, l in ipairs(list) do
    local detail = (l.detail and l.detail ~= vim.NIL and l.detail ~= '') and (': ' .. tostring(l.detail)) or ''
    if l.source == 'editor' then
      r.ok(string.format('%s: Neovim (agent/diagnostics and agent/navigate from your language clients)', tostring(l.fileType)))
    elseif l.source == 'pool' then
      r.ok(string.format('%s: pool%s', tostring(l.fileType), detail))
    else
      r.info(string.format('%s: none%s', tostring(l.fileType), detail))
    end
  end
end

--- Reports the sandbox commands run in (agent/checkModel's `sandbox`).
function M.sandbox(r, sb)
  r.start('agentls: sandbox')
  if type(sb) ~= 'table' then
    r.info('this agentls does not report its sandbox (older than the sandbox)')
    return
  end
  local detail = string.format('landlock: %s; bwrap: %s', tostring(sb.landlock), tostring(sb.bwrap))
  if sb.mode == 'none' or sb.mode == 'off' then
    r.warn('sandbox: ' .. tostring(sb.summary), { detail, 'install bubblewrap, or set sandbox.mode to auto' })
    return
  end
  r.ok('sandbox: ' .. tostring(sb.summary))
  r.info(detail)
end

return M
