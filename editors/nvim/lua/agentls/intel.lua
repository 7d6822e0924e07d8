-- agentls.intel: the editor's truth (docs/language-intel.md). The plugin declares
-- experimental.agent.languageIntel and answers the server's agent/diagnostics (from
-- vim.diagnostic.get) and agent/navigate (a request to each language client attached to the
-- file, agentls itself left out, waited for at most M.timeout_ms, as vim.lsp.buf_request_sync
-- does). Documents are loaded without being shown (bufadd + bufload). The wire's positions are
-- UTF-16; each client's own encoding and vim.diagnostic's byte columns are converted.
local protocol = require('agentls.protocol')
local M = {}

--- How long agent/navigate waits for the language servers (ms).
M.timeout_ms = 5000

--- The most items an answer carries when the server gave no limit.
M.default_limit = 50

local function is_nil(v)
  return v == nil or v == vim.NIL
end

local function char_len(b)
  if b >= 0xF0 then
    return 4
  elseif b >= 0xE0 then
    return 3
  elseif b >= 0xC0 then
    return 2
  end
  return 1
end

--- Column `col` of `line` counted in encoding `from` ('utf-8', 'utf-16', 'utf-32'), in encoding
--- `to`. A column past the line's end keeps its excess.
function M.convert_col(line, col, from, to)
  if from == to or not line then
    return col
  end
  local units = { ['utf-8'] = 0, ['utf-16'] = 0, ['utf-32'] = 0 }
  local i = 1
  while i <= #line and units[from] < col do
    local n = char_len(line:byte(i))
    units['utf-8'] = units['utf-8'] + n
    units['utf-16'] = units['utf-16'] + (n == 4 and 2 or 1)
    units['utf-32'] = units['utf-32'] + 1
    i = i + n
  end
  return units[to] + math.max(col - units[from], 0)
end

-- Line `lnum` (0-based) of file `fname`: from its buffer when loaded, else from the disk.
local function file_line(fname, lnum)
  local b = vim.fn.bufnr(fname)
  if b ~= -1 and vim.api.nvim_buf_is_loaded(b) then
    return vim.api.nvim_buf_get_lines(b, lnum, lnum + 1, false)[1]
  end
  local ok, lines = pcall(vim.fn.readfile, fname, '', lnum + 1)
  return ok and lines[lnum + 1] or nil
end

-- The position `p` of file `uri` converted between encodings.
local function convert_pos(uri, p, from, to)
  if from == to then
    return { line = p.line, character = p.character }
  end
  local line = file_line(vim.uri_to_fname(uri), p.line)
  return { line = p.line, character = M.convert_col(line, p.character, from, to) }
end

local function convert_range(uri, r, from, to)
  return { start = convert_pos(uri, r.start, from, to), ['end'] = convert_pos(uri, r['end'], from, to) }
end

--- How long after a buffer is loaded its problems wait for its language servers' first
--- publishDiagnostics (ms): until one has published for it, a buffer loaded this recently reports
--- the version before its text, so that the server waits for them instead of taking "no problems
--- yet" for "no problems" (docs/language-intel.md). A server that never publishes (one that only
--- completes, say) costs a first question about a file at most this long.
M.first_publish_ms = 3000

-- When each buffer was loaded (vim.loop.now()), for first_publish_ms: kept by watch_published's
-- BufReadPost, which M.load's bufload fires too.
M.loaded_at = {}

--- Loads the file of `uri` into a buffer, not shown (its language servers attach); its number.
function M.load(uri)
  local b = vim.fn.bufadd(vim.uri_to_fname(uri))
  if not vim.api.nvim_buf_is_loaded(b) then
    pcall(vim.fn.bufload, b) -- BufReadPost: loaded_at (watch_published)
  end
  return b
end

-- The language clients other than agentls: those attached to buffer `b`, or all when nil.
local function clients(b, self_id)
  local list
  if vim.lsp.get_clients then
    list = vim.lsp.get_clients(b and { bufnr = b } or nil)
  elseif b then
    list = vim.tbl_values(vim.lsp.buf_get_clients(b))
  else
    list = vim.lsp.get_active_clients()
  end
  return vim.tbl_filter(function(c)
    return c.id ~= self_id and c.name ~= 'agentls'
  end, list)
end

-- The diagnostic namespaces of client `id` (its push and pull ones).
local function namespaces(id)
  local out = {}
  if not id then
    return out
  end
  for _, pull in ipairs({ false, true }) do
    local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, id, pull)
    if ok and ns then
      out[ns] = true
    end
  end
  return out
end

--- A vim.diagnostic entry of buffer `b` as the wire's Diagnostic (UTF-16 columns).
function M.to_wire_diagnostic(d, b)
  local function pos(lnum, col)
    local line = vim.api.nvim_buf_get_lines(b, lnum, lnum + 1, false)[1]
    return { line = lnum, character = M.convert_col(line, col or 0, 'utf-8', 'utf-16') }
  end
  local code = d.code
  if is_nil(code) and type(d.user_data) == 'table' and type(d.user_data.lsp) == 'table' then
    code = d.user_data.lsp.code
  end
  local out = {
    range = { start = pos(d.lnum, d.col), ['end'] = pos(d.end_lnum or d.lnum, d.end_col or d.col) },
    severity = d.severity,
    message = d.message,
  }
  if not is_nil(d.source) and d.source ~= '' then
    out.source = d.source
  end
  if not is_nil(code) and code ~= '' then
    out.code = tostring(code)
  end
  return out
end

-- The version of each document each client last published diagnostics for: published[uri][id].
M.published = {}

--- Records the version a publishDiagnostics is for (wraps the handler Neovim uses, once), and
--- when each buffer is loaded.
function M.watch_published()
  if M.watching then
    return
  end
  M.watching = true
  local group = vim.api.nvim_create_augroup('agentls_intel_loaded', { clear = true })
  vim.api.nvim_create_autocmd('BufReadPost', {
    group = group,
    callback = function(a)
      M.loaded_at[a.buf] = vim.loop.now()
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufUnload', 'BufWipeout' }, {
    group = group,
    callback = function(a)
      M.loaded_at[a.buf] = nil
    end,
  })
  local default = vim.lsp.handlers['textDocument/publishDiagnostics']
  -- luacheck: ignore 122 (Neovim's handler table is meant to be replaced)
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, cfg)
    if type(result) == 'table' and type(result.uri) == 'string' and ctx and ctx.client_id then
      M.published[result.uri] = M.published[result.uri] or {}
      M.published[result.uri][ctx.client_id] = type(result.version) == 'number' and result.version or false
    end
    return default(err, result, ctx, cfg)
  end
end

--- The version of the text the problems of buffer `b` are for, given its current version, when
--- each attached client last published for it (`pub[id]`: a version, false for one without, nil
--- for none yet) and whether it was loaded less than first_publish_ms ago: the buffer's, or older
--- when an attached language server last published for an older one, or, in a buffer loaded just
--- now, has not published for it yet (the server then waits: docs/language-intel.md, Settle).
--- A buffer loaded just now that no server has published for waits too even with none attached:
--- a server the buffer's FileType is starting (as lspconfig starts one at the first buffer of its
--- type) is listed as attached only once it is initialized.
---@param current integer
---@param ids integer[] the attached clients, agentls left out
---@param pub table<integer, integer|false> who published for the buffer's document
---@param fresh boolean
---@return integer
function M.version_for(current, ids, pub, fresh)
  local v = current
  if fresh and next(pub) == nil then
    v = current - 1
  end
  for _, id in ipairs(ids) do
    local pv = pub[id]
    if type(pv) == 'number' and pv < v then
      v = pv
    elseif pv == nil and fresh then
      v = math.min(v, current - 1)
    end
  end
  return v
end

local function diagnostics_version(uri, b, self_id)
  local v = vim.lsp.util.buf_versions[b]
  if type(v) ~= 'number' then
    return nil
  end
  local ids = {}
  for _, c in ipairs(clients(b, self_id)) do
    table.insert(ids, c.id)
  end
  local loaded = M.loaded_at[b]
  local fresh = loaded ~= nil and vim.loop.now() - loaded < M.first_publish_ms
  return M.version_for(v, ids, M.published[uri] or {}, fresh)
end

--- agent/diagnostics: each document's problems (every namespace but agentls's own) and the
--- version of the text they are for.
function M.diagnostics(p, self_id)
  local res = { diagnostics = vim.empty_dict(), versions = vim.empty_dict() }
  local skip = namespaces(self_id)
  for _, uri in ipairs(p and p.uris or {}) do
    local b = M.load(uri)
    local list = {}
    for _, d in ipairs(vim.diagnostic.get(b)) do
      if not skip[d.namespace] then
        table.insert(list, M.to_wire_diagnostic(d, b))
      end
    end
    res.diagnostics[uri] = list
    local v = diagnostics_version(uri, b, self_id)
    if v then
      res.versions[uri] = v
    end
  end
  return res
end

-- Each op's LSP method and the server capability that offers it.
local ops = {
  definition = { 'textDocument/definition', 'definitionProvider' },
  references = { 'textDocument/references', 'referencesProvider' },
  implementation = { 'textDocument/implementation', 'implementationProvider' },
  hover = { 'textDocument/hover', 'hoverProvider' },
  symbols = { 'textDocument/documentSymbol', 'documentSymbolProvider' },
  workspace_symbols = { 'workspace/symbol', 'workspaceSymbolProvider' },
}

--- The LSP method and capability of agent/navigate params `p` (nil and an error for a bad op).
function M.method_of(p)
  local op = p and p.op
  if op == 'symbols' and is_nil(p.uri) then
    op = 'workspace_symbols'
  end
  local m = ops[op]
  if not m or op == 'workspace_symbols' and p.op ~= 'symbols' then
    return nil, nil, string.format('agent/navigate: unknown op %s', vim.inspect(p and p.op))
  end
  if p.op ~= 'symbols' and (is_nil(p.uri) or is_nil(p.position)) then
    return nil, nil, string.format('agent/navigate %s: needs uri and position', p.op)
  end
  return m[1], m[2]
end

-- Sends `method` to each client and waits (bounded) for their answers: { {client, result} }.
local function ask_all(cs, method, params_of, b)
  local answers, pending = {}, {}
  for _, c in ipairs(cs) do
    local handler = function(err, result)
      pending[c.id] = nil
      if not err and not is_nil(result) then
        table.insert(answers, { client = c, result = result })
      end
    end
    local ok, id
    if vim.fn.has('nvim-0.11') == 1 then
      ok, id = c:request(method, params_of(c), handler, b)
    else
      ok, id = c.request(method, params_of(c), handler, b)
    end
    if ok then
      pending[c.id] = { client = c, id = id }
    end
  end
  vim.wait(M.timeout_ms, function()
    return next(pending) == nil
  end, 10)
  for _, w in pairs(pending) do
    if vim.fn.has('nvim-0.11') == 1 then
      pcall(w.client.cancel_request, w.client, w.id)
    else
      pcall(w.client.cancel_request, w.id)
    end
  end
  return answers
end

local function encoding(c)
  return c.offset_encoding or 'utf-16'
end

-- LSP's SymbolKind names (langpool's), from 1.
local symbol_kinds = {
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
}

--- A SymbolKind's name ("symbol" when unknown).
function M.symbol_kind(k)
  return symbol_kinds[k] or 'symbol'
end

--- A definition/references/implementation result (Location, Location[] or LocationLink[]) of a
--- client with encoding `enc` as wire Locations, appended to `out` up to `limit`.
function M.add_locations(out, result, enc, limit)
  if result.uri or result.targetUri then
    result = { result }
  end
  for _, l in ipairs(result) do
    if #out >= limit then
      return
    end
    local uri = l.targetUri or l.uri
    local r = l.targetSelectionRange or l.targetRange or l.range
    if type(uri) == 'string' and type(r) == 'table' then
      table.insert(out, { uri = uri, range = convert_range(uri, r, enc, 'utf-16') })
    end
  end
end

--- A hover's contents (MarkupContent, MarkedString or MarkedString[]) as text.
function M.hover_text(h)
  local c = type(h) == 'table' and h.contents or nil
  if is_nil(c) then
    return ''
  end
  if type(c) == 'string' then
    return c
  end
  if c.value then
    return c.value
  end
  local parts = {}
  for _, m in ipairs(c) do
    local s = type(m) == 'string' and m or m.value
    if type(s) == 'string' and s ~= '' then
      table.insert(parts, s)
    end
  end
  return table.concat(parts, '\n\n')
end

--- Symbols (DocumentSymbol[] with children, SymbolInformation[] or WorkspaceSymbol[]) as wire
--- SymbolLocations appended to `out` up to `limit`; `uri` is the document's, for DocumentSymbols.
function M.add_symbols(out, result, uri, enc, limit, container)
  for _, s in ipairs(result) do
    if #out >= limit then
      return
    end
    local loc = s.location
    local u = (type(loc) == 'table' and loc.uri) or uri
    local r = s.selectionRange or (type(loc) == 'table' and loc.range) or s.range
    if not r and u then
      r = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } } -- a WorkspaceSymbol with only its uri
    end
    if type(u) == 'string' and r then
      local sym = { name = s.name, kind = M.symbol_kind(s.kind), location = { uri = u, range = convert_range(u, r, enc, 'utf-16') } }
      local c = (not is_nil(s.containerName) and s.containerName ~= '') and s.containerName or container
      if c then
        sym.containerName = c
      end
      table.insert(out, sym)
    end
    if type(s.children) == 'table' then
      M.add_symbols(out, s.children, uri, enc, limit, s.name)
    end
  end
end

--- agent/navigate: the op's answer from the language clients attached to the document (all of
--- them for workspace symbols), agentls left out. An error when none offers the op.
function M.navigate(p, self_id)
  local method, cap, err = M.method_of(p)
  if not method then
    return nil, err
  end
  local limit = (type(p.limit) == 'number' and p.limit > 0) and p.limit or M.default_limit
  local b = not is_nil(p.uri) and M.load(p.uri) or nil
  local cs = vim.tbl_filter(function(c)
    return c.server_capabilities and c.server_capabilities[cap]
  end, clients(b, self_id))
  if #cs == 0 then
    return nil, string.format('no language server %s answers %s', b and ('attached to ' .. vim.uri_to_fname(p.uri)) or 'running', method)
  end
  local params_of = function(c)
    if method == 'workspace/symbol' then
      return { query = is_nil(p.query) and '' or p.query }
    end
    local params = { textDocument = { uri = p.uri } }
    if method ~= 'textDocument/documentSymbol' then
      params.position = convert_pos(p.uri, p.position, 'utf-16', encoding(c))
    end
    if method == 'textDocument/references' then
      params.context = { includeDeclaration = true }
    end
    return params
  end
  local answers = ask_all(cs, method, params_of, b)
  if p.op == 'hover' then
    local parts = {}
    for _, a in ipairs(answers) do
      local s = M.hover_text(a.result)
      if s ~= '' then
        table.insert(parts, s)
      end
    end
    return { hover = table.concat(parts, '\n\n') }
  elseif p.op == 'symbols' then
    local out = {}
    for _, a in ipairs(answers) do
      M.add_symbols(out, a.result, not is_nil(p.uri) and p.uri or nil, encoding(a.client), limit)
    end
    return { symbols = out }
  end
  local out = {}
  for _, a in ipairs(answers) do
    M.add_locations(out, a.result, encoding(a.client), limit)
  end
  return { locations = out }
end

--- The handlers of agent/diagnostics and agent/navigate for the client `self_id()` names.
function M.handlers(self_id)
  M.watch_published()
  local function wrap(fn)
    return function(_, p)
      local ok, res, err = pcall(fn, p, self_id())
      if not ok or err then
        return nil, vim.lsp.rpc.rpc_response_error(vim.lsp.protocol.ErrorCodes.InternalError, tostring(ok and err or res))
      end
      return res
    end
  end
  return { [protocol.methods.diagnostics] = wrap(M.diagnostics), [protocol.methods.navigate] = wrap(M.navigate) }
end

return M
