// A tool call's row: one readable line ("Edited store.go +17 −2", "Ran
// `go test ./...` ✓ (exit 0)", "Asked: …") whose file is a link, while it
// runs its newest output line, the refusal's reason and the user's answers
// as text under it, and the raw arguments and result only behind
// "Details". A task row keeps its
// sub-agent's rows collapsed inside (src/subagents.ts).

import type { FromWebview } from '../src/messages';
import type { ToolItem } from '../src/state';
import { shortId, taskSummary } from '../src/subagents';
import { countsText, exitText, summarize, type RowSummary } from '../src/toolSummary';
import { h, icon } from './dom';
import { problemsBlock } from './problems';
import { tickRefusedBlock } from './tickRefused';

const statusIcons: Record<string, string> = { completed: 'check', failed: 'error', error: 'error', cancelled: 'circle-slash', budget_exhausted: 'warning' };

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The summary line's parts: the verb, the file as a link, the command as code, the counts and the exit. */
function summaryParts(s: RowSummary, post: (m: FromWebview) => void): (Node | string)[] {
  const parts: (Node | string)[] = [h('span', { class: 'tool-verb' }, s.verb)];
  if (s.file) {
    const link = h('a', { href: '#', class: 'tool-file', title: s.edit ? `Open ${s.file} (its diff when the turn's review has it)` : `Open ${s.file}` }, s.file);
    link.addEventListener('click', (e) => {
      e.preventDefault();
      e.stopPropagation(); // the link opens the file, not the row
      post({ type: 'openFile', path: s.file!, diff: !!s.edit });
    });
    parts.push(' ', link);
  }
  if (s.code !== undefined) parts.push(' ', h('code', { class: 'tool-code' }, s.code));
  if (s.text) parts.push(' ', h('span', { class: 'tool-text' }, s.text));
  if (s.added !== undefined || s.removed !== undefined) {
    parts.push(' ', h('span', { class: 'tool-counts' }, h('span', { class: 'added' }, s.added !== undefined ? `+${s.added}` : ''), s.removed !== undefined ? ' ' : '', h('span', { class: 'removed' }, s.removed !== undefined ? countsText({ removed: s.removed }) : '')));
  }
  if (s.exit !== undefined || s.timedOut) parts.push(' ', h('span', { class: `tool-exit ${s.ok ? 'ok' : 'bad'}` }, exitText(s)));
  return parts;
}

/** The row of a tool call (and, for a task, its sub-agent's rows inside). */
export function renderTool(item: ToolItem, post: (m: FromWebview) => void): HTMLElement {
  const sub = item.subagent;
  // A task row shows its sub-agent's status once it ran; other rows the call's.
  const status = !sub ? item.status : sub.status !== 'running' ? sub.status : item.status === 'in_progress' ? 'running' : item.status;
  const s = sub ? null : summarize({ ...item, output: item.result ?? item.output });
  // A command that exited non-zero ran, but did not succeed: its icon says so.
  const statusIcon = item.refused ? 'circle-slash' : s?.ok === false ? 'error' : (statusIcons[status] ?? 'loading codicon-modifier-spin');
  const title = sub ? [` ${taskSummary(sub, item.children?.length)}`] : [' ', ...summaryParts(s!, post)];
  const statusText = item.refused ? 'refused in PLAN mode' : sub ? status.replace('_', ' ') : item.status === 'completed' ? '' : item.status.replace('_', ' ');
  const summary = h('summary', {}, icon(statusIcon), h('span', { class: 'tool-title' }, ...title), h('span', { class: 'tool-status' }, statusText));
  const cls = `tool status-${item.status}${item.refused ? ' refused' : ''}${s?.ok === false ? ' exit-failed' : ''}${sub ? ` task subagent-${status}` : ''}`;
  const det = h('details', { class: cls, 'data-tool-id': item.id, 'data-tool-name': s ? (item.name ?? '') : 'task' }, summary);
  if (sub) {
    const tokens = sub.tokens ? `${sub.tokens.inputTokens.toLocaleString()} in · ${sub.tokens.outputTokens.toLocaleString()} out` : sub.resultTokens !== undefined ? `${sub.resultTokens.toLocaleString()} tokens` : '';
    const who = [sub.kind && `sub-agent ${sub.kind}`, shortId(sub.childSessionId)].filter(Boolean).join(' ');
    det.append(h('div', { class: 'subagent-meta' }, icon('hubot'), ` ${who || 'sub-agent'}${tokens ? ` · ${tokens}` : ''}`));
    const steps = h('div', { class: 'subagent-steps' });
    for (const c of item.children ?? []) steps.append(renderTool(c, post));
    if (!item.children?.length && item.status !== 'pending' && item.status !== 'in_progress') {
      steps.append(h('div', { class: 'subagent-none' }, `The sub-agent's steps are in its session${sub.childSessionId ? ` ${shortId(sub.childSessionId)}` : ''}.`));
    }
    det.append(steps);
  }
  // The raw JSON only behind "Details".
  if (item.input || item.output) {
    // A button, not a nested <details>: the row's own summary stays its only one.
    const body = h('div', { class: 'tool-raw', hidden: true });
    const toggle = h('button', { type: 'button', class: 'details-toggle', 'aria-expanded': 'false' }, icon('chevron-right'), ' Details');
    toggle.addEventListener('click', () => {
      body.hidden = !body.hidden;
      toggle.setAttribute('aria-expanded', String(!body.hidden));
      toggle.firstElementChild!.className = `codicon codicon-chevron-${body.hidden ? 'right' : 'down'}`;
    });
    if (item.input) body.append(h('div', { class: 'tool-label' }, 'Input'), h('pre', { class: 'tool-io' }, pretty(item.input)));
    if (item.output) body.append(h('div', { class: 'tool-label' }, 'Result'), h('pre', { class: 'tool-io' }, item.output));
    det.append(h('div', { class: 'tool-details' }, toggle, body));
  }
  // Under the row, always in view: a running call's newest line, the refusal's reason, the answers
  // as text, an edit's new problems.
  const under: HTMLElement[] = [];
  // Untrusted (a command's output): a text node, one line, its whole text in the tooltip.
  if (item.progress && item.status === 'in_progress') under.push(h('div', { class: 'tool-progress', title: item.progress }, item.progress));
  if (item.refused) under.push(h('div', { class: 'refusal-hint' }, icon('circle-slash'), ` Refused: ${item.refusalHint || 'not allowed in PLAN mode'}`));
  if (s?.answers?.length || s?.dismissed) {
    const list = h('dl', { class: 'tool-answers', 'aria-label': 'Your answers' });
    for (const a of s.answers ?? []) list.append(h('dt', {}, a.question), h('dd', {}, a.answer));
    if (s.dismissed) list.append(h('dd', { class: 'dismissed' }, 'You dismissed the question.'));
    under.push(list);
  }
  const openProblem = (path: string, line: number) => post({ type: 'openProblem', path, line });
  // A refused tick: why, as in the plan panel (webview/tickRefused.ts).
  if (item.tickRefused) under.push(tickRefusedBlock(item.tickRefused, openProblem));
  else if (item.problems) under.push(problemsBlock(item.problems, openProblem));
  if (under.length === 0) return det;
  return h('div', { class: 'tool-row', 'data-tool-id': item.id }, det, ...under);
}
