-- Unit tests of agentls.schema: the simple checks run before an answer is sent.
local t = require('runner')
require('helpers')
local schema = require('agentls.schema')

t.describe('schema.check', function()
  local cases = {
    { 'string ok', { type = 'string' }, 'x', nil },
    { 'string wrong type', { type = 'string' }, 3, 'must be text' },
    { 'minLength', { type = 'string', minLength = 3 }, 'ab', 'must be at least 3 characters' },
    { 'maxLength counts characters', { type = 'string', maxLength = 2 }, 'éé', nil },
    { 'maxLength', { type = 'string', maxLength = 2 }, 'abc', 'must be at most 2 characters' },
    { 'pattern ok', { type = 'string', pattern = '^[a-z]+-\\d{2}$' }, 'ab-12', nil },
    { 'pattern fails', { type = 'string', pattern = '^[a-z]+$' }, 'AB', 'must match ^[a-z]+$' },
    { 'pattern Vim cannot read is left to the server', { type = 'string', pattern = '(?<x>a)' }, 'zzz', nil },
    { 'enum', { type = 'string', enum = { 'dev', 'prod' } }, 'qa', 'must be one of dev, prod' },
    { 'enum ok', { type = 'string', enum = { 'dev', 'prod' } }, 'dev', nil },
    { 'integer', { type = 'integer' }, 1.5, 'must be a whole number' },
    { 'minimum', { type = 'integer', minimum = 1 }, 0, 'must be at least 1' },
    { 'maximum', { type = 'number', maximum = 10 }, 11, 'must be at most 10' },
    { 'exclusiveMinimum', { type = 'number', exclusiveMinimum = 0 }, 0, 'must be more than 0' },
    { 'boolean', { type = 'boolean' }, 'yes', 'must be yes or no' },
    { 'nullable type list', { type = { 'null', 'string' }, minLength = 1 }, '', 'must be at least 1 characters' },
    { 'array minItems', { type = 'array', items = { enum = { 'a', 'b' } }, minItems = 1 }, {}, 'pick at least 1' },
    { 'array item enum', { type = 'array', items = { type = 'string', enum = { 'a', 'b' } } }, { 'a', 'c' }, 'item 2 must be one of a, b' },
    { 'object required', { type = 'object', required = { 'host' }, properties = { host = { type = 'string' } } }, {}, 'host is required' },
    { 'object property', { type = 'object', properties = { port = { type = 'integer', maximum = 9 } } }, { port = 10 }, 'port must be at most 9' },
    { 'const', { const = 'x' }, 'y', 'must be "y"' },
  }
  for _, c in ipairs(cases) do
    t.it(c[1], function()
      local got = schema.check(c[2], c[3])
      if c[1] == 'const' then
        t.eq('must be "x"', got)
      else
        t.eq(c[4], got)
      end
    end)
  end
end)

t.describe('schema.parse', function()
  t.it('numbers', function()
    t.eq(42, schema.parse({ type = 'integer' }, ' 42 '))
    local v, err = schema.parse({ type = 'number' }, 'abc')
    t.eq(nil, v)
    t.eq('must be a number', err)
  end)
  t.it('booleans and text', function()
    t.eq(true, schema.parse({ type = 'boolean' }, 'Yes'))
    t.eq(false, schema.parse({ type = 'boolean' }, 'n'))
    t.eq(' as typed ', schema.parse({ type = 'string' }, ' as typed '))
  end)
  t.it('hints', function()
    t.eq(' (1-65535)', schema.hint({ type = 'integer', minimum = 1, maximum = 65535 }))
    t.eq(' (3-… characters)', schema.hint({ type = 'string', minLength = 3 }))
    t.eq('', schema.hint({ type = 'boolean' }))
  end)
end)
