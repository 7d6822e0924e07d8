// The question form model: which control each question's JSON Schema gets
// (the seed's render logic, §6.5), the hints shown next to it, and the
// validation of answers before they are sent. Pure: no DOM, no vscode API;
// webview/questionBar.ts mounts what this describes.

import { Validator } from '@cfworker/json-schema';
import type { JsonSchema, Question, QuestionButton } from './protocol';

/** The control a question (or an object property) is rendered with. */
export type FieldKind = 'buttons' | 'toggle' | 'radio' | 'select' | 'text' | 'checkboxes' | 'object' | 'json';

/** Above this many options a string enum is a select instead of radios. */
export const maxRadioOptions = 5;

/** A control to render: one question, or one property of an object question. */
export interface FieldSpec {
  /** Answer key (question name or property name). */
  name: string;
  /** Path of the field from the answer object's root, e.g. ["endpoint_config", "path"]. */
  path: string[];
  /** Markdown of the question, or the property's title/name. */
  label: string;
  kind: FieldKind;
  required: boolean;
  /** Constraints shown to the user, e.g. "3–50 characters · pattern ^[a-z0-9-]+$". */
  hint: string;
  /** The enum values (radio, select, checkboxes). */
  options?: unknown[];
  buttons?: QuestionButton[];
  /** Nested fields of an object. */
  fields?: FieldSpec[];
  /** The value preselected (schema default, else the kind's neutral value). */
  initial: unknown;
  schema: JsonSchema;
}

function typeOf(schema: JsonSchema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return t.length === 1 ? t[0] : undefined;
  return t;
}

/** The enum of an array's items, if they have one. */
function itemEnum(schema: JsonSchema): unknown[] | undefined {
  const items = schema.items;
  return typeof items === 'object' && Array.isArray(items.enum) ? items.enum : undefined;
}

/** The control for a schema (buttons, when given, win: seed §6.5). */
export function kindOf(schema: JsonSchema, buttons?: QuestionButton[]): FieldKind {
  if (buttons && buttons.length > 0) return 'buttons';
  const t = typeOf(schema);
  switch (t) {
    case 'boolean':
      return 'toggle';
    case 'string':
      if (Array.isArray(schema.enum)) return schema.enum.length > maxRadioOptions ? 'select' : 'radio';
      return 'text';
    case 'array':
      return itemEnum(schema) ? 'checkboxes' : 'json';
    case 'object':
      return schema.properties && Object.keys(schema.properties).length > 0 ? 'object' : 'json';
    default:
      return 'json';
  }
}

/** The constraints of a schema in words. */
export function hintOf(schema: JsonSchema): string {
  const parts: string[] = [];
  const { minLength, maxLength, minItems, maxItems, pattern } = schema;
  if (minLength !== undefined && maxLength !== undefined) parts.push(`${minLength}–${maxLength} characters`);
  else if (minLength !== undefined) parts.push(`at least ${minLength} characters`);
  else if (maxLength !== undefined) parts.push(`at most ${maxLength} characters`);
  if (pattern !== undefined) parts.push(...patternHint(schema));
  if (minItems !== undefined && maxItems !== undefined) parts.push(`choose ${minItems}–${maxItems}`);
  else if (minItems !== undefined) parts.push(`choose at least ${minItems}`);
  else if (maxItems !== undefined) parts.push(`choose at most ${maxItems}`);
  if (schema.description) parts.unshift(schema.description);
  return parts.join(' · ');
}

/** The first example of a schema, as text. */
function exampleOf(schema: JsonSchema): string | undefined {
  const ex = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  if (ex === undefined || ex === null) return undefined;
  return typeof ex === 'string' ? ex : JSON.stringify(ex);
}

/** The words for the characters of a simple class such as a-z0-9_- (undefined: not simple). */
function classWords(cls: string): string | undefined {
  const words: string[] = [];
  let rest = cls;
  const ranges: [string, string][] = [['a-z', 'lowercase letters'], ['A-Z', 'capital letters'], ['0-9', 'digits'], ['\\d', 'digits']];
  for (const [r, w] of ranges) {
    if (rest.includes(r)) {
      if (!words.includes(w)) words.push(w);
      rest = rest.split(r).join('');
    }
  }
  rest = rest.replace(/\\(.)/g, '$1');
  if (/[[\]^\\]/.test(rest) || (rest.includes('-') && rest.length > 1 && !rest.startsWith('-') && !rest.endsWith('-'))) return undefined;
  for (const ch of rest) words.push(`“${ch}”`);
  if (words.length === 0) return undefined;
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * A pattern in words when it is a simple one: ^[a-z0-9-]+$ → "only lowercase
 * letters, digits and “-”"; undefined for any other pattern.
 */
export function patternWords(pattern: string): string | undefined {
  const m = /^\^\[([^\]^]+)\](\+|\*|\{(\d+)(?:,(\d*))?\})\$$/.exec(pattern);
  if (!m) return undefined;
  const words = classWords(m[1]);
  if (!words) return undefined;
  let count = '';
  if (m[3] !== undefined) {
    const min = m[3];
    const max = m[4];
    count = max === undefined ? `, exactly ${min}` : max === '' ? `, at least ${min}` : `, ${min}–${max}`;
  }
  return `only ${words}${count}`;
}

/** The hint's words for a pattern: an example and the pattern in words before the regex; never the regex alone. */
function patternHint(schema: JsonSchema): string[] {
  const pattern = schema.pattern!;
  const out: string[] = [];
  const ex = exampleOf(schema);
  if (ex !== undefined) out.push(`e.g. ${ex}`);
  const words = schema.description ? undefined : patternWords(pattern); // a description already says it
  if (words) out.push(words);
  out.push(ex !== undefined || words || schema.description ? `format ${pattern}` : `in the format ${pattern}`);
  return out;
}

/** The message for a value that does not match its schema's pattern: the description or an example first, then the regex. */
export function patternMessage(schema: JsonSchema, where = ''): string {
  const pattern = schema.pattern ?? '';
  const ex = exampleOf(schema);
  const lead = schema.description ?? (ex !== undefined ? `expected something like ${ex}` : patternWords(pattern) ? `use ${patternWords(pattern)}` : 'not in the expected format');
  return `${lead}${where} (format: ${pattern})`;
}

/** The schema of the value at a validator's instance location (#/a/b) inside schema. */
function schemaAt(schema: JsonSchema, at: string): JsonSchema {
  let s = schema;
  for (const key of at.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const k = decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~');
    const next = s.properties?.[k] ?? (typeof s.items === 'object' ? s.items : undefined);
    if (!next) return s;
    s = next;
  }
  return s;
}

function initialOf(schema: JsonSchema, kind: FieldKind): unknown {
  if (schema.default !== undefined) return schema.default;
  switch (kind) {
    case 'toggle':
      return false;
    case 'text':
      return '';
    case 'checkboxes':
      return [];
    default:
      return undefined;
  }
}

function fieldOf(name: string, path: string[], label: string, schema: JsonSchema, required: boolean, buttons?: QuestionButton[]): FieldSpec {
  const kind = kindOf(schema, buttons);
  const spec: FieldSpec = { name, path, label, kind, required, hint: hintOf(schema), initial: initialOf(schema, kind), schema };
  if (kind === 'buttons') spec.buttons = buttons;
  if (kind === 'radio' || kind === 'select') spec.options = schema.enum;
  if (kind === 'checkboxes') spec.options = itemEnum(schema);
  if (kind === 'object') {
    const req = new Set(schema.required ?? []);
    spec.fields = Object.entries(schema.properties ?? {}).map(([k, s]) =>
      fieldOf(k, [...path, k], s.title ?? k, s, req.has(k)),
    );
  }
  return spec;
}

/** The fields of a question batch, in order. */
export function buildForm(questions: Question[]): FieldSpec[] {
  return questions.map((q) => fieldOf(q.name, [q.name], q.question, q.schema ?? {}, !(q as { optional?: boolean }).optional, q.buttons));
}

/** Parses a JSON editor's text: the value, or a message. */
export function parseJson(text: string): { value: unknown } | { error: string } {
  if (text.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { error: `not valid JSON: ${(e as Error).message}` };
  }
}

const validators = new WeakMap<object, Validator>();

function validatorFor(schema: JsonSchema): Validator {
  let v = validators.get(schema);
  if (!v) {
    v = new Validator(schema as never, '2020-12', false);
    validators.set(schema, v);
  }
  return v;
}

/** Checks one value against its schema: null when valid, else a message a person can act on. */
export function checkValue(schema: JsonSchema, value: unknown): string | null {
  const res = validatorFor(schema).validate(value);
  if (res.valid) return null;
  // The deepest error says what is wrong; the first ones only say "properties failed".
  const err = res.errors[res.errors.length - 1];
  return friendly(err.keyword, err.error, schema, err.instanceLocation);
}

function friendly(keyword: string, error: string, schema: JsonSchema, at: string): string {
  const where = at && at !== '#' ? ` (${at.replace(/^#\//, '')})` : '';
  switch (keyword) {
    case 'pattern':
      return patternMessage(schemaAt(schema, at), where);
    case 'minLength':
    case 'maxLength':
      return `${hintOf({ minLength: schema.minLength, maxLength: schema.maxLength }) || error}${where}`;
    case 'minItems':
    case 'maxItems':
      return `${hintOf({ minItems: schema.minItems, maxItems: schema.maxItems }) || error}`;
    case 'required':
      return error.replace(/^Instance does not have required property /, 'missing ');
    case 'enum':
      return `not one of the choices${where}`;
    default:
      return `${error}${where}`;
  }
}

/**
 * Validates a batch's values (undefined: unanswered). Returns the errors by
 * question name: empty when the answers may be sent. Unanswered optional
 * questions are left out of the answers.
 */
export function validateAnswers(
  fields: FieldSpec[],
  values: Record<string, unknown>,
): { answers: Record<string, unknown>; errors: Record<string, string> } {
  const answers: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined || (f.kind === 'text' && v === '' && !f.required)) {
      if (f.required) errors[f.name] = f.kind === 'radio' || f.kind === 'select' || f.kind === 'buttons' ? 'choose one' : 'an answer is needed';
      continue;
    }
    const msg = checkValue(f.schema, v);
    if (msg) errors[f.name] = msg;
    else answers[f.name] = v;
  }
  return { answers, errors };
}

/** Drops empty optional properties from an object field's value (unset text fields). */
export function compactObject(field: FieldSpec, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of field.fields ?? []) {
    const v = value[f.name];
    if (v === undefined) continue;
    if (!f.required && f.kind === 'text' && v === '') continue;
    out[f.name] = v;
  }
  return out;
}
