-- agentls: the Neovim client of the agentls language server (docs/protocol.md).
--
--   require('agentls').setup(opts)   -- starts agentls for the project (see :help agentls)
--   require('agentls').statusline()  -- "%#AgentlsPlan#PLAN%*" / "%#AgentlsBuild#BUILD%*" / ""
--   require('agentls').lualine()     -- a lualine component (no dependency on lualine)
--
-- All state lives in one State object per setup() (M.state()); setup() again replaces it.
local protocol = require('agentls.protocol')
local config = require('agentls.config')
local start = require('agentls.start')
local ask = require('agentls.ask')
local reply = require('agentls.reply')
local chatmod = require('agentls.chat')

local M = {}

--- All the plugin's state for one setup(): options, root, client, sessions, chat.
---@class agentls.State
---@field opts agentls.ResolvedConfig
---@field root string the project root
---@field client_id integer|nil
---@field session table|nil the current session (agent/newSession's result)
---@field server_info table|nil the server's serverInfo, once initialized
---@field protocol_version integer|nil
local State = {}
State.__index = State

local notify = require('agentls.notify').notify

local function set_highlights()
  vim.api.nvim_set_hl(0, 'AgentlsPlan', { default = true, fg = '#5f87ff', ctermfg = 69, bold = true })
  vim.api.nvim_set_hl(0, 'AgentlsBuild', { default = true, fg = '#5fd75f', ctermfg = 77, bold = true })
  vim.api.nvim_set_hl(0, 'AgentlsChatLink', { default = true, link = 'Underlined' }) -- a file name `gf` follows
  vim.api.nvim_set_hl(0, 'AgentlsChatLive', { default = true, link = 'Comment' }) -- a running call's newest line
end

--- The project root: the directory holding the first of `markers` found upwards from `dir`.
---@param markers? string[]
---@param dir? string default: the current directory
---@return string
function M.find_root(markers, dir)
  dir = dir or vim.fn.getcwd()
  for _, m in ipairs(markers or {}) do
    local f = vim.fn.findfile(m, dir .. ';')
    if f == '' then
      f = vim.fn.finddir(m, dir .. ';')
    end
    if f ~= '' then
      local root = vim.fn.fnamemodify(f, ':p:h'):gsub('/%.git$', '')
      return root
    end
  end
  return dir
end

-- request(client, ...) with the calling convention of the running Neovim.
local function client_request(client, method, params, handler)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler)
  end
  return client.request(method, params, handler)
end

--- A new State for merged options `o` (not started).
function State.new(o)
  local self = setmetatable({ opts = o, modes = {}, plan_files = {}, answers = {}, asks = {}, config_messages = {}, session = nil }, State)
  self.root = o.root and vim.fn.fnamemodify(o.root, ':p'):gsub('/$', '') or M.find_root(o.root_markers)
  self.chat = chatmod.new(function(text)
    self:prompt(text)
  end)
  self.chat.root = self.root -- the chat's file names are relative to it (`gf`)
  return self
end

--- The LSP client config (also what lsp/agentls.lua hands to vim.lsp.config).
function State:client_config()
  local env, err = config.server_env(self.opts, os.getenv, config.run_cmd)
  if err then
    notify(err, vim.log.levels.WARN)
  end
  return {
    name = 'agentls',
    cmd = self.opts.cmd,
    cmd_env = env,
    root_dir = self.root,
    workspace_folders = { { uri = vim.uri_from_fname(self.root), name = vim.fn.fnamemodify(self.root, ':t') } },
    init_options = config.init_options(self.opts),
    capabilities = config.capabilities(self.opts),
    handlers = self:handlers(),
    on_init = function(client, result)
      self.client_id = client.id
      self:server_initialized(result and result.serverInfo, result and result.capabilities)
    end,
    on_exit = function(code, signal, id)
      if id == self.client_id then
        self.client_id = nil
      end
      local abnormal = (code ~= 0 or signal ~= 0) and not self.stopping
      vim.schedule(function()
        -- The turn's reply never comes (Neovim calls no pending callback on exit).
        if self.busy then
          self.busy, self.busy_session = false, nil
          self.chat:interrupt_running() -- no call of the turn gets its end now
          self.chat:set_working(false)
          if abnormal then
            self.chat:note(string.format('the server exited during the turn (code %d, signal %d); see :LspLog', code, signal))
          end
        end
        if abnormal then
          notify(string.format('the server exited (code %d, signal %d); see :LspLog', code, signal), vim.log.levels.ERROR)
        end
      end)
    end,
  }
end

-- What the server said at initialize (ours, or an adopted client's): its name and version and
-- the agent protocol version. Runs the requests that waited for it.
function State:server_initialized(info, caps)
  self.server_info = info or { name = 'agentls' }
  local agent = caps and caps.experimental and caps.experimental.agent
  self.protocol_version = agent and agent.protocolVersion
  self:flush_waiting()
end

-- Runs the requests queued until the client was initialized (State:request).
function State:flush_waiting()
  local waiting = self.waiting or {}
  self.waiting = {}
  if self.wait_timer then
    self.wait_timer:stop()
    self.wait_timer:close()
    self.wait_timer = nil
  end
  for _, fn in ipairs(waiting) do
    vim.schedule(fn)
  end
end

-- Whether client `id` was started with this State's config (its on_init is ours).
function State:owns(id)
  local c = vim.lsp.get_client_by_id(id)
  if not c then
    return true -- a stand-in vim.lsp (tests): nothing to adopt
  end
  local cfg = c.config or {}
  return cfg.on_init == self.cfg.on_init or (c._on_init_cbs or {})[1] == self.cfg.on_init
end

-- Makes a running client (started by vim.lsp.enable('agentls')) this State's: our handlers
-- answer its requests from now on.
function State:adopt(id)
  local c = vim.lsp.get_client_by_id(id)
  if not c then
    return
  end
  self.adopted = true
  c.handlers = c.handlers or {}
  for method, fn in pairs(self.cfg.handlers) do
    c.handlers[method] = fn
  end
  if c.initialized then
    self:server_initialized(c.server_info, c.server_capabilities)
  else
    self:watch_initialized(id)
  end
end

--- Starts the server at once (feature-detected; `lsp` defaults to vim.lsp), or reuses a
--- running agentls client for the same root (e.g. one vim.lsp.enable('agentls') started);
--- `exclude` is the id of a client not to reuse (the previous setup()'s, being stopped).
function State:start(lsp, exclude)
  lsp = lsp or vim.lsp
  self.augroup = vim.api.nvim_create_augroup('agentls', { clear = true })
  set_highlights()
  vim.api.nvim_create_autocmd('ColorScheme', { group = self.augroup, callback = set_highlights })
  self.cfg = self:client_config()
  local existing = start.find_running(lsp, self.cfg.name, self.root)
  if existing == exclude then
    existing = nil
  end
  self.strategy, self.client_id = start.start(lsp, self.cfg, existing)
  if self.client_id and (existing or not self:owns(self.client_id)) then
    -- vim.lsp.start reused a client it found (started by vim.lsp.enable)
    self:adopt(self.client_id)
  end
  self.started = true
  if lsp == vim.lsp then
    M.register_config()
  end
end

--- Stops the server and forgets the autocmds.
function State:stop()
  self.stopping = true
  self.waiting = {}
  if self.wait_timer then
    self.wait_timer:stop()
    self.wait_timer:close()
    self.wait_timer = nil
  end
  local c = self:client()
  if c then
    vim.lsp.stop_client(c.id, true)
  end
  if self.augroup then
    pcall(vim.api.nvim_del_augroup_by_id, self.augroup)
    pcall(vim.api.nvim_del_augroup_by_name, start.augroup)
  end
end

--- The running client, or nil.
function State:client()
  if self.client_id then
    local c = vim.lsp.get_client_by_id(self.client_id)
    if c then
      return c
    end
  end
  if self.stopping then
    return nil
  end
  if self.started then
    -- ours restarted (the attach filter starts it again when it exited): same name and root
    local id = start.find_running(vim.lsp, 'agentls', self.root)
    self.client_id = id
    return id and vim.lsp.get_client_by_id(id) or nil
  end
  -- the State of lsp/agentls.lua without setup(): the client vim.lsp.enable started
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, c in ipairs(get({ name = 'agentls' }) or {}) do
    if c.name == 'agentls' then
      self.client_id = c.id
      return c
    end
  end
  return nil
end

--- Sends a request; cb(err, result) runs on the main loop. A request made before the server
--- answered initialize waits for it (a prompt right after setup() works).
function State:request(method, params, cb)
  local c = self:client()
  if not c and self.cfg and self.strategy == 'start' and vim.lsp.start then
    -- the server exited: start it again (for the project root, attaching nothing new)
    self.strategy, self.client_id = start.start(vim.lsp, self.cfg)
    c = self:client()
  end
  if not c then
    notify('the server is not running (:checkhealth agentls)', vim.log.levels.ERROR)
    return false
  end
  if not c.initialized then
    self.waiting = self.waiting or {}
    table.insert(self.waiting, function()
      self:request(method, params, cb)
    end)
    self:watch_initialized(c.id)
    return true
  end
  return client_request(c, method, params, function(err, result)
    cb(err, result)
  end)
end

-- Until client `id` is initialized (or gone), checks it every 20 ms: an adopted client's
-- on_init is not ours. Our own client's on_init flushes the queue first.
function State:watch_initialized(id)
  if self.wait_timer then
    return
  end
  local timer = vim.loop.new_timer()
  self.wait_timer = timer
  timer:start(
    20,
    20,
    vim.schedule_wrap(function()
      if self.wait_timer ~= timer then
        return
      end
      local c = vim.lsp.get_client_by_id(id)
      if c and c.initialized then
        if not self.server_info then
          self:server_initialized(c.server_info, c.server_capabilities)
        else
          self:flush_waiting()
        end
      elseif not c then
        self.waiting = {}
        timer:stop()
        timer:close()
        self.wait_timer = nil
        notify('the server exited before it was initialized (:checkhealth agentls)', vim.log.levels.ERROR)
      end
    end)
  )
end

-- Reports a request error; true when there was one.
local failed = require('agentls.notify').failed

--- The mode of the current session: 'plan', 'build' or nil.
function State:mode()
  return self.session and self.modes[self.session.sessionId] or nil
end

-- A mode change of session `sid`: the statusline, the chat header, the User autocmd.
function State:mode_changed(sid, mode, plan_file, source)
  local before = self.modes[sid]
  self.modes[sid] = mode
  if plan_file and plan_file ~= vim.NIL then
    self.plan_files[sid] = plan_file
  end
  if not self.session or self.session.sessionId ~= sid then
    return
  end
  self.chat.mode = mode
  self.chat:render()
  if before == mode and source ~= 'load' and source ~= 'user' then
    return
  end
  vim.cmd('redrawstatus!')
  local data = { sessionId = sid, mode = mode, planFile = plan_file, source = source }
  if not pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'AgentlsModeChanged', modeline = false, data = data }) then
    vim.api.nvim_exec_autocmds('User', { pattern = 'AgentlsModeChanged', modeline = false })
  end
end

-- Makes `s` (a Session) the current one.
function State:use_session(s)
  self.session = s
  self.modes[s.sessionId] = self.modes[s.sessionId] or s.mode
  if s.planFile and s.planFile ~= vim.NIL then
    self.plan_files[s.sessionId] = s.planFile
  end
  self.chat:reset(s.title ~= vim.NIL and s.title or nil)
  self:mode_changed(s.sessionId, s.mode, s.planFile, 'user')
end

--- Starts a new session (mode nil: the server's default); cb(session) when done.
function State:new_session(mode, cb, on_error)
  local params = mode and { mode = mode } or vim.empty_dict()
  self:request(protocol.methods.newSession, params, function(err, s)
    if failed(err, 'new session') then
      if on_error then
        on_error(err)
      end
      return
    end
    self:use_session(s)
    if cb then
      cb(s)
    end
  end)
end

-- Calls cb(session) with the current session, creating one first if needed.
function State:with_session(cb)
  if self.session then
    return cb(self.session)
  end
  if self.session_waiters then -- the last chat is being reopened (:AgentChat)
    table.insert(self.session_waiters, cb)
    return
  end
  self:new_session(nil, cb)
end

-- Makes the workspace's newest session current (the last chat, after a restart), or a new one
-- when there is none; requests that need a session meanwhile wait for it.
function State:reopen_last()
  if self.session or self.session_waiters then
    return
  end
  self.session_waiters = {}
  local function done(s)
    local waiters = self.session_waiters or {}
    self.session_waiters = nil
    for _, cb in ipairs(waiters) do
      if self.session then -- nil when neither worked (the error was shown)
        cb(self.session)
      end
    end
  end
  local sent = self:request(protocol.methods.listSessions, vim.empty_dict(), function(err, res)
    local last = not err and type(res) == 'table' and type(res.sessions) == 'table' and res.sessions[1] or nil
    if last and type(last.sessionId) == 'string' then
      self:load_session(last.sessionId, done, function()
        self:new_session(nil, done, done)
      end)
    else
      self:new_session(nil, done, done)
    end
  end)
  if not sent then
    self.session_waiters = nil
  end
end

--- Sends a prompt (context: {uri, range} or nil) to the current session; done(result), if
--- given, runs when the turn (or slash command) ended well.
function State:prompt(text, context, done)
  self:with_session(function(s)
    self.chat:user(text)
    self:send_prompt(s, { sessionId = s.sessionId, text = text, context = context }, done)
  end)
end

M.retry_hint = ':Agentls retry sends it again'

-- Sends agent/prompt `params` for session `s` and shows how the turn ended.
function State:send_prompt(s, params, done)
  self.busy, self.busy_session = true, s.sessionId
  self.chat:set_working(true)
  self:request(protocol.methods.prompt, params, function(err, res)
    self.busy, self.busy_session = false, nil
    self.chat:set_working(false)
    self.last_result = err and { error = err } or res
    if err then
      self.chat:note('error: ' .. (err.message or ''))
      failed(err, 'prompt')
      return
    end
    if res.stopReason == 'error' then
      local why = res.error and res.error ~= vim.NIL and res.error.message or '?'
      self.chat:note('error: ' .. tostring(why) .. ' (' .. M.retry_hint .. ')')
    elseif res.stopReason == 'max_tokens' then
      self.chat:note("cut off: the model reached its output token limit (model.max_tokens, or the endpoint's own); ask it to continue")
    elseif res.stopReason ~= 'end_turn' then
      local why = res.error and res.error ~= vim.NIL and res.error.message or nil
      self.chat:note('turn ended: ' .. tostring(res.stopReason) .. (why and (' — ' .. why) or ''))
    end
    if type(res.sessionId) == 'string' and res.sessionId ~= s.sessionId then
      self:load_session(res.sessionId) -- /new started it
    end
    if done then
      done(res)
    end
  end)
end

--- Sends the current session's failed last prompt again (agent/prompt retryOf): the prompt
--- whose turn ended with an error, also before a restart.
function State:retry()
  self:with_session(function(s)
    self:request(protocol.methods.loadSession, { sessionId = s.sessionId }, function(err, loaded)
      if failed(err, 'retry') then
        return
      end
      local last
      for _, m in ipairs(loaded.messages or {}) do
        if m.role == 'user' then
          last = m
        end
      end
      if not (last and type(last.error) == 'string' and last.error ~= '' and type(last.id) == 'string') then
        return notify('no failed prompt to retry')
      end
      self.chat:note('retrying: ' .. vim.split(tostring(last.content or ''), '\n', true)[1])
      self:send_prompt(s, { sessionId = s.sessionId, text = '', retryOf = last.id })
    end)
  end)
end

--- Switches the current session's mode; build→plan asks for confirmation first.
function State:set_mode(mode)
  if mode ~= 'plan' and mode ~= 'build' then
    return notify('mode must be plan or build', vim.log.levels.ERROR)
  end
  self:with_session(function(s)
    local function go()
      self:request(protocol.methods.setMode, { sessionId = s.sessionId, mode = mode }, function(err, res)
        if not failed(err, 'set mode') then
          self:mode_changed(s.sessionId, res.mode, res.planFile, 'user')
        end
      end)
    end
    if self:mode() == 'build' and mode == 'plan' then
      local choices = { 'Switch to PLAN', 'Stay in BUILD' }
      vim.ui.select(choices, { prompt = 'Switch to plan mode? The agent stops changing files.', kind = 'agentls' }, function(c)
        if c == choices[1] then
          go()
        end
      end)
      return
    end
    go()
  end)
end

--- Approves (decision 'approve') or rejects (with a reason) the plan awaiting approval in session
--- session_id (the current one when nil). plan_file, when given, is the plan the user was shown
--- (workspace-relative): the server refuses the decision when the session awaits another plan now.
function State:resolve_plan(decision, reason, session_id, plan_file)
  if not session_id and not self.session then
    return notify('no session', vim.log.levels.WARN)
  end
  local sid = session_id or self.session.sessionId
  local function go(r)
    local params = { sessionId = sid, decision = decision, reason = r, planFile = plan_file }
    self:request(protocol.methods.resolvePlan, params, function(err, res)
      if not failed(err, decision == 'approve' and 'approve' or 'reject') then
        self:mode_changed(sid, res.mode, res.planFile, 'user')
      end
    end)
  end
  if decision == 'reject' and (not reason or reason == '') then
    return vim.ui.input({ prompt = 'Why keep planning? ' }, function(r)
      if r and r ~= '' then
        go(r)
      end
    end)
  end
  go(reason)
end

--- Cancels the current session's turn.
function State:cancel()
  if not self.session then
    return
  end
  self:request(protocol.methods.cancel, { sessionId = self.session.sessionId }, function(err)
    failed(err, 'cancel')
  end)
end

--- An RFC 3339 time ("2026-11-26T10:53:35Z", "…+02:00") as local time, "2026-11-26 11:53";
--- anything else as it is.
---@param ts string|nil
---@return string
function M.short_date(ts)
  if type(ts) ~= 'string' then
    return ''
  end
  local y, mo, d, hh, mi, ss, zone = ts:match('^(%d+)%-(%d+)%-(%d+)T(%d+):(%d+):(%d+)[%.%d]*(.*)$')
  if not y then
    return ts
  end
  local offset = 0 -- the time's offset from UTC, in seconds
  local sign, zh, zm = zone:match('^([+-])(%d%d):?(%d%d)$')
  if sign then
    offset = (tonumber(zh) * 3600 + tonumber(zm) * 60) * (sign == '-' and -1 or 1)
  elseif zone ~= 'Z' and zone ~= '' then
    return ts
  end
  -- seconds since the epoch (days from the civil date: Howard Hinnant's algorithm)
  local yy, m = tonumber(y), tonumber(mo)
  if m <= 2 then
    yy = yy - 1
  end
  local era = math.floor(yy / 400)
  local yoe = yy - era * 400
  local mp = (m + 9) % 12
  local doy = math.floor((153 * mp + 2) / 5) + tonumber(d) - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  local days = era * 146097 + doe - 719468
  local epoch = days * 86400 + tonumber(hh) * 3600 + tonumber(mi) * 60 + tonumber(ss) - offset
  return os.date('%Y-%m-%d %H:%M', epoch)
end
local short_date = M.short_date

--- How a session is listed in the history: "Fix the login bug  ·  2026-11-26 10:53  ·  PLAN".
---@param s agentls.Session
---@return string
function M.history_item(s)
  local title = type(s.title) == 'string' and s.title ~= '' and s.title or '(untitled)'
  return string.format('%s  ·  %s  ·  %s', title, short_date(s.updatedAt or s.createdAt), (s.mode or ''):upper())
end

--- The history: lists the sessions (newest first) with their titles and dates and opens the
--- one picked (vim.ui.select) in the chat.
function State:pick_session()
  self:request(protocol.methods.listSessions, vim.empty_dict(), function(err, res)
    if failed(err, 'list sessions') then
      return
    end
    local items = res.sessions or {}
    if #items == 0 then
      return notify('no chats yet: :Agentls chat starts one')
    end
    vim.ui.select(items, {
      prompt = 'agentls: open a chat (newest first)',
      kind = 'agentls.history',
      format_item = M.history_item,
    }, function(s)
      if s then
        self:load_session(s.sessionId, function()
          self.chat:open(self.opts.chat.position, self.opts.chat.width, self.opts.chat.conceal)
        end)
      end
    end)
  end)
end

--- Renames the current session (agent/setTitle); without a title it asks for one.
function State:rename(title)
  self:with_session(function(s)
    local function go(t)
      self:request(protocol.methods.setTitle, { sessionId = s.sessionId, title = t }, function(err, res)
        if failed(err, 'rename') then
          return
        end
        local new = type(res) == 'table' and type(res.title) == 'string' and res.title or t
        s.title = new
        self.chat:update({ sessionUpdate = 'session_info_update', title = new })
      end)
    end
    title = vim.trim(title or '')
    if title ~= '' then
      return go(title)
    end
    local current = type(s.title) == 'string' and s.title or ''
    vim.ui.input({ prompt = 'Rename the chat: ', default = current }, function(t)
      if t and vim.trim(t) ~= '' then
        go(vim.trim(t))
      end
    end)
  end)
end

local function given(v)
  return v ~= nil and v ~= vim.NIL
end

--- Rebuilds the chat from a loaded session's messages, as it was shown: each tool call with
--- its persisted title and status (a refused call stays refused), the questions it asked
--- with the user's answers as text, a failed prompt's error, and the model's thinking before
--- an answer (its `thinking`, shown as the live thought).
function State:replay(messages)
  local chat = self.chat
  for _, m in ipairs(messages or {}) do
    local content = given(m.content) and m.content or nil
    if m.role == 'user' and content then
      chat:user(content)
      if given(m.error) and m.error ~= '' then
        chat:note('error: ' .. tostring(m.error) .. ' (' .. M.retry_hint .. ')')
      end
    elseif m.role == 'assistant' then
      -- the model's thinking before this answer, shown as live (its agent_thought_chunk)
      if given(m.thinking) and m.thinking ~= '' then
        chat:update({ sessionUpdate = 'agent_thought_chunk', content = { text = m.thinking } })
      end
      if content and content ~= '' then
        chat:update({ sessionUpdate = 'agent_message_chunk', content = { text = content .. '\n' } })
      end
      for _, tc in ipairs(given(m.tool_calls) and m.tool_calls or {}) do
        local title = given(tc.title) and tc.title ~= '' and tc.title or tc.name
        chat:update({
          sessionUpdate = 'tool_call',
          toolCallId = tc.id,
          title = title,
          kind = tc.kind,
          status = 'pending',
          name = given(tc.name) and tc.name or nil,
          rawInput = given(tc.arguments) and tc.arguments or nil, -- JSON text: read as the live rawInput
        })
      end
    elseif m.role == 'tool' and given(m.tool_call_id) and chat.tools[m.tool_call_id] then
      -- how the call ended (a refused call stays failed, with its refusal); a task call keeps
      -- its sub-agent's result (status, tokens); its own calls are in its session
      local status = given(m.status) and m.status or 'completed'
      chat:update({
        sessionUpdate = 'tool_call_update',
        toolCallId = m.tool_call_id,
        status = status,
        refusal = given(m.refusal) and m.refusal or nil,
        rawOutput = content,
      })
      if given(m.questions) then
        chat.tools[m.tool_call_id].qa = chatmod.answered(m.questions, m.answers, m.dismissed)
      end
    end
  end
end

--- Loads a session and shows its conversation in the chat.
function State:load_session(id, cb, on_error)
  self:request(protocol.methods.loadSession, { sessionId = id }, function(err, s)
    if failed(err, 'load session') then
      if on_error then
        on_error(err)
      end
      return
    end
    self:use_session(s)
    self:replay(s.messages)
    if not (self.busy and self.busy_session == id) then
      -- a call the history has no result for ran when the server was killed: it never ends
      self.chat:interrupt_running()
    end
    self.chat:render()
    if cb then
      cb(s)
    end
  end)
end

--- Opens the chat buffer; without a current session it reopens the workspace's last chat (or
--- starts one).
function State:open_chat()
  local w = self.chat:open(self.opts.chat.position, self.opts.chat.width, self.opts.chat.conceal)
  self:reopen_last()
  return w
end

--- Opens the chat for a prompt sent while no window shows it (`chat.open_on_prompt`), so that the
--- agent's answer is on the screen: beside the current window, whose cursor stays where it was
--- (`tab` and `current` show it where they say). Unlike :Agentls chat it reopens no earlier chat.
function State:show_chat_for_prompt()
  local b = self.chat.bufnr
  if self.opts.chat.open_on_prompt == false or (b and vim.fn.bufwinid(b) ~= -1) then
    return
  end
  local from = vim.api.nvim_get_current_win()
  local pos = self.opts.chat.position
  self.chat:open(pos, self.opts.chat.width, self.opts.chat.conceal)
  if pos ~= 'tab' and pos ~= 'current' and vim.api.nvim_win_is_valid(from) then
    vim.api.nvim_set_current_win(from)
  end
end

-- The plan file of a plan-approval question: the one it approves (permission.what), else the
-- session's, else one named in the question.
function State:approval_plan(params)
  -- The plan the question approves (its permission's `what`), not the session's attached plan,
  -- which can be another one (exit_plan_mode on a second plan).
  local p = type(params.permission) == 'table' and params.permission or {}
  local rel = (p.kind == 'plan' and type(p.what) == 'string' and p.what ~= '') and p.what or self.plan_files[params.sessionId]
  if not rel then
    for _, q in ipairs(params.questions or {}) do
      rel = rel or (q.question or ''):match('([%w%._/%-]+%.plan)')
    end
  end
  if not rel then
    return nil
  end
  if rel:sub(1, 1) == '/' then
    return rel
  end
  return self.root .. '/' .. rel
end

-- The window showing file `path`, or nil.
local function window_of(path)
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    local name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w))
    if name ~= '' and vim.fn.fnamemodify(name, ':p') == path then
      return w
    end
  end
  return nil
end

--- Shows the plan of a plan-approval question (unless a window shows it already). With Neovim's
--- own vim.ui.select, which prints the question over the bottom of the screen, in a split above
--- the current window clear of the question's rows (plan_window.lua); with a replacement (a
--- floating picker, the whole question in a window at the top), in a split below it. Returns
--- the window and, when it shows only the plan's beginning, a note for the question.
---@return integer?, string?
function State:show_plan(params)
  local path = self:approval_plan(params)
  if not path or window_of(path) then
    return path and window_of(path), nil
  end
  if require('agentls.question_window').builtin(vim.ui.select) then
    return require('agentls.plan_window').open(path, params)
  end
  return self:show_in_split(path), nil
end

--- Shows file `path` in a split below the current window, unless a window shows it already;
--- returns that window (nil without a path).
function State:show_in_split(path)
  if not path then
    return nil
  end
  local w = window_of(path)
  if w then
    return w
  end
  vim.cmd('belowright split ' .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_win()
end

-- agent/askUser: asks through vim.ui and replies when the user has answered.
function State:on_ask(params)
  local d = reply.defer()
  local pending = { params = params, reply = d }
  if d.id then
    self.asks[d.id] = pending
  end
  local approval = params.purpose == 'plan_approval'
  -- Without a deferred reply, a plan approval can be answered "dismissed" at once and resolved
  -- later only where a dismissed approval stays pending (protocol 2).
  local resolve_later = d.mode == 'none' and approval and (tonumber(self.protocol_version) or 1) >= 2
  local function finish(result)
    if d.id then
      self.asks[d.id] = nil
    end
    if pending.withdrawn then
      return
    end
    if result.answers then
      self.answers[params.questionId] = result.answers
    end
    if self.session and params.sessionId == self.session.sessionId and (result.answers or result.dismissed) then
      -- the answers as text, under the call that asked (a permission names it)
      local call = type(params.permission) == 'table' and params.permission.toolCallId or nil
      self.chat:answered(params.questions, result.answers, result.dismissed, call)
    end
    if resolve_later then
      -- answered "dismissed" at once: resolve the pending approval now
      local a = result.answers or {}
      -- the session whose plan was shown, and that plan (the server refuses it if another awaits)
      local perm = type(params.permission) == 'table' and params.permission or {}
      local shown = (perm.kind == 'plan' and type(perm.what) == 'string' and perm.what ~= '') and perm.what or nil
      if a.approve == true then
        self:resolve_plan('approve', nil, params.sessionId, shown)
      elseif a.approve == false then
        local fb = a.feedback
        self:resolve_plan('reject', (fb and fb ~= '') and fb or 'the user chose to keep planning', params.sessionId, shown)
      end
      return
    end
    d.send(result)
  end
  vim.schedule(function()
    local note
    if approval then
      note = select(2, self:show_plan(params))
    end
    -- A question too long to list itself names its generated document (permission.document):
    -- shown here too, not only when the server's window/showDocument is handled. On 0.7 the
    -- default vim.ui.select blocks every callback, so a showDocument read after the question
    -- would open the list only once the question was answered.
    local doc = type(params.permission) == 'table' and params.permission.document
    if type(doc) == 'string' and doc:sub(1, 1) == '/' and vim.loop.fs_stat(doc) then
      self:show_in_split(doc)
    end
    -- Draw the chat and the plan now: the default vim.ui.select (an inputlist) blocks the
    -- screen until the choice is made, so without this the plan appeared only after it (0.7),
    -- and a run question stood under a chat that did not yet show what led to it (the agent's
    -- words, the last tool call still "…").
    self.chat:flush()
    vim.cmd('redraw')
    pending.form = ask.collect(params, self.answers[params.questionId], finish, note)
  end)
  if d.mode == 'none' then
    if resolve_later then
      return { dismissed = true }
    end
    local done
    local old = finish
    finish = function(r)
      done = r
      old(r)
    end
    vim.wait(24 * 3600 * 1000, function()
      return done ~= nil
    end, 50)
    return done
  end
  return d.wait()
end

-- Writes the loaded, modified buffers of the documents a workspace edit touched.
function State:save_edited(edit)
  local uris = {}
  for uri in pairs(edit.changes or {}) do
    table.insert(uris, uri)
  end
  for _, dc in ipairs(edit.documentChanges or {}) do
    if dc.textDocument then
      table.insert(uris, dc.textDocument.uri)
    elseif dc.kind == 'create' then
      table.insert(uris, dc.uri)
    elseif dc.kind == 'rename' then
      table.insert(uris, dc.newUri)
    end
  end
  for _, uri in ipairs(uris) do
    local b = vim.uri_to_bufnr(uri)
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].modified then
      local ok, err = pcall(vim.api.nvim_buf_call, b, function()
        vim.cmd('silent keepalt write')
      end)
      if not ok then
        notify('could not save ' .. vim.uri_to_fname(uri) .. ': ' .. tostring(err), vim.log.levels.WARN)
      end
    end
  end
end

--- The handlers the client is started with.
function State:handlers()
  local default_apply = vim.lsp.handlers['workspace/applyEdit']
  local default_show = vim.lsp.handlers['window/showMessage']
  local hs = {
    ['window/showMessage'] = function(err, p, ctx, cfg)
      -- the server's verdict on the config files, kept for :checkhealth
      if p and type(p.message) == 'string' and p.message:find('^agentls config ') then
        table.insert(self.config_messages, p)
      end
      return default_show(err, p, ctx, cfg)
    end,
    [protocol.methods.update] = function(_, p)
      local u = p and p.update
      if not u then
        return
      end
      if u.sessionUpdate == 'plan' and u.planFile and u.planFile ~= vim.NIL then
        self.plan_files[p.sessionId] = u.planFile
      end
      if u.sessionUpdate == 'current_mode_update' then
        self:mode_changed(p.sessionId, u.currentModeId, nil, 'tool')
      end
      if u.sessionUpdate == 'tool_call_update' and (u.status == 'completed' or u.status == 'failed') then
        -- an edit may have gone on disk behind an open buffer (reload.lua)
        require('agentls.reload').unmodified()
      end
      if self.session and p.sessionId == self.session.sessionId then
        if u.sessionUpdate == 'session_info_update' and type(u.title) == 'string' then
          self.session.title = u.title
        end
        self.chat:update(u)
      end
    end,
    ['window/showDocument'] = function(err, p, ctx, cfg)
      -- The server opens a file only beside a question: a plan before its approval, the
      -- generated document of a question too long to list itself (config.capabilities declares
      -- showDocument on every Neovim). It goes in a split, so the window you were in stays.
      if p and type(p.uri) == 'string' and p.uri:match('^file:') then
        local w = self:show_in_split(vim.uri_to_fname(p.uri))
        if w and p.takeFocus == false then
          vim.cmd('wincmd p')
        end
        return { success = w ~= nil }
      end
      local default = vim.lsp.handlers['window/showDocument']
      if default then
        return default(err, p, ctx, cfg)
      end
      return { success = false }
    end,
    [protocol.methods.modeChanged] = function(_, p)
      self:mode_changed(p.sessionId, p.mode, p.planFile, p.source)
    end,
    [protocol.methods.askUser] = function(_, p)
      return self:on_ask(p)
    end,
    ['$/progress'] = function(err, p, ctx, cfg)
      -- the turn's work-done progress, also under the chat's working line (without its mode)
      local v = type(p) == 'table' and p.value
      if type(v) == 'table' then
        if v.kind == 'end' then
          self.chat:set_activity(nil)
          require('agentls.reload').unmodified() -- a command's rewind may have written on disk
        elseif type(v.message) == 'string' and v.message ~= '' then
          self.chat:set_activity((v.message:gsub('^%u+: ', '')))
        end
      end
      local default = vim.lsp.handlers['$/progress']
      if default then
        return default(err, p, ctx, cfg)
      end
    end,
    ['$/cancelRequest'] = function(_, p)
      local a = p and self.asks[p.id]
      if a then
        a.withdrawn = true
        self.asks[p.id] = nil
        if a.form then
          a.form.close() -- the window showing it; the picker is the vim.ui replacement's
        end
        a.reply.cancel() -- the handler waiting for the answer ends (its coroutine, 0.10+)
        notify('the question was withdrawn')
      end
    end,
    ['workspace/applyEdit'] = function(err, p, ctx, cfg)
      local res = default_apply(err, p, ctx, cfg)
      if res and res.applied and self.opts.save_edits and p and p.edit then
        self:save_edited(p.edit)
      end
      return res
    end,
  }
  -- agent/diagnostics and agent/navigate: the editor's truth (intel.lua)
  for method, fn in
    pairs(require('agentls.intel').handlers(function()
      return self.client_id
    end))
  do
    hs[method] = fn
  end
  -- self.trace(method, params), when set (the tests set it), sees every message first.
  for method, fn in pairs(hs) do
    hs[method] = function(err, p, ctx, cfg)
      if self.trace then
        self.trace(method, err or p)
      end
      return fn(err, p, ctx, cfg)
    end
  end
  return hs
end

--- Sets up the plugin: validates `opts`, starts the server, returns the State.
---@param opts? agentls.Config (:help agentls-options)
---@return agentls.State
function M.setup(opts)
  local o = config.merge(opts)
  local problems = config.validate(o)
  if #problems > 0 then
    notify('invalid options: ' .. table.concat(problems, '; '), vim.log.levels.ERROR)
  end
  if o.log_level then
    vim.lsp.set_log_level(o.log_level)
  end
  -- The previous setup()'s server stops; a client vim.lsp.enable('agentls') started (with the
  -- default State of lsp/agentls.lua) is reused.
  local exclude
  if M._state and M._state.started then
    exclude = M._state.client_id
    M._state:stop()
  end
  local st = State.new(o)
  st.problems = problems
  M._state = st
  if not vim.tbl_contains(
    vim.tbl_map(function(p)
      return p:match('^cmd ') ~= nil
    end, problems),
    true
  ) then
    st:start(nil, exclude)
  end
  return st
end

-- The State whose handlers and root apply now: setup()'s, else lsp/agentls.lua's default.
local function current_state()
  return M.state_or_default()
end

--- What setup() adds to `vim.lsp.config('agentls')` (Neovim 0.11+), so that
--- `vim.lsp.enable('agentls')`, before or after setup(), uses the same client and filter: the
--- root of setup() is fixed and only files under it start or attach to the server; a running
--- agentls client of that root is reused; requests go to the current State's handlers. Each
--- function looks at the current State when called (setup() again, teardown()).
---@return table config what vim.lsp.config('agentls', …) takes
function M.enable_config()
  local handlers = {}
  -- the method names, from a State that is not kept (M._state stays as it is)
  for method in pairs(State.new(config.merge({})):handlers()) do
    handlers[method] = function(...)
      local st = current_state()
      st.bound_handlers = st.bound_handlers or (st.cfg and st.cfg.handlers) or st:handlers()
      return st.bound_handlers[method](...)
    end
  end
  return {
    handlers = handlers,
    root_dir = function(b, on_dir)
      local st = M._state
      if st and st.started and not st.stopping then
        -- setup()'s own attach filter attaches b to its client (start.lua). Handing the root to
        -- vim.lsp.enable would only schedule a vim.lsp.start that runs after whatever comes
        -- next, and once teardown() stopped the client, it would start a new one nobody owns.
        return
      end
      -- no setup(): the file's project, found by the root markers
      local markers = M._state and M._state.opts.root_markers or config.defaults().root_markers
      on_dir(vim.fs and vim.fs.root and vim.fs.root(b, markers) or nil)
    end,
    reuse_client = function(client, cfg)
      local st = M._state
      if st and st.started and not st.stopping then
        return client.id == st.client_id or start.same_server(client, 'agentls', st.root)
      end
      return type(cfg.root_dir) == 'string' and start.same_server(client, 'agentls', vim.fn.fnamemodify(cfg.root_dir, ':p'):gsub('/$', ''))
    end,
  }
end

--- Registers M.enable_config() with vim.lsp.config (0.11+; nothing on older Neovim). Calling it
--- again also drops vim.lsp.config's cached resolution of lsp/agentls.lua.
function M.register_config()
  local c = vim.lsp.config
  local callable = type(c) == 'function' or (type(c) == 'table' and getmetatable(c) ~= nil and getmetatable(c).__call ~= nil)
  if callable and type(vim.lsp.enable) == 'function' then
    vim.lsp.config('agentls', M.enable_config())
  end
end

--- The State of the last setup(), or nil.
---@return agentls.State|nil
function M.state()
  return M._state
end

--- The State, made from the defaults (not started) when setup() was not called: what
--- lsp/agentls.lua uses when Neovim 0.11+ starts the server by vim.lsp.enable('agentls').
---@return agentls.State
function M.state_or_default()
  if not M._state then
    M._state = State.new(config.merge({}))
    M._state.problems = {}
  end
  return M._state
end

--- Stops the server and forgets the state.
---@return nil
function M.teardown()
  if M._state then
    M._state:stop()
    M._state = nil
    M.register_config()
  end
end

--- "PLAN", "BUILD" or "" (no session yet).
---@return string
function M.mode()
  local m = M._state and M._state:mode()
  return m and m:upper() or ''
end

--- The statusline item: the mode in its highlight group, or "".
---@return string
function M.statusline()
  local m = M.mode()
  if m == '' then
    return ''
  end
  return string.format('%%#%s#%s%%*', m == 'BUILD' and 'AgentlsBuild' or 'AgentlsPlan', m)
end

--- A lualine component: `sections = { lualine_x = { require('agentls').lualine() } }`.
---@return table
function M.lualine()
  return {
    function()
      return M.mode()
    end,
    cond = function()
      return M.mode() ~= ''
    end,
    color = function()
      return M.mode() == 'BUILD' and 'AgentlsBuild' or 'AgentlsPlan'
    end,
  }
end

-- The commands' entry points (plugin/agentls.lua).
local function need()
  if not M._state then
    notify("call require('agentls').setup() first", vim.log.levels.ERROR)
  end
  return M._state
end

--- `:Agentls chat`: opens the chat (the last one after a restart).
---@return integer|nil window the chat's window
function M.chat()
  local st = need()
  return st and st:open_chat()
end

--- `:Agentls prompt {text}`; with a range (line1, line2 of the current buffer) the lines go as context.
---@param text? string asked for when empty
---@param line1? integer
---@param line2? integer
function M.prompt(text, line1, line2)
  local st = need()
  if not st then
    return
  end
  local context
  if line1 and line2 then
    local b = vim.api.nvim_get_current_buf()
    local last = vim.api.nvim_buf_get_lines(b, line2 - 1, line2, false)[1] or ''
    context = {
      uri = vim.uri_from_bufnr(b),
      range = { start = { line = line1 - 1, character = 0 }, ['end'] = { line = line2 - 1, character = #last } },
    }
  end
  if not text or text == '' then
    return vim.ui.input({ prompt = 'Prompt: ' }, function(t)
      if t and t ~= '' then
        st:show_chat_for_prompt()
        st:prompt(t, context)
      end
    end)
  end
  st:show_chat_for_prompt()
  st:prompt(text, context)
end

--- `:Agentls {subcommand} [args]`: one of the plugin's subcommands (agentls.subcommands: chat,
--- prompt, mode, approve, reject, cancel, history, rename, diff, review, problems,
--- requestchanges, health), else a slash command (docs/commands.md) sent as the prompt, whose
--- answer is shown in the chat and as a message.
---@param args string
---@param o? table the user command's table (range, line1, line2)
function M.command(args, o)
  args = vim.trim(args or '')
  if args == '' then
    return notify('usage: :Agentls {subcommand} [args] (Tab completes them)', vim.log.levels.WARN)
  end
  if require('agentls.subcommands').run(args, o) then
    return
  end
  local st = need()
  if not st then
    return
  end
  -- :Agentls diff and :Agentls review are the plugin's own (review.lua), and so is
  -- :Agentls requestchanges (plan_review.lua)
  if require('agentls.review').dispatch(st, args) or require('agentls.plan_review').dispatch(st, args) then
    return
  end
  -- :Agentls problems: the last edit's new problems in the quickfix list (problems.lua)
  if require('agentls.problems').dispatch(st, args) then
    return
  end
  if args:sub(1, 1) ~= '/' then
    args = '/' .. args
  end
  st:prompt(args, nil, function(res)
    if type(res.text) == 'string' and res.text ~= '' then
      notify(res.text)
    end
  end)
end

--- `:Agentls new` (and the deprecated :AgentNew [plan|build]): starts a new session.
---@param mode? 'plan'|'build'|'' '' or nil: the server's default
function M.new_session(mode)
  local st = need()
  return st and st:new_session(mode ~= '' and mode or nil)
end

--- `:Agentls mode plan|build`: switches the current session's mode.
---@param mode 'plan'|'build'
function M.set_mode(mode)
  local st = need()
  return st and st:set_mode(mode)
end

--- `:Agentls approve`: approves the plan awaiting approval.
function M.approve()
  local st = need()
  return st and st:resolve_plan('approve')
end

--- `:Agentls reject {reason}`: keeps planning, telling the agent why.
---@param reason? string asked for when empty
function M.reject(reason)
  local st = need()
  return st and st:resolve_plan('reject', reason)
end

--- `:Agentls cancel`: cancels the current session's turn.
function M.cancel()
  local st = need()
  return st and st:cancel()
end

--- `:Agentls history`: pick a chat by title and date (local time) and open it.
function M.sessions()
  local st = need()
  return st and st:pick_session()
end

--- `:Agentls retry`: sends the failed last prompt again.
function M.retry()
  local st = need()
  return st and st:retry()
end

--- `:Agentls rename {title}`: renames the current chat (asks for the title when empty).
---@param title? string
function M.rename(title)
  local st = need()
  return st and st:rename(title)
end

--- `:Agentls details`: the raw input and output of the tool call under the cursor in the chat
--- (else the last one), in a split (`K` on a call's line in the chat does the same).
function M.details()
  local st = need()
  return st and st.chat:details()
end

M._State = State
return M
