-- agentls.ask: answers `agent/askUser` with vim.ui.select (buttons, booleans, enums,
-- multi-select as a toggle list) and vim.ui.input (text, numbers; an object asks one input per
-- field), checking each answer's simple schema constraints first (agentls.schema) and showing
-- the server's `errors` when it asks again. Everything is callback-driven: nothing waits.
local schema = require('agentls.schema')
local question_window = require('agentls.question_window')

local M = {}

local severity_hl = { critical = 'ErrorMsg', major = 'WarningMsg', minor = 'Question' }

--- The highlight group for a question's severity.
function M.severity_hl(sev)
  return severity_hl[sev] or 'Question'
end

local function label(v)
  if type(v) == 'string' then
    return v
  end
  return vim.inspect(v)
end

-- The server's errors that belong to no question of `qs` (each question's own error goes in
-- its prompt), as "name: message" lines.
local function other_errors(errors, qs)
  local names = { answers = true }
  for _, q in ipairs(qs) do
    names[q.name] = true
  end
  local lines = {}
  for name, msg in pairs(errors or {}) do
    if not names[name] then
      table.insert(lines, name .. ': ' .. tostring(msg))
    end
  end
  table.sort(lines)
  return lines
end

-- Calls `cb` through a window showing the whole `prompt` while `fn` (a vim.ui replacement
-- that may show it on one line) asks it (none when `fn` is Neovim's own or the prompt fits). The
-- window closes when the answer comes or the form is closed (`form.window`); the answer of a
-- closed form (a stale picker's) goes nowhere.
local function shown(fn, prompt, form, cb)
  local w
  if not (question_window.builtin(fn) or question_window.fits(prompt)) then
    w = question_window.open(prompt)
    form.window = w
  end
  return function(...)
    if w then
      w.close()
    end
    if form.closed then
      return
    end
    return cb(...)
  end
end

-- select(form, items, prompt, format, cb(item|nil)) through vim.ui.select, looked up at call time.
local function select(form, items, prompt, format, cb)
  local fn = vim.ui.select
  fn(items, { prompt = prompt, kind = 'agentls', format_item = format }, shown(fn, prompt, form, cb))
end

-- Asks for text until it parses and passes the schema (or the user cancels: cb(nil, true)).
local function ask_text(form, prompt, sch, default, optional, cb, err)
  local p = prompt .. schema.hint(sch) .. (err and (' [' .. err .. ']') or '') .. ': '
  local fn = vim.ui.input
  fn(
    { prompt = p, default = default },
    shown(fn, p, form, function(text)
      if text == nil then
        return cb(nil, true)
      end
      if text == '' and optional then
        return cb(nil, false)
      end
      local v, perr = schema.parse(sch, text)
      if v ~= nil then
        perr = schema.check(sch, v)
      end
      if perr then
        return ask_text(form, prompt, sch, text, optional, cb, perr)
      end
      cb(v, false)
    end)
  )
end

-- Multi-select: a toggle list ending with "Done".
local function ask_multi(form, prompt, sch, chosen, cb, err)
  local values = (sch.items or {}).enum or {}
  local items = {}
  for _, v in ipairs(values) do
    table.insert(items, { value = v })
  end
  table.insert(items, { done = true })
  local function fmt(it)
    if it.done then
      return 'Done'
    end
    return (vim.tbl_contains(chosen, it.value) and '[x] ' or '[ ] ') .. label(it.value)
  end
  select(form, items, prompt .. (err and (' [' .. err .. ']') or ''), fmt, function(it)
    if not it then
      return cb(nil, true)
    end
    if it.done then
      local e = schema.check(sch, chosen)
      if e then
        return ask_multi(form, prompt, sch, chosen, cb, e)
      end
      return cb(chosen, false)
    end
    local next_chosen = {}
    local had = false
    for _, v in ipairs(chosen) do
      if v == it.value then
        had = true
      else
        table.insert(next_chosen, v)
      end
    end
    if not had then
      table.insert(next_chosen, it.value)
    end
    ask_multi(form, prompt, sch, next_chosen, cb)
  end)
end

-- Asks one question; cb(value, dismissed). `err` is the server's error for it, if any.
-- The prompt question `q` is asked with: its text, the `extra` lines (what the permission grants)
-- the text does not say already, and the server's error.
local function prompt_of(q, err, extra)
  local prompt = q.question or q.name
  for _, line in ipairs(extra or {}) do
    if not prompt:find(vim.trim(line:gsub('^%s*%- ', '')), 1, true) then
      prompt = prompt .. '\n' .. line
    end
  end
  if err then
    prompt = prompt .. ' [' .. tostring(err) .. ']'
  end
  return prompt
end

local function ask_one(form, q, err, previous, cb, extra)
  local sch = q.schema or {}
  if sch == vim.NIL then
    sch = {}
  end
  local k = schema.kind(sch)
  local prompt = prompt_of(q, err, extra)
  if type(q.buttons) == 'table' and #q.buttons > 0 then
    -- The safe choice first (PROTOCOL.md §5): a floating picker takes its first item on a bare
    -- <CR>, and the plan approval's buttons come Accept & Build first (VS Code's order).
    local buttons = {}
    for _, b in ipairs(q.buttons) do
      if b.value == false then
        table.insert(buttons, b)
      end
    end
    for _, b in ipairs(q.buttons) do
      if b.value ~= false then
        table.insert(buttons, b)
      end
    end
    return select(form, buttons, prompt, function(b)
      return b.label
    end, function(b)
      if not b then
        return cb(nil, true)
      end
      cb(b.value, false)
    end)
  end
  if k == 'boolean' then
    return select(form, { true, false }, prompt, function(v)
      return v and 'Yes' or 'No'
    end, function(v)
      if v == nil then
        return cb(nil, true)
      end
      cb(v, false)
    end)
  end
  if sch.enum and (k == 'string' or k == 'number' or k == 'integer') then
    return select(form, sch.enum, prompt, label, function(v)
      if v == nil then
        return cb(nil, true)
      end
      cb(v, false)
    end)
  end
  if k == 'array' and sch.items and sch.items.enum then
    return ask_multi(form, prompt, sch, type(previous) == 'table' and previous or {}, cb)
  end
  if k == 'object' and type(sch.properties) == 'table' then
    local names = vim.tbl_keys(sch.properties)
    table.sort(names)
    local required = {}
    for _, n in ipairs(sch.required or {}) do
      required[n] = true
    end
    local obj = {}
    local i = 0
    local function step()
      i = i + 1
      if i > #names then
        local e = schema.check(sch, obj)
        if e then
          return ask_one(form, q, e, obj, cb)
        end
        return cb(obj, false)
      end
      local n = names[i]
      local prev = type(previous) == 'table' and previous[n] or nil
      ask_text(form, prompt .. ' › ' .. n, sch.properties[n], prev ~= nil and tostring(prev) or nil, not required[n], function(v, dismissed)
        if dismissed then
          return cb(nil, true)
        end
        obj[n] = v
        step()
      end)
    end
    return step()
  end
  ask_text(form, prompt, sch, previous ~= nil and type(previous) ~= 'table' and tostring(previous) or nil, q.optional, cb)
end

local grants_heading = {
  plan = 'Approving also allows these commands for this session:',
  trust = 'Trusting applies:',
}

--- The lines that show what a permission request (agent/askUser's `permission`) asks and
--- grants: a command's folder, network and sandbox, then every grant, whole (the server has
--- escaped control and bidi characters), and the generated document's path unless the
--- questions' text (`said`) names it already.
---@param p table?
---@param said string?
---@return string[]
function M.permission_lines(p, said)
  if type(p) ~= 'table' then
    return {}
  end
  local lines = {}
  for _, f in ipairs({ { 'Folder', p.cwd }, { 'Network', p.network }, { 'Sandbox', p.sandbox } }) do
    if type(f[2]) == 'string' and f[2] ~= '' then
      table.insert(lines, f[1] .. ': ' .. f[2])
    end
  end
  if type(p.grants) == 'table' and #p.grants > 0 then
    table.insert(lines, grants_heading[p.kind] or 'Allowing also grants:')
    for _, g in ipairs(p.grants) do
      table.insert(lines, '  - ' .. tostring(g))
    end
  end
  if type(p.document) == 'string' and p.document ~= '' and not (said or ''):find(p.document, 1, true) then
    table.insert(lines, 'In full in ' .. p.document)
  end
  return lines
end

-- The server's errors of a request (nil for none).
local function errors_of(params)
  local errors = params.errors
  if errors == vim.NIL then
    return nil
  end
  return errors
end

-- The lines under a request's first question: the server's errors that belong to no question,
-- what the permission grants, and `note`.
local function extra_lines(params, note)
  local qs = params.questions or {}
  local said = {}
  for _, q in ipairs(qs) do
    table.insert(said, type(q.question) == 'string' and q.question or '')
  end
  local extra = M.permission_lines(params.permission, table.concat(said, '\n'))
  local others = other_errors(errors_of(params), qs)
  if #others > 0 then
    extra = vim.list_extend({ 'Please correct: ' .. table.concat(others, '; ') }, extra)
  end
  if note then
    table.insert(extra, note)
  end
  return extra
end

--- The prompt a request's first question is asked with (as collect(params, nil, cb, note) asks
--- it) and the number of choices a list shows for it (0 for a text question), or nil.
---@return string?, integer
function M.first_prompt(params, note)
  local q = (params.questions or {})[1]
  if not q then
    return nil, 0
  end
  local errors = errors_of(params)
  local prompt = prompt_of(q, errors and (errors[q.name] or errors.answers) or nil, extra_lines(params, note))
  local sch = q.schema ~= vim.NIL and q.schema or {}
  local n = 0
  if type(q.buttons) == 'table' and #q.buttons > 0 then
    n = #q.buttons
  elseif schema.kind(sch) == 'boolean' then
    n = 2
  elseif type(sch.enum) == 'table' then
    n = #sch.enum
  end
  return prompt, n
end

--- Asks every question of an `agent/askUser` request in turn and calls done({answers}) or
--- done({dismissed = true}). `previous` holds the answers sent last time for this questionId
--- (the defaults when the server asks again); `note`, if any, is a last line under the first
--- question. For a plan approval, `approve == true` skips the remaining optional questions (the
--- feedback is for Keep Planning). Returns the form, whose `close()` closes the window showing
--- a question (a withdrawn request).
---@return { close: fun() }
function M.collect(params, previous, done, note)
  local form = {}
  -- Closed (the request withdrawn): the window goes, and a stale picker's answer asks nothing
  -- more and sends nothing.
  function form.close()
    form.closed = true
    if form.window then
      form.window.close()
    end
  end
  local finish = done
  done = function(r)
    if not form.closed then
      finish(r)
    end
  end
  local qs = params.questions or {}
  local errors = errors_of(params)
  -- Nothing is echoed: the question is printed once, by vim.ui (an echo before the prompt
  -- brought a "Press ENTER" prompt on every question).
  local extra = extra_lines(params, note)
  local answers = {}
  local i = 0
  local function step()
    if form.closed then
      return
    end
    i = i + 1
    local q = qs[i]
    if not q then
      if next(answers) == nil then
        return done({ answers = vim.empty_dict() })
      end
      return done({ answers = answers })
    end
    if q.optional and params.purpose == 'plan_approval' and answers.approve == true then
      return step()
    end
    local err = errors and errors[q.name] or (errors and errors.answers) or nil
    ask_one(form, q, err, previous and previous[q.name], function(v, dismissed)
      if dismissed then
        if q.optional then
          return step()
        end
        return done({ dismissed = true })
      end
      answers[q.name] = v
      step()
    end, i == 1 and extra or nil)
  end
  step()
  return form
end

return M
