-- The context window the model's server reports, end to end: the real agentls with provider
-- openai against an OpenAI-compatible endpoint on 127.0.0.1 (fake_endpoint.lua) and no
-- model.context_window. A llama.cpp-like server saying n_ctx in GET /props gives the session that
-- window, so the usage line under the answer in the chat shows "context X/12288"; a server that
-- reports nothing leaves the default window of an unknown model (32768).
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')
local fake = require('fake_endpoint')

--- Starts agentls on the model `test-model` at `ep` (no context_window), prompts, waits for the
--- turn to end and returns the lines the chat's window shows then, and the chat buffer's text.
--- The visible lines are kept as an artifact named `name` (h.keep).
---@param ep agentls.test.FakeEndpoint
---@param name string
---@return string[] visible
---@return string chat
local function prompt_against(ep, name)
  h.stub(vim.env, 'AGENTLS_NVIM_FAKE_KEY', 'sk-test')
  local st = h.start({}, 'steps: []\n', {
    model = { provider = 'openai', base_url = ep.url, name = 'test-model', api_key_env = 'AGENTLS_NVIM_FAKE_KEY' },
  })
  agentls.prompt('Say hello')
  local r = h.turn(st)
  t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
  t.wait(5000, function()
    st.chat:flush()
    return h.text(st.chat.bufnr):find('Tokens: %d+ in · %d+ out · context') ~= nil
  end, 'the usage line with the context')
  local w = vim.fn.bufwinid(st.chat.bufnr)
  t.ok(w ~= -1, 'the chat is in a window')
  vim.cmd('redraw')
  local top, bot = unpack(vim.api.nvim_win_call(w, function()
    return { vim.fn.line('w0'), vim.fn.line('w$') }
  end))
  local visible = vim.api.nvim_buf_get_lines(st.chat.bufnr, top - 1, bot, false)
  h.keep(string.format('%s-0.%d.txt', name, vim.version().minor), table.concat(visible, '\n'))
  return visible, h.text(st.chat.bufnr)
end

--- The line of `lines` that starts with `Tokens:`, or nil.
---@param lines string[]
---@return string?
local function usage_line(lines)
  for _, l in ipairs(lines) do
    if l:find('^Tokens:') then
      return l
    end
  end
  return nil
end

t.describe("the model server's context window (end to end)", function()
  t.it('a window in llama.cpp GET /props is the one the chat shows under the answer', function()
    local ep = fake.start({ window = 12288, text = 'Hello from a llama.' })
    local visible, chat = prompt_against(ep, 'chat-context-window-reported')
    t.contains(chat, 'Hello from a llama.', 'the streamed answer in the chat')
    local line = usage_line(visible)
    t.ok(line ~= nil, 'the usage line is in view; the window shows:\n' .. table.concat(visible, '\n'))
    t.match('^Tokens: %d+ in · %d+ out · context %d+/12288$', line, "the server's window")
    t.ok(ep.asked('GET', '/props'), 'the endpoint was asked /props')
    t.ok(ep.asked('POST', '/v1/chat/completions'), 'the endpoint was asked for the answer')
  end)

  t.it('a server that reports no window leaves the default window of an unknown model', function()
    local ep = fake.start({ text = 'Hello from nowhere.' })
    local visible, chat = prompt_against(ep, 'chat-context-window-default')
    t.contains(chat, 'Hello from nowhere.', 'the streamed answer in the chat')
    local line = usage_line(visible)
    t.ok(line ~= nil, 'the usage line is in view; the window shows:\n' .. table.concat(visible, '\n'))
    t.match('^Tokens: %d+ in · %d+ out · context %d+/32768$', line, 'the default window')
    t.ok(ep.asked('GET', '/props'), 'the endpoint was asked /props (and said 404)')
  end)

  t.it('the fake endpoint reads a body that comes in several reads, to its Content-Length', function()
    local ep = fake.start({ text = 'In pieces.' })
    local body = vim.json.encode({ model = 'test-model', stream = true, messages = { { role = 'user', content = 'hi' } } })
    local cut = math.floor(#body / 2)
    local pieces = {
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n',
      'Content-Length: ' .. #body .. '\r\n\r\n',
      body:sub(1, cut),
      body:sub(cut + 1),
    }
    local sock = vim.loop.new_tcp()
    t.cleanup(function()
      if not sock:is_closing() then
        sock:close()
      end
    end)
    local connected, got, ended = false, {}, false
    sock:connect('127.0.0.1', tonumber(ep.root:match(':(%d+)$')), function(err)
      connected = err == nil
      sock:read_start(function(rerr, data)
        if rerr or not data then
          ended = true
          return
        end
        table.insert(got, data)
      end)
    end)
    t.wait(5000, function()
      return connected
    end, 'a connection')
    for i, p in ipairs(pieces) do
      sock:write(p)
      vim.wait(50) -- its own TCP segment
      if i < #pieces then
        t.eq(0, #ep.requests, 'nothing answered before the whole body came')
      end
    end
    t.wait(5000, function()
      return ended
    end, 'the answer and the end of the connection')
    local answer = table.concat(got)
    t.eq(body, ep.requests[1].body, 'the body, whole')
    t.match('^HTTP/1%.1 200 OK\r\n', answer)
    t.contains(answer, '"content":"In pi"', 'the first half of the text')
    t.contains(answer, '"finish_reason":"stop"')
    t.match('"usage":{[^}]*"total_tokens":912', answer, 'the usage in the last chunk')
    t.match('data: %[DONE%]\n\n$', answer)
  end)
end)
