-- agentls.schema: the simple JSON Schema checks run on an answer before it is sent (type,
-- enum, const, pattern, min/max length, minimum/maximum, multiple items, required properties),
-- and the parsing of typed text into a value. The server validates fully; these checks only
-- save a round trip. Pure Lua; unit-tested in tests/schema_spec.lua.
local M = {}

local function kind(schema)
  local t = schema.type
  if type(t) == 'table' then
    for _, x in ipairs(t) do
      if x ~= 'null' then
        return x
      end
    end
  end
  if t == nil and schema.enum then
    return type(schema.enum[1]) == 'number' and 'number' or 'string'
  end
  return t
end
M.kind = kind

local function is_integer(v)
  return type(v) == 'number' and math.floor(v) == v
end

local function regex_ok(pattern, s)
  -- JSON Schema patterns are ECMA regexes; Vim's very-magic mode reads the common subset
  -- (classes, anchors, groups, alternation, counts) the same way. A pattern Vim cannot
  -- compile is left to the server.
  local ok, re = pcall(vim.regex, '\\v' .. pattern)
  if not ok then
    return true
  end
  return re:match_str(s) ~= nil
end

--- Checks value v against schema; returns nil when it passes, else a message a person can act on.
function M.check(schema, v)
  schema = schema or {}
  local k = kind(schema)
  if schema.const ~= nil and not vim.deep_equal(schema.const, v) then
    return 'must be ' .. vim.inspect(schema.const)
  end
  if k == 'string' then
    if type(v) ~= 'string' then
      return 'must be text'
    end
    local n = vim.fn.strchars(v)
    if schema.minLength and n < schema.minLength then
      return string.format('must be at least %d characters', schema.minLength)
    end
    if schema.maxLength and n > schema.maxLength then
      return string.format('must be at most %d characters', schema.maxLength)
    end
    if schema.pattern and not regex_ok(schema.pattern, v) then
      return 'must match ' .. schema.pattern
    end
  elseif k == 'number' or k == 'integer' then
    if type(v) ~= 'number' then
      return 'must be a number'
    end
    if k == 'integer' and not is_integer(v) then
      return 'must be a whole number'
    end
    if schema.minimum and v < schema.minimum then
      return 'must be at least ' .. schema.minimum
    end
    if schema.maximum and v > schema.maximum then
      return 'must be at most ' .. schema.maximum
    end
    if schema.exclusiveMinimum and v <= schema.exclusiveMinimum then
      return 'must be more than ' .. schema.exclusiveMinimum
    end
    if schema.exclusiveMaximum and v >= schema.exclusiveMaximum then
      return 'must be less than ' .. schema.exclusiveMaximum
    end
  elseif k == 'boolean' then
    if type(v) ~= 'boolean' then
      return 'must be yes or no'
    end
  elseif k == 'array' then
    if type(v) ~= 'table' then
      return 'must be a list'
    end
    if schema.minItems and #v < schema.minItems then
      return string.format('pick at least %d', schema.minItems)
    end
    if schema.maxItems and #v > schema.maxItems then
      return string.format('pick at most %d', schema.maxItems)
    end
    for i, item in ipairs(v) do
      local e = M.check(schema.items or {}, item)
      if e then
        return string.format('item %d %s', i, e)
      end
    end
  elseif k == 'object' then
    if type(v) ~= 'table' then
      return 'must be an object'
    end
    for _, name in ipairs(schema.required or {}) do
      if v[name] == nil then
        return name .. ' is required'
      end
    end
    for name, sub in pairs(schema.properties or {}) do
      if v[name] ~= nil then
        local e = M.check(sub, v[name])
        if e then
          return name .. ' ' .. e
        end
      end
    end
  end
  if schema.enum and not vim.tbl_contains(schema.enum, v) then
    local shown = {}
    for _, x in ipairs(schema.enum) do
      table.insert(shown, tostring(x))
    end
    return 'must be one of ' .. table.concat(shown, ', ')
  end
  return nil
end

--- Parses typed text into a value of the schema's type: numbers for number/integer, the text
--- otherwise. Returns value, or nil and a message.
function M.parse(schema, text)
  local k = kind(schema or {})
  if k == 'number' or k == 'integer' then
    local n = tonumber(vim.trim(text))
    if n == nil then
      return nil, 'must be a number'
    end
    return n
  elseif k == 'boolean' then
    local t = vim.trim(text):lower()
    if t == 'y' or t == 'yes' or t == 'true' then
      return true
    elseif t == 'n' or t == 'no' or t == 'false' then
      return false
    end
    return nil, 'must be yes or no'
  end
  return text
end

--- A short hint of the constraints, for a prompt: "(3-20 characters)", "(1-65535)", "".
function M.hint(schema)
  schema = schema or {}
  local parts = {}
  local k = kind(schema)
  if k == 'string' then
    if schema.minLength or schema.maxLength then
      table.insert(parts, string.format('%s-%s characters', schema.minLength or 0, schema.maxLength or '…'))
    end
    if schema.pattern then
      table.insert(parts, 'pattern ' .. schema.pattern)
    end
  elseif k == 'number' or k == 'integer' then
    if schema.minimum or schema.maximum then
      table.insert(parts, string.format('%s-%s', schema.minimum or '…', schema.maximum or '…'))
    else
      table.insert(parts, k == 'integer' and 'whole number' or 'number')
    end
  end
  if #parts == 0 then
    return ''
  end
  return ' (' .. table.concat(parts, ', ') .. ')'
end

return M
