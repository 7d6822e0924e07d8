-- agentls.problems: the new problems an edit introduced (its tool result's
-- `diagnostics: {new, settled}`, docs/language-intel.md), as the chat buffer shows them under
-- the edit's line and as `:Agentls problems` puts them in the quickfix list.
local M = {}

local function is_nil(v)
  return v == nil or v == vim.NIL
end

--- The diagnostics block of a tool result (a table or its JSON text: {success, result}): { new = {...}, settled,
--- error? }, or nil when there is nothing to show (none new and settled).
function M.from_result(raw)
  if type(raw) == 'string' then
    local ok, v = pcall(vim.json.decode, raw)
    raw = ok and v or nil
  end
  -- the tool result is {success, result = {…, diagnostics}}; a bare result is read too
  local d = type(raw) == 'table' and ((type(raw.result) == 'table' and raw.result.diagnostics) or raw.diagnostics) or nil
  if type(d) ~= 'table' or type(d.new) ~= 'table' then
    return nil
  end
  local list = {}
  for _, p in ipairs(d.new) do
    if type(p) == 'table' and type(p.path) == 'string' and type(p.line) == 'number' and type(p.message) == 'string' then
      table.insert(list, p)
    end
  end
  local err = (not is_nil(d.error) and d.error ~= '') and tostring(d.error) or nil
  if #list == 0 and d.settled ~= false and not err then
    return nil
  end
  return { new = list, settled = d.settled ~= false, error = err }
end

-- A server's text on one line: a buffer line cannot hold a newline (nvim_buf_set_lines refuses it,
-- and the chat would stop rendering).
local function one_line(s)
  return (tostring(s):gsub('[\r\n]+', ' '))
end

--- One problem as a line: "path:line: severity: message (source code)".
function M.format(p)
  local tail = {}
  for _, k in ipairs({ 'source', 'code' }) do
    if not is_nil(p[k]) and p[k] ~= '' then
      table.insert(tail, one_line(p[k]))
    end
  end
  local sev = is_nil(p.severity) and 'problem' or one_line(p.severity)
  local s = string.format('%s:%d: %s: %s', one_line(p.path), p.line, sev, one_line(p.message))
  return #tail > 0 and (s .. ' (' .. table.concat(tail, ' ') .. ')') or s
end

--- The chat lines under an edit's line.
function M.chat_lines(ps)
  local out = {}
  for _, p in ipairs(ps.new) do
    table.insert(out, '      ' .. M.format(p))
  end
  if ps.error then
    table.insert(out, '      (diagnostics unavailable: ' .. one_line(ps.error) .. ')')
  elseif not ps.settled then
    table.insert(out, '      (the diagnostics had not settled in time: the list may be incomplete)')
  end
  return out
end

--- A refused tick (a plan update's `tickRefused`: {steps, problems, message}) as from_result's
--- shape plus the steps, or nil when there is none.
function M.from_refusal(r)
  if type(r) ~= 'table' or type(r.problems) ~= 'table' then
    return nil
  end
  local list = {}
  for _, p in ipairs(r.problems) do
    if type(p) == 'table' and type(p.path) == 'string' and type(p.line) == 'number' and type(p.message) == 'string' then
      table.insert(list, p)
    end
  end
  local steps = {}
  for _, s in ipairs(type(r.steps) == 'table' and r.steps or {}) do
    if type(s) == 'string' then
      table.insert(steps, s)
    end
  end
  return { new = list, settled = true, steps = steps }
end

--- The chat lines under a refused step: "✗ not ticked: N new errors", then one line a problem.
function M.refusal_lines(ps)
  local errors = 0
  for _, p in ipairs(ps.new) do
    if p.severity == 'error' then
      errors = errors + 1
    end
  end
  local head = string.format('      ✗ not ticked: %d new error%s', errors, errors == 1 and '' or 's')
  if #ps.new > errors then
    local w = #ps.new - errors
    head = head .. string.format(', %d warning%s', w, w == 1 and '' or 's')
  end
  local out = { head }
  for _, p in ipairs(ps.new) do
    table.insert(out, '        ' .. M.format(p))
  end
  return out
end

--- The index of the step a refusal is about (the first not done that it names), or nil.
function M.refused_step(entries, ps)
  for i, e in ipairs(entries or {}) do
    if e.status ~= 'completed' and vim.tbl_contains(ps.steps or {}, e.content) then
      return i
    end
  end
  return nil
end

local qf_kind = { error = 'E', warning = 'W', information = 'I', hint = 'N' }

--- Quickfix items of the problems, paths under `root`.
function M.quickfix_items(ps, root)
  local items = {}
  for _, p in ipairs(ps and ps.new or {}) do
    local tail = {}
    for _, k in ipairs({ 'source', 'code' }) do
      if not is_nil(p[k]) and p[k] ~= '' then
        table.insert(tail, tostring(p[k]))
      end
    end
    table.insert(items, {
      filename = root .. '/' .. p.path,
      lnum = p.line,
      col = 1,
      type = qf_kind[p.severity] or '',
      text = p.message .. (#tail > 0 and (' (' .. table.concat(tail, ' ') .. ')') or ''),
    })
  end
  return items
end

--- :Agentls problems: the new problems of the session's last edit in the quickfix list
--- (opened when there are some). Returns true when `args` named it.
function M.dispatch(st, args)
  local name = (args or ''):match('^/?(%S+)')
  if name ~= 'problems' then
    return false
  end
  local ps = st.chat.problems
  local items = M.quickfix_items(ps, st.root)
  vim.fn.setqflist({}, ' ', { title = 'agentls: new problems of the last edit', items = items })
  if #items > 0 then
    vim.cmd('copen')
  else
    vim.notify('agentls: the last edit has no new problems', vim.log.levels.INFO)
  end
  return true
end

return M
