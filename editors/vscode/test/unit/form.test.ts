// The form model against every schema kind of the seed's §6.3 (plus the
// fallbacks), with valid and invalid answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildForm, checkValue, compactObject, hintOf, kindOf, maxRadioOptions, parseJson, patternWords, validateAnswers } from '../../src/form';
import type { JsonSchema, Question } from '../../src/protocol';

// The seed's §6.3 examples, verbatim in structure.
const confirm: Question = {
  name: 'confirm',
  question: 'Should I proceed?',
  schema: { type: 'boolean' },
  buttons: [
    { label: 'Yes', value: true },
    { label: 'No', value: false },
  ],
};
const environment: Question = {
  name: 'environment',
  question: 'Which deployment environment should I use?',
  schema: { type: 'string', enum: ['dev', 'staging', 'prod'], description: 'Select deployment target' },
};
const branch: Question = {
  name: 'branch_name',
  question: 'What should I name the new feature branch?',
  schema: { type: 'string', pattern: '^[a-z0-9-]+$', minLength: 3, maxLength: 50, description: 'Branch name (lowercase, numbers, hyphens only)' },
};
const components: Question = {
  name: 'components',
  question: 'Select which components to update:',
  schema: { type: 'array', items: { type: 'string', enum: ['frontend', 'backend', 'database', 'docs'] }, minItems: 1, description: 'Choose at least one component' },
};
const endpoint: Question = {
  name: 'endpoint_config',
  question: 'Configure the new API endpoint:',
  schema: {
    type: 'object',
    properties: {
      path: { type: 'string', pattern: '^/[a-z0-9/-]+$' },
      method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'DELETE'] },
      auth_required: { type: 'boolean', default: true },
    },
    required: ['path', 'method'],
  },
};

describe('kindOf (seed §6.5 render logic)', () => {
  const cases: [string, Question, string][] = [
    ['buttons win over the schema', confirm, 'buttons'],
    ['boolean without buttons', { ...confirm, buttons: undefined }, 'toggle'],
    ['string enum', environment, 'radio'],
    ['string enum above the radio limit', { ...environment, schema: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f'] } }, 'select'],
    ['validated string', branch, 'text'],
    ['array of enum', components, 'checkboxes'],
    ['object', endpoint, 'object'],
    ['array without enum', { ...components, schema: { type: 'array', items: { type: 'string' } } }, 'json'],
    ['number', { name: 'n', question: 'How many?', schema: { type: 'integer' } }, 'json'],
    ['object without properties', { name: 'o', question: 'Map?', schema: { type: 'object' } }, 'json'],
    ['no type', { name: 'x', question: 'Anything?', schema: {} }, 'json'],
  ];
  for (const [name, q, want] of cases) {
    test(name, () => assert.equal(kindOf(q.schema, q.buttons), want));
  }
  test('the radio limit is 5', () => assert.equal(maxRadioOptions, 5));
});

describe('buildForm', () => {
  test('describes every question in order with hints, options and defaults', () => {
    const form = buildForm([confirm, environment, branch, components, endpoint]);
    assert.deepEqual(form.map((f) => [f.name, f.kind, f.required]), [
      ['confirm', 'buttons', true],
      ['environment', 'radio', true],
      ['branch_name', 'text', true],
      ['components', 'checkboxes', true],
      ['endpoint_config', 'object', true],
    ]);
    assert.deepEqual(form[0].buttons?.map((b) => b.label), ['Yes', 'No']);
    assert.deepEqual(form[1].options, ['dev', 'staging', 'prod']);
    assert.equal(form[2].hint, 'Branch name (lowercase, numbers, hyphens only) · 3–50 characters · format ^[a-z0-9-]+$');
    assert.equal(form[3].hint, 'Choose at least one component · choose at least 1');
    assert.deepEqual(form[3].initial, []);
    const obj = form[4].fields!;
    assert.deepEqual(obj.map((f) => [f.name, f.kind, f.required, f.path.join('.')]), [
      ['path', 'text', true, 'endpoint_config.path'],
      ['method', 'radio', true, 'endpoint_config.method'],
      ['auth_required', 'toggle', false, 'endpoint_config.auth_required'],
    ]);
    assert.equal(obj[2].initial, true, 'a schema default is preselected');
  });
  test('optional questions (the approval feedback) are not required', () => {
    const [f] = buildForm([{ name: 'feedback', question: 'What should change?', schema: { type: 'string', maxLength: 4000 }, optional: true } as Question]);
    assert.equal(f.required, false);
  });
});

describe('validateAnswers', () => {
  const form = buildForm([confirm, environment, branch, components, endpoint]);
  const valid = {
    confirm: true,
    environment: 'staging',
    branch_name: 'feature-login',
    components: ['frontend', 'docs'],
    endpoint_config: { path: '/api/users', method: 'GET', auth_required: true },
  };
  test('valid answers pass and are returned as one object keyed by name', () => {
    const { answers, errors } = validateAnswers(form, valid);
    assert.deepEqual(errors, {});
    assert.deepEqual(answers, valid);
  });
  const invalid: [string, Record<string, unknown>, string, RegExp][] = [
    ['unanswered buttons', { confirm: undefined }, 'confirm', /choose one/],
    ['unanswered radio', { environment: undefined }, 'environment', /choose one/],
    ['enum value not offered', { environment: 'qa' }, 'environment', /not one of the choices/],
    ['pattern (the description first, then the regex)', { branch_name: 'Bad Name' }, 'branch_name', /^Branch name \(lowercase, numbers, hyphens only\) \(format: \^\[a-z0-9-\]\+\$\)$/],
    ['too short', { branch_name: 'ab' }, 'branch_name', /3–50 characters/],
    ['too long', { branch_name: 'a'.repeat(51) }, 'branch_name', /3–50 characters/],
    ['minItems', { components: [] }, 'components', /at least 1/],
    ['item not in enum', { components: ['frontend', 'nope'] }, 'components', /not one of the choices/],
    ['object missing a required property', { endpoint_config: { path: '/x' } }, 'endpoint_config', /missing "?method/],
    ['object property failing its pattern', { endpoint_config: { path: 'api', method: 'GET' } }, 'endpoint_config', /^not in the expected format \(path\) \(format: \^\/\[a-z0-9\/-\]\+\$\)$/],
    ['boolean given a string', { confirm: 'yes' }, 'confirm', /boolean/],
  ];
  for (const [name, change, field, msg] of invalid) {
    test(`blocks: ${name}`, () => {
      const { answers, errors } = validateAnswers(form, { ...valid, ...change });
      assert.match(errors[field] ?? '', msg);
      assert.equal(field in answers, false, 'an invalid answer is not sent');
      assert.deepEqual(Object.keys(errors), [field], 'only the bad field is flagged');
    });
  }
  test('an empty optional text answer is left out', () => {
    const f = buildForm([
      confirm,
      { name: 'feedback', question: 'Why?', schema: { type: 'string', maxLength: 10 }, optional: true } as Question,
    ]);
    assert.deepEqual(validateAnswers(f, { confirm: false, feedback: '' }), { answers: { confirm: false }, errors: {} });
    assert.deepEqual(validateAnswers(f, { confirm: false, feedback: 'too long for this' }).errors, { feedback: 'at most 10 characters' });
  });
});

describe('helpers', () => {
  test('parseJson', () => {
    assert.deepEqual(parseJson('{"a": [1, 2]}'), { value: { a: [1, 2] } });
    assert.deepEqual(parseJson('  '), { value: undefined });
    const bad = parseJson('{a:1}');
    assert.ok('error' in bad && /not valid JSON/.test(bad.error));
  });
  test('checkValue uses draft 2020-12 without eval', () => {
    assert.equal(checkValue({ type: 'integer', minimum: 1 }, 3), null);
    assert.match(checkValue({ type: 'integer', minimum: 1 }, 0) ?? '', /minimum|1/);
    assert.equal(checkValue({ prefixItems: [{ type: 'string' }], items: false }, ['a']), null, '2020-12 prefixItems');
    assert.notEqual(checkValue({ prefixItems: [{ type: 'string' }], items: false }, ['a', 'b']), null);
  });
  test('compactObject drops unset optional text', () => {
    const [obj] = buildForm([{ name: 'o', question: 'o', schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['b'] } }]);
    assert.deepEqual(compactObject(obj, { a: '', b: '' }), { b: '' });
  });
});

describe('pattern messages and hints (issue 21: never the raw regex alone)', () => {
  const cases: [string, JsonSchema, string, RegExp][] = [
    ['description first', { type: 'string', pattern: '^[a-z]+$', description: 'A short lowercase word' }, 'A short lowercase word · format ^[a-z]+$', /^A short lowercase word \(format: \^\[a-z\]\+\$\)$/],
    ['examples[0] without a description', { type: 'string', pattern: '^v\\d+\\.\\d+$', examples: ['v1.2', 'v10.0'] }, 'e.g. v1.2 · format ^v\\d+\\.\\d+$', /^expected something like v1\.2 \(format: /],
    ['a simple class in words', { type: 'string', pattern: '^[a-z0-9_-]+$' }, 'only lowercase letters, digits, “_” and “-” · format ^[a-z0-9_-]+$', /^use only lowercase letters, digits, “_” and “-” \(format: /],
    ['counts in words', { type: 'string', pattern: '^[0-9]{4}$' }, 'only digits, exactly 4 · format ^[0-9]{4}$', /^use only digits, exactly 4 /],
    ['anything else says so in words', { type: 'string', pattern: '^(a|b)c$' }, 'in the format ^(a|b)c$', /^not in the expected format \(format: \^\(a\|b\)c\$\)$/],
  ];
  for (const [name, schema, hint, msg] of cases) {
    test(name, () => {
      assert.equal(hintOf(schema), hint);
      assert.notEqual(hintOf(schema), schema.pattern);
      assert.match(checkValue(schema, 'NOT VALID!') ?? '', msg);
      assert.doesNotMatch(checkValue(schema, 'NOT VALID!') ?? '', /does not match the pattern/);
    });
  }
  test('patternWords leaves what it cannot say to the regex', () => {
    assert.equal(patternWords('^[a-f0-9]+$'), undefined, 'a range it does not name');
    assert.equal(patternWords('^[A-Z][a-z]+$'), undefined);
    assert.equal(patternWords('^[A-Z]{2,3}$'), 'only capital letters, 2–3');
  });
});
