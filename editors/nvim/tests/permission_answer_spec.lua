-- A permission's answer ("? Run `…`?" / "→ Run") goes in the chat under the tool call that asked
-- it: the question names its call (`permission.toolCallId`). The model asks two commands in one
-- step: the server shows both calls before the first asks, so "the last call still running"
-- (where an answer went before) is the second, and the first command's answer stood under the
-- second command's row.
local t = require('runner')
local h = require('helpers')
local agentls = require('agentls')

-- The tool lines of the chat with the questions and answers under them.
local function tool_lines(st)
  st.chat:flush()
  local out = {}
  for _, l in ipairs(vim.api.nvim_buf_get_lines(st.chat.bufnr, 0, -1, false)) do
    if l:find('^  • ') or l:find('^    %? ') or l:find('^    → ') then
      table.insert(out, l)
    end
  end
  return out
end

t.describe('a permission answer in the chat', function()
  t.it('stands under the call that asked it, with two calls in one step', function()
    local st = h.start({}, [[
steps:
  - text: "Two commands."
    tool_calls:
      - {id: r1, name: run, args: {command: "echo first"}}
      - {id: r2, name: run, args: {command: "echo second"}}
  - text: "Done."
    expect:
      tool_result_contains: {r1: ["first"], r2: ["second"]}
]])
    h.build_session()
    local asked = {}
    h.stub(vim.ui, 'select', function(items, opts, cb)
      table.insert(asked, opts.prompt)
      for _, it in ipairs(items) do
        if opts.format_item(it) == 'Run' then
          return vim.schedule(function()
            cb(it)
          end)
        end
      end
    end)
    vim.cmd('Agentls chat')
    agentls.prompt('run both')
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    t.eq(2, #asked, 'two permission questions')
    t.eq({
      '  • Ran `echo first` ✓ (exit 0)',
      '    ? Run `echo first`?',
      '    → Run',
      '  • Ran `echo second` ✓ (exit 0)',
      '    ? Run `echo second`?',
      '    → Run',
    }, tool_lines(st))
  end)
end)
