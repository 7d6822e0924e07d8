-- :checkhealth agentls with MCP servers (docs/mcp.md, Status), end to end: the real agentls with
-- the user's configuration (--config) naming a running server (testdata/mcp/tiny-server.mjs, on
-- node) and one that fails at start with a message on stderr. After a turn started them, the
-- "agentls: MCP servers" section names the running one with its tools and the failed one as an
-- error with its reason and stderr tail — read through agent/status (no request to the model).
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

local tiny = vim.fn.fnamemodify(h.plugin .. '/../../testdata/mcp/tiny-server.mjs', ':p')

t.describe('checkhealth with MCP servers (end to end)', function()
  t.it('a running server with its tools, a failed one with its reason and stderr tail', function()
    if vim.fn.executable('node') ~= 1 then
      t.ok(vim.env.CI == nil, 'node is missing')
      return
    end
    local cfg = h.tmpdir() .. '/agentls.yaml'
    h.write(
      cfg,
      table.concat({
        'mcp:',
        '  servers:',
        -- No network: its read-only lookup runs in plan mode (reach process).
        '    tiny: {command: node, network: false, args: [' .. vim.fn.json_encode(tiny) .. ']}',
        '    broken: {command: sh, args: ["-c", "echo \'broken: cannot open the database\' >&2; exit 3"]}',
        '  read_only: [tiny/lookup]',
        '',
      }, '\n')
    )
    local st = h.start(
      {},
      [[
steps:
  - text: "Looking it up."
    expect:
      system_contains: ["`mcp__tiny__lookup`"]
    tool_calls:
      - {id: l1, name: mcp__tiny__lookup, args: {word: "plan"}}
  - text: "Looked up."
    expect:
      tool_result_contains: {l1: ["plan: a tiny word"]}
]],
      { cmd = { vim.env.AGENTLS_BIN or 'agentls', '--config', cfg } }
    )

    -- Before the first turn the servers are idle: they start at a session's first tool listing.
    vim.cmd('checkhealth agentls')
    local report = h.text(vim.api.nvim_get_current_buf())
    t.match('agentls: MCP servers', report)
    t.match('OK:? tiny %(node [^\n]*tiny%-server%.mjs, from config%): idle, 0 tools', report)
    vim.cmd('bwipeout!')

    agentls.prompt('look it up')
    t.eq('end_turn', h.turn(st).stopReason)
    vim.cmd('checkhealth agentls')
    report = h.text(vim.api.nvim_get_current_buf())
    t.match('OK:? tiny %(node [^\n]*tiny%-server%.mjs, from config%): running, 2 tools: lookup, write_note', report)
    t.match('ERROR:? broken %(sh %-c [^\n]*, from config%): failed', report)
    t.match('restarts at its next use after 1s', report, 'the reason')
    t.match('its stderr ends with: broken: cannot open the database', report, 'the stderr tail')
    t.match('OK:? model reachable: scripted', report, 'the model section is still there')
  end)

  t.it('the MCP servers are reported when the model does not answer (agent/status asks it nothing)', function()
    if vim.fn.executable('node') ~= 1 then
      t.ok(vim.env.CI == nil, 'node is missing')
      return
    end
    -- A model endpoint that takes connections and never answers.
    local hang = vim.loop.new_tcp()
    hang:bind('127.0.0.1', 0)
    hang:listen(8, function() end)
    t.cleanup(function()
      hang:close()
    end)
    local port = hang:getsockname().port
    local cfg = h.tmpdir() .. '/agentls.yaml'
    h.write(cfg, 'mcp:\n  servers:\n    tiny: {command: node, args: [' .. vim.fn.json_encode(tiny) .. ']}\n')
    h.stub(vim.env, 'AGENTLS_NVIM_HANG_KEY', 'sk-test')
    h.start({}, 'steps: []\n', {
      cmd = { vim.env.AGENTLS_BIN or 'agentls', '--config', cfg },
      model = { provider = 'openai', base_url = 'http://127.0.0.1:' .. port .. '/v1', api_key_env = 'AGENTLS_NVIM_HANG_KEY' },
    })
    local health = require('agentls.health')
    local check = health.check
    h.stub(health, 'check', function()
      check(1500) -- the model's request times out after 1.5 s
    end)
    vim.cmd('checkhealth agentls')
    local report = h.text(vim.api.nvim_get_current_buf())
    t.match('ERROR:? agent/checkModel: ', report, 'the model did not answer')
    t.match('OK:? tiny %(node [^\n]*tiny%-server%.mjs, from config%): idle, 0 tools', report)
  end)
end)
