-- fake_endpoint.lua: a small OpenAI-compatible model server on 127.0.0.1 for the specs that run
-- agentls with provider openai (vim.loop, so on Neovim 0.7.2 and 0.11). It answers
-- POST /v1/chat/completions with a streamed text answer (SSE chat.completion.chunk events, the
-- usage in the last one, then [DONE]), GET /props as llama.cpp does ({"default_generation_settings":
-- {"n_ctx": N}}) when it is given a window, GET /v1/models (the OpenAI list, ids only, as
-- agent/checkModel asks) when it is given models, and 404 to everything else. One request per
-- connection (every answer says Connection: close); a request's body is read to its
-- Content-Length, however many reads it takes. It runs in luv callbacks: pure Lua and vim.json only (no vim.fn, no vim.api).
local t = require('runner')

local M = {}

---@class agentls.test.FakeEndpointOpts
---@field window? integer the context window GET /props reports (nil: /props is a 404, like any other path)
---@field models? string[] the model ids GET /v1/models lists, with no window (nil: /v1/models is a 404)
---@field text? string the assistant's answer (default "Hello from the fake endpoint.")
---@field prompt_tokens? integer the usage's prompt_tokens (default 900)
---@field completion_tokens? integer the usage's completion_tokens (default 12)

---@class agentls.test.FakeRequest
---@field method string e.g. "POST"
---@field path string the request target without its query, e.g. "/v1/chat/completions"
---@field headers table<string, string> by lower-case name
---@field body string the body, as many bytes as Content-Length said
---@field json? table the body decoded, when it is JSON

---@class agentls.test.FakeEndpoint
---@field url string the base URL to configure as model.base_url: http://127.0.0.1:PORT/v1
---@field root string the server's root, without /v1: http://127.0.0.1:PORT
---@field requests agentls.test.FakeRequest[] the requests answered, in order
---@field asked fun(method: string, path: string): boolean whether it answered `method path`
---@field close fun() stops listening (the runner calls it when the test ends)

local reasons = { [200] = 'OK', [400] = 'Bad Request', [404] = 'Not Found', [411] = 'Length Required' }

--- An HTTP/1.1 answer with a body of known length.
---@param status integer
---@param content_type string
---@param body string
---@return string
local function answer(status, content_type, body)
  return table.concat({
    string.format('HTTP/1.1 %d %s', status, reasons[status]),
    'Content-Type: ' .. content_type,
    'Content-Length: ' .. #body,
    'Connection: close',
    '',
    body,
  }, '\r\n')
end

--- An answer of JSON `v`.
---@param status integer
---@param v table
---@return string
local function json_answer(status, v)
  return answer(status, 'application/json', vim.json.encode(v))
end

--- The streamed chat answer: a text/event-stream read to the end of the connection.
---@param opts agentls.test.FakeEndpointOpts
---@param model string
---@return string[]
local function stream(opts, model)
  local created = os.time()
  local function chunk(choices, usage)
    return 'data: '
      .. vim.json.encode({
        id = 'chatcmpl-fake',
        object = 'chat.completion.chunk',
        created = created,
        model = model,
        choices = choices,
        usage = usage,
      })
      .. '\n\n'
  end
  local text = opts.text or 'Hello from the fake endpoint.'
  local half = math.floor(#text / 2)
  local prompt_tokens, completion_tokens = opts.prompt_tokens or 900, opts.completion_tokens or 12
  return {
    'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n',
    chunk({ { index = 0, delta = { role = 'assistant', content = '' }, finish_reason = vim.NIL } }),
    chunk({ { index = 0, delta = { content = text:sub(1, half) }, finish_reason = vim.NIL } }),
    chunk({ { index = 0, delta = { content = text:sub(half + 1) }, finish_reason = vim.NIL } }),
    chunk({ { index = 0, delta = vim.empty_dict(), finish_reason = 'stop' } }),
    chunk({}, { prompt_tokens = prompt_tokens, completion_tokens = completion_tokens, total_tokens = prompt_tokens + completion_tokens }),
    'data: [DONE]\n\n',
  }
end

--- The answer to request `r`: a string or a list of strings, written in order.
---@param opts agentls.test.FakeEndpointOpts
---@param r agentls.test.FakeRequest
---@return string|string[]
local function route(opts, r)
  if r.method == 'POST' and r.path == '/v1/chat/completions' then
    if type(r.json) ~= 'table' or type(r.json.model) ~= 'string' then
      return json_answer(400, { error = { message = 'the body is not a chat request', type = 'invalid_request_error' } })
    end
    return stream(opts, r.json.model)
  end
  if r.method == 'GET' and r.path == '/props' and opts.window then
    return json_answer(200, { default_generation_settings = { n_ctx = opts.window } })
  end
  if r.method == 'GET' and r.path == '/v1/models' and opts.models then
    local data = {}
    for _, id in ipairs(opts.models) do
      table.insert(data, { id = id, object = 'model', created = 0, owned_by = 'fake' })
    end
    if #data == 0 then -- vim.json writes an empty table as {}
      return answer(200, 'application/json', '{"object":"list","data":[]}')
    end
    return json_answer(200, { object = 'list', data = data })
  end
  return json_answer(404, { error = { message = 'not found: ' .. r.method .. ' ' .. r.path, type = 'not_found' } })
end

--- Parses the head of a request (request line and headers, without the blank line).
---@param head string
---@return agentls.test.FakeRequest?
local function parse_head(head)
  local method, target = head:match('^(%u+) (%S+) HTTP/1%.%d')
  if not method then
    return nil
  end
  local headers = {}
  for line in head:gmatch('\r\n([^\r\n]*)') do -- the lines after the request line
    local name, value = line:match('^([^:]+):%s*(.-)%s*$')
    if name then
      headers[name:lower()] = value
    end
  end
  return { method = method, path = (target:gsub('%?.*$', '')), headers = headers, body = '' }
end

--- Starts the endpoint on a free port of 127.0.0.1; it stops when the test ends.
---@param opts? agentls.test.FakeEndpointOpts
---@return agentls.test.FakeEndpoint
function M.start(opts)
  opts = opts or {}
  local server = vim.loop.new_tcp()
  assert(server:bind('127.0.0.1', 0))
  local ep = { requests = {} }

  local function serve(client)
    local buf, req, want = '', nil, nil
    local function finish(data)
      client:read_stop()
      client:write(data, function()
        client:shutdown(function()
          client:close()
        end)
      end)
    end
    client:read_start(function(err, data)
      if err or not data then -- an error, or the client closed before a whole request
        if not client:is_closing() then
          client:close()
        end
        return
      end
      buf = buf .. data
      if not req then
        local head_end = buf:find('\r\n\r\n', 1, true)
        if not head_end then
          return -- the head goes on in a later read
        end
        req = parse_head(buf:sub(1, head_end - 1))
        buf = buf:sub(head_end + 4)
        if not req then
          return finish(json_answer(400, { error = { message = 'not an HTTP/1.x request' } }))
        end
        if req.headers['transfer-encoding'] then
          return finish(json_answer(411, { error = { message = 'send a Content-Length' } }))
        end
        want = tonumber(req.headers['content-length'] or '0') or 0
      end
      if #buf < want then
        return -- the body goes on in a later read
      end
      req.body = buf:sub(1, want)
      if req.body ~= '' then
        local ok, v = pcall(vim.json.decode, req.body)
        req.json = ok and type(v) == 'table' and v or nil
      end
      table.insert(ep.requests, req)
      finish(route(opts, req))
    end)
  end

  assert(server:listen(16, function(err)
    if err then
      return
    end
    local client = vim.loop.new_tcp()
    if server:accept(client) then
      serve(client)
    else
      client:close()
    end
  end))
  local port = server:getsockname().port
  ep.root = 'http://127.0.0.1:' .. port
  ep.url = ep.root .. '/v1'
  function ep.asked(method, path)
    for _, r in ipairs(ep.requests) do
      if r.method == method and r.path == path then
        return true
      end
    end
    return false
  end
  function ep.close()
    if not server:is_closing() then
      server:close()
    end
  end
  t.cleanup(ep.close)
  return ep
end

return M
