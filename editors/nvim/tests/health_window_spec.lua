-- :checkhealth agentls and the model's context window (agent/checkModel's contextWindow and
-- contextWindowSource). End to end: the real agentls with provider openai against an
-- OpenAI-compatible endpoint on 127.0.0.1 (fake_endpoint.lua, listing the model in GET /v1/models
-- as agent/checkModel asks) and no model.context_window. A llama.cpp-like server saying n_ctx in
-- GET /props gives an OK line with that window and its source; a server that reports nothing
-- leaves the window agentls assumes for a model it does not know (32768), a warning with advice.
-- Then M.model alone: a window from the configuration or the model's family is OK, an older server
-- (no contextWindow) and a model that does not answer give no window line.
local t = require('runner')
local h = require('helpers')
local fake = require('fake_endpoint')

local advice = {
  "set model.context_window to the window the model's server really has",
  'or use a server that reports its window (llama.cpp, LM Studio, Ollama, vLLM)',
}

--- Starts agentls on the model `test-model` at `ep` (no context_window), runs :checkhealth agentls
--- and returns the lines of its "agentls: model" section, from the heading to the next one. The
--- whole report is kept as an artifact named `name` (h.keep).
---@param ep agentls.test.FakeEndpoint
---@param name string
---@return string[] section
---@return string report
local function model_section(ep, name)
  h.stub(vim.env, 'AGENTLS_NVIM_FAKE_KEY', 'sk-test')
  h.start({}, 'steps: []\n', {
    model = { provider = 'openai', base_url = ep.url, name = 'test-model', api_key_env = 'AGENTLS_NVIM_FAKE_KEY' },
  })
  vim.cmd('checkhealth agentls')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local report = table.concat(lines, '\n')
  h.keep(string.format('%s-0.%d.txt', name, vim.version().minor), report)
  local section, inside = {}, false
  for _, l in ipairs(lines) do
    if l:find('agentls: model', 1, true) then
      inside = true
    elseif inside and l:find('agentls: sandbox', 1, true) then
      break
    end
    if inside and vim.trim(l) ~= '' then
      table.insert(section, vim.trim(l))
    end
  end
  t.ok(#section > 0, 'the "agentls: model" section in:\n' .. report)
  return section, report
end

--- The index of the first of `lines` matching `pat`, or nil.
---@param lines string[]
---@param pat string
---@return integer?
local function find(lines, pat)
  for i, l in ipairs(lines) do
    if l:find(pat) then
      return i
    end
  end
  return nil
end

t.describe(":checkhealth agentls: the model's context window (end to end)", function()
  t.it('a window in llama.cpp GET /props is an OK line with its source', function()
    local ep = fake.start({ window = 12288, models = { 'test-model' } })
    local section, report = model_section(ep, 'checkhealth-context-window-reported')
    local joined = table.concat(section, '\n')
    t.ok(find(section, '^[-%s]*%S*%s*OK:? model reachable: openai test%-model at ' .. vim.pesc(ep.url) .. '$'), 'reachable:\n' .. joined)
    t.ok(find(section, '^[-%s]*%S*%s*OK:? context window: 12288 tokens %(llama%.cpp /props%)$'), 'the window and its source:\n' .. joined)
    t.ok(not report:find('WARNING'), 'no warning in:\n' .. report)
    t.ok(not report:find('ERROR'), 'no error in:\n' .. report)
    t.ok(ep.asked('GET', '/v1/models'), 'agent/checkModel asked the model list')
    t.ok(ep.asked('GET', '/props'), 'the endpoint was asked /props')
  end)

  t.it('a server that reports no window: the assumed window is a warning with advice', function()
    local ep = fake.start({ models = { 'test-model' } })
    local section, report = model_section(ep, 'checkhealth-context-window-assumed')
    local joined = table.concat(section, '\n')
    t.ok(find(section, '^[-%s]*%S*%s*OK:? model reachable: openai test%-model at '), 'reachable:\n' .. joined)
    local w = find(section, '^[-%s]*%S*%s*WARNING:? context window: 32768 tokens %(assumed: a model agentls does not know%)$')
    t.ok(w, 'the assumed window, a warning:\n' .. joined)
    t.match('^[-%s]*ADVICE:$', section[w + 1], 'advice under the warning:\n' .. joined)
    t.eq('- ' .. advice[1], section[w + 2], 'the first advice:\n' .. joined)
    t.eq('- ' .. advice[2], section[w + 3], 'the second advice:\n' .. joined)
    t.ok(not report:find('ERROR'), 'no error in:\n' .. report)
    t.ok(ep.asked('GET', '/props'), 'the endpoint was asked /props (and said 404)')
  end)

  t.it('a model that does not answer has no window line', function()
    local ep = fake.start({ window = 12288 }) -- no models: GET /v1/models is a 404
    local section = model_section(ep, 'checkhealth-context-window-unreachable')
    local joined = table.concat(section, '\n')
    t.ok(find(section, '^[-%s]*%S*%s*ERROR:? model not reachable: openai test%-model at '), 'not reachable:\n' .. joined)
    t.ok(not joined:find('context window', 1, true), 'no window line:\n' .. joined)
  end)
end)

t.describe(":checkhealth agentls: the model's context window (agent/checkModel's answer)", function()
  --- The lines M.model reports for agent/checkModel's result `m`: kind, message and advice.
  local function report(m)
    local lines = {}
    local function rec(kind)
      return function(msg, adv)
        table.insert(lines, kind .. ' ' .. msg .. (adv and (' | ' .. table.concat(adv, ' | ')) or ''))
      end
    end
    local r = { start = rec('##'), ok = rec('OK'), info = rec('INFO'), warn = rec('WARN'), error = rec('ERROR') }
    require('agentls.health').model(r, { result = m })
    return lines
  end
  local base = { ok = true, provider = 'openai', model = 'm', baseUrl = 'http://127.0.0.1:8080/v1' }

  t.it('each source of the window', function()
    t.eq({
      'OK model reachable: openai m at http://127.0.0.1:8080/v1',
      'OK context window: 65536 tokens (model.context_window)',
    }, report(vim.tbl_extend('force', base, { contextWindow = 65536, contextWindowSource = 'model.context_window' })))
    t.eq({
      'OK model reachable: openai m at http://127.0.0.1:8080/v1',
      "OK context window: 200000 tokens (known for the model's family)",
    }, report(vim.tbl_extend('force', base, { contextWindow = 200000, contextWindowSource = "known for the model's family" })))
    t.eq({
      'OK model reachable: openai m at http://127.0.0.1:8080/v1',
      'WARN context window: 32768 tokens (assumed: a model agentls does not know) | ' .. table.concat(advice, ' | '),
    }, report(vim.tbl_extend('force', base, { contextWindow = 32768, contextWindowSource = 'assumed: a model agentls does not know' })))
    t.eq({
      'OK model reachable: openai m at http://127.0.0.1:8080/v1',
      'OK context window: 8192 tokens',
    }, report(vim.tbl_extend('force', base, { contextWindow = 8192, contextWindowSource = vim.NIL })), 'a window without a source')
  end)

  t.it('an older server (no contextWindow) and a model that does not answer: no window line', function()
    t.eq({ 'OK model reachable: openai m at http://127.0.0.1:8080/v1' }, report(base))
    t.eq({ 'OK model reachable: openai m at http://127.0.0.1:8080/v1' }, report(vim.tbl_extend('force', base, { contextWindow = vim.NIL })))
    t.eq(
      { 'ERROR model not reachable: openai m at http://127.0.0.1:8080/v1: refused' },
      report(vim.tbl_extend('force', base, { ok = false, message = 'refused' }))
    )
  end)
end)
