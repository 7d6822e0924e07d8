// The question bar: mounts the form described by src/form.ts, validates with
// the JSON Schema validator before submitting, shows the server's errors next
// to their fields. Plan approvals show the plan's steps first.

import { buildForm, compactObject, type FieldSpec, parseJson, validateAnswers } from '../src/form';
import type { PermissionRequest, PlanEntry } from '../src/protocol';
import { type PendingQuestion, requestChangesLabel } from '../src/state';
import { approvalPlan } from './approvalPanel';
import { h, icon } from './dom';
import { renderMarkdown } from './markdown';

type Read = { value: unknown } | { error: string };

interface Mounted {
  spec: FieldSpec;
  el: HTMLElement;
  read(): Read;
  setError(msg: string | undefined): void;
  /** Focuses the field's first control; preventScroll: the card is not scrolled to it. */
  focus(opts?: FocusOptions): void;
  /** Focuses the field to show its error, never onto a button: a validation error must not leave the focus where the next Enter answers (approves, allows). */
  focusError(): void;
  /** Chooses the button with this value (a row of buttons only), as a click would, without submitting. */
  choose(value: unknown): boolean;
}

/** What the bar does when the user acts. */
export interface BarActions {
  submit(answers: Record<string, unknown>): void;
  dismiss(): void;
  openPlan(planFile: string): void;
  /** "Request changes": the plan's open review comments go to the planner. */
  requestChanges(): void;
}

/** The approval's line on the plan's open review comments, with its Request changes button. */
export function openCommentsRow(n: number, requestChanges: () => void): HTMLElement {
  const btn = h('button', { type: 'button', class: 'btn btn-secondary request-changes' }, requestChangesLabel(n));
  btn.addEventListener('click', () => requestChanges());
  const text = n === 1 ? 'The plan has 1 open review comment: it cannot be approved until it is resolved.' : `The plan has ${n} open review comments: it cannot be approved until they are resolved.`;
  return h('div', { class: 'open-comments', 'data-open-comments': String(n) }, h('div', { class: 'field-hint' }, text), h('div', { class: 'buttons' }, btn));
}

let fieldSeq = 0;

function label(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function errorSlot(): HTMLElement {
  return h('div', { class: 'field-error', role: 'alert', hidden: true });
}

/** A field's mark: " *" when it needs an answer, " (optional)" when it may stay empty; none for a row of buttons. */
export function fieldMark(spec: FieldSpec): HTMLElement | null {
  if (spec.kind === 'buttons') return null;
  if (!spec.required && /\(optional\)\s*$/i.test(spec.label)) return null; // the question says it already
  return spec.required ? h('span', { class: 'required', title: 'required', 'aria-label': 'required' }, ' *') : h('span', { class: 'optional-mark' }, ' (optional)');
}

function mountField(spec: FieldSpec, onButton: () => void, nested: boolean): Mounted {
  const id = `f${++fieldSeq}`;
  const err = errorSlot();
  const wrap = h('div', { class: `field field-${spec.kind}`, 'data-field': spec.path.join('.') });
  const title = nested
    ? h('label', { class: 'field-label', for: id }, spec.label, fieldMark(spec))
    : h('div', { class: 'field-label question-text' });
  if (!nested) {
    (title as HTMLElement).innerHTML = renderMarkdown(spec.label);
    const mark = fieldMark(spec);
    // The mark ends the question's last paragraph, not a line of its own.
    if (mark) ((title as HTMLElement).lastElementChild?.tagName === 'P' ? (title as HTMLElement).lastElementChild! : title).append(mark);
  }
  wrap.append(title);
  const hint = spec.hint && spec.kind !== 'buttons' ? h('div', { class: 'field-hint' }, spec.hint) : null;
  let read: () => Read;
  let focusEl: HTMLElement | undefined;
  let choose: (value: unknown) => boolean = () => false;

  switch (spec.kind) {
    case 'buttons': {
      let chosen: unknown;
      const row = h('div', { class: 'buttons', role: 'group' });
      const pick = (btn: HTMLButtonElement, value: unknown) => {
        chosen = value;
        for (const o of row.querySelectorAll('button')) o.setAttribute('aria-pressed', String(o === btn));
      };
      const buttons = (spec.buttons ?? []).map((b) => {
        const btn = h('button', { type: 'button', class: `btn btn-${b.variant ?? 'secondary'}` }, b.label);
        btn.addEventListener('click', () => {
          pick(btn, b.value);
          onButton();
        });
        row.append(btn);
        focusEl ??= btn;
        return { btn, value: b.value };
      });
      choose = (value) => {
        const b = buttons.find((x) => x.value === value);
        if (b) pick(b.btn, b.value);
        return !!b;
      };
      wrap.append(row);
      read = () => ({ value: chosen });
      break;
    }
    case 'toggle': {
      const input = h('input', { type: 'checkbox', role: 'switch', id, checked: spec.initial === true });
      wrap.append(h('label', { class: 'toggle', for: id }, input, h('span', {}, spec.initial === true ? 'Yes' : 'No')));
      input.addEventListener('change', () => ((input.nextSibling as HTMLElement).textContent = input.checked ? 'Yes' : 'No'));
      read = () => ({ value: input.checked });
      focusEl = input;
      break;
    }
    case 'radio': {
      const group = h('div', { class: 'radios', role: 'radiogroup' });
      const inputs: HTMLInputElement[] = [];
      (spec.options ?? []).forEach((opt, i) => {
        const input = h('input', { type: 'radio', name: id, id: `${id}_${i}`, value: String(i), checked: spec.initial === opt });
        inputs.push(input);
        group.append(h('label', { class: 'radio', for: `${id}_${i}` }, input, ` ${label(opt)}`));
      });
      wrap.append(group);
      read = () => {
        const i = inputs.findIndex((x) => x.checked);
        return { value: i < 0 ? undefined : spec.options?.[i] };
      };
      focusEl = inputs[0];
      break;
    }
    case 'select': {
      const sel = h('select', { id });
      sel.append(h('option', { value: '' }, 'Choose…'));
      (spec.options ?? []).forEach((opt, i) => sel.append(h('option', { value: String(i), selected: spec.initial === opt }, label(opt))));
      wrap.append(sel);
      read = () => ({ value: sel.value === '' ? undefined : spec.options?.[Number(sel.value)] });
      focusEl = sel;
      break;
    }
    case 'text': {
      const long = spec.name === 'feedback' || (spec.schema.maxLength ?? 0) > 200;
      const input = long ? h('textarea', { id, rows: '2' }) : h('input', { type: 'text', id });
      input.value = typeof spec.initial === 'string' ? spec.initial : '';
      wrap.append(input);
      read = () => ({ value: input.value });
      focusEl = input;
      break;
    }
    case 'checkboxes': {
      const group = h('div', { class: 'checkboxes', role: 'group' });
      const inputs: HTMLInputElement[] = [];
      const initial = Array.isArray(spec.initial) ? spec.initial : [];
      (spec.options ?? []).forEach((opt, i) => {
        const input = h('input', { type: 'checkbox', id: `${id}_${i}`, checked: initial.includes(opt) });
        inputs.push(input);
        group.append(h('label', { class: 'checkbox', for: `${id}_${i}` }, input, ` ${label(opt)}`));
      });
      wrap.append(group);
      read = () => ({ value: (spec.options ?? []).filter((_, i) => inputs[i].checked) });
      focusEl = inputs[0];
      break;
    }
    case 'object': {
      const set = h('fieldset', { class: 'object' });
      const kids = (spec.fields ?? []).map((f) => mountField(f, onButton, true));
      for (const k of kids) set.append(k.el);
      wrap.append(set);
      read = () => {
        const value: Record<string, unknown> = {};
        for (const k of kids) {
          const r = k.read();
          if ('error' in r) return { error: `${k.spec.name}: ${r.error}` };
          value[k.spec.name] = r.value;
        }
        return { value: compactObject(spec, value) };
      };
      focusEl = kids[0]?.el.querySelector<HTMLElement>('input,select,textarea,button') ?? undefined;
      break;
    }
    default: {
      const ta = h('textarea', { id, rows: '3', class: 'json', spellcheck: 'false', placeholder: 'JSON value' });
      ta.value = spec.initial === undefined ? '' : JSON.stringify(spec.initial, null, 2);
      wrap.append(ta);
      read = () => parseJson(ta.value);
      focusEl = ta;
    }
  }
  if (hint) wrap.append(hint);
  wrap.append(err);
  return {
    spec,
    el: wrap,
    read: () => read(),
    setError: (msg) => {
      err.textContent = msg ?? '';
      err.hidden = !msg;
      wrap.classList.toggle('invalid', !!msg);
    },
    focus: (opts) => focusEl?.focus(opts),
    focusError: () => {
      const el = spec.kind === 'object' ? wrap.querySelector<HTMLElement>('.invalid input, .invalid select, .invalid textarea') ?? wrap.querySelector<HTMLElement>('input, select, textarea') : focusEl;
      if (el && !(el instanceof HTMLButtonElement)) el.focus();
    },
    choose: (value) => choose(value),
  };
}

/**
 * Renders a pending question (or plan approval) into a bar element. opts.openComments: the plan's
 * open review comments (an approval then offers Request changes); opts.autofocus (default true):
 * focus the first field (not when the same question is drawn again).
 */
export function renderQuestionBar(
  q: PendingQuestion,
  plan: { planFile: string; entries: PlanEntry[] } | null,
  actions: BarActions,
  opts: { openComments?: number; autofocus?: boolean } = {},
): HTMLElement {
  const openComments = opts.openComments ?? 0;
  const severity = q.questions.find((x) => x.severity === 'critical')?.severity ?? q.questions.find((x) => x.severity)?.severity;
  const bar = h('form', {
    class: `question-bar ${q.purpose === 'plan_approval' ? 'approval' : q.purpose === 'permission' ? 'permission-request' : ''} ${severity ? `severity-${severity}` : ''}`,
    'data-question-id': q.questionId,
    'aria-label': q.purpose === 'plan_approval' ? 'Plan approval' : q.purpose === 'permission' ? 'Permission request' : 'Question from the agent',
    novalidate: true,
  });
  const head = h('div', { class: 'bar-head' },
    icon(q.purpose === 'plan_approval' ? 'checklist' : q.purpose === 'permission' ? 'shield' : 'question'),
    h('span', { class: 'bar-title' }, q.purpose === 'plan_approval' ? 'Plan awaiting approval' : q.purpose === 'permission' ? 'Permission requested' : 'The agent asks'),
  );
  const dismiss = h('button', { type: 'button', class: 'icon-btn dismiss', title: 'Dismiss (Escape)', 'aria-label': 'Dismiss' }, icon('close'));
  dismiss.addEventListener('click', () => actions.dismiss());
  head.append(dismiss);
  bar.append(head);

  // The plan rendered once, with its Open plan link (webview/approvalPanel.ts).
  if (q.purpose === 'plan_approval' && plan) bar.append(approvalPlan(plan, actions.openPlan));

  if (q.permission) bar.append(renderPermission(q.permission, q.questions.map((x) => x.question).join('\n')));
  if (q.purpose === 'plan_approval' && openComments > 0) bar.append(openCommentsRow(openComments, actions.requestChanges));

  const specs = buildForm(q.questions);
  let mounted: Mounted[] = [];
  const submit = () => {
    const values: Record<string, unknown> = {};
    const parseErrors: Record<string, string> = {};
    for (const m of mounted) {
      const r = m.read();
      if ('error' in r) parseErrors[m.spec.name] = r.error;
      else values[m.spec.name] = r.value;
    }
    const { answers, errors } = validateAnswers(specs, values);
    Object.assign(errors, parseErrors);
    for (const m of mounted) m.setError(errors[m.spec.name]);
    if (Object.keys(errors).length > 0) {
      bar.classList.add('has-errors');
      // The first field in error that takes text or a choice; a row of buttons left unchosen only
      // shows its error (role alert): the focus stays where it is, never on Accept or Allow.
      mounted.find((m) => errors[m.spec.name] && m.spec.kind !== 'buttons')?.focusError();
      return;
    }
    actions.submit(answers);
  };
  mounted = specs.map((s) => mountField(s, submit, false));
  // An approval's feedback box comes before its Accept / Keep Planning buttons.
  const order = q.purpose === 'plan_approval' ? [...mounted.filter((m) => m.spec.kind !== 'buttons'), ...mounted.filter((m) => m.spec.kind === 'buttons')] : mounted;
  for (const m of order) {
    bar.append(m.el);
    m.setError(q.errors?.[m.spec.name]);
  }
  if (q.purpose === 'plan_approval') feedbackInBox(bar);
  // Without buttons, a Submit button; with buttons, they submit.
  if (!specs.some((s) => s.kind === 'buttons')) {
    bar.append(h('div', { class: 'buttons submit-row' }, h('button', { type: 'submit', class: 'btn btn-primary submit' }, 'Submit')));
  }
  bar.addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  bar.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      actions.dismiss();
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.target instanceof HTMLTextAreaElement && !e.target.classList.contains('json')) {
      e.preventDefault();
      if (q.purpose === 'plan_approval' && e.target.closest('[data-field="feedback"]')) keepPlanning(e.target.value);
      else submit();
    }
  });
  // Enter in an approval's feedback box sends the feedback with Keep Planning (the safe answer: the
  // planner revises the plan); with the box empty it only says to choose, and the focus stays in the
  // box. It never approves: approving takes the Accept & Build button itself.
  const keepPlanning = (feedback: string) => {
    const decision = mounted.find((m) => m.spec.name === 'approve' && m.spec.kind === 'buttons');
    if (feedback.trim() && decision?.choose(false)) submit();
    else {
      decision?.setError('Choose Accept & Build or Keep Planning (Enter in the feedback box sends it with Keep Planning).');
      bar.classList.add('has-errors');
    }
  };
  if (opts.autofocus !== false) queueMicrotask(() => autofocus(bar, q.purpose === 'plan_approval' ? (mounted.find((m) => m.spec.kind !== 'buttons') ?? mounted[0]) : mounted[0]));
  return bar;
}

/**
 * Focuses a new question's first field, unless the user is typing in a field outside it (the
 * prompt box): a key meant for that field must not answer the question (a space on a focused
 * "Accept & Build" approved the plan). A plan approval's first field is its feedback box, never
 * its Accept button. The focus scrolls nothing: the card shows from its start (a permission's
 * command, under the head), not scrolled to its buttons kept at its bottom.
 */
function autofocus(bar: HTMLElement, first: Mounted | undefined): void {
  const active = document.activeElement;
  if (active instanceof HTMLElement && !bar.contains(active) && active.matches('textarea, input, select, [contenteditable="true"]')) return;
  first?.focus({ preventScroll: true });
  bar.scrollTop = 0;
}

/**
 * An approval's feedback question as its box's placeholder and accessible name: its own line is
 * hidden (chat.css), which leaves the plan above two more lines in a narrow side bar.
 */
function feedbackInBox(bar: HTMLElement): void {
  const field = bar.querySelector<HTMLElement>('[data-field="feedback"]');
  const box = field?.querySelector<HTMLTextAreaElement | HTMLInputElement>('textarea, input');
  const text = field?.querySelector('.question-text')?.textContent?.trim();
  if (!box || !text) return;
  box.placeholder = text;
  box.setAttribute('aria-label', text);
}

/** What a permission grants, under its heading (nothing when it grants nothing more). */
export function grantsList(kind: PermissionRequest['kind'], grants: string[]): HTMLElement[] {
  if (grants.length === 0) return [];
  const list = h('ul', { class: 'permission-grants' });
  for (const g of grants) list.append(h('li', {}, h('code', {}, g)));
  return [h('div', { class: 'permission-grants-head' }, grantsHeading(kind)), list];
}

/** The heading of a permission's grants list, by kind. */
function grantsHeading(kind: PermissionRequest['kind']): string {
  switch (kind) {
    case 'plan':
      return 'Approving also allows these commands for this session:';
    case 'trust':
      return 'Trusting applies:';
    default:
      return 'Allowing also grants:';
  }
}

/**
 * What a permission request asks and grants, shown whole (text nodes only: the server has
 * escaped control and bidi characters): a command's folder, network and sandbox, and every
 * grant (a plan's allowed commands, a trusted file's settings), never cut. The generated
 * document's path is shown only when the questions' text (`said`) does not name it already.
 */
export function renderPermission(p: PermissionRequest, said = ''): HTMLElement {
  const box = h('div', { class: `permission permission-${p.kind}`, 'data-permission-kind': p.kind });
  if (p.kind !== 'plan') box.append(h('div', { class: 'permission-what' }, h('code', {}, p.what)));
  const facts: [string, string | undefined][] = [
    ['Folder', p.cwd],
    ['Network', p.network],
    ['Sandbox', p.sandbox],
    ['Reach', p.kind === 'plan' ? undefined : p.reach],
  ];
  const dl = h('dl', { class: 'permission-facts' });
  for (const [k, v] of facts) {
    if (v) dl.append(h('dt', {}, k), h('dd', { 'data-fact': k.toLowerCase() }, v));
  }
  if (dl.childElementCount > 0) box.append(dl);
  box.append(...grantsList(p.kind, p.grants ?? []));
  if (p.document && !said.includes(p.document)) box.append(h('div', { class: 'permission-document' }, `In full in ${p.document}`));
  return box;
}
