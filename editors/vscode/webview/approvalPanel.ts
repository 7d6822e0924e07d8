// The plan inside the approval panel: an "Open plan" link to its source and the
// plan rendered as markdown (webview/markdown.ts), so the steps are shown once,
// here, and read as the document the agent wrote. The plan's text comes from
// the extension host (readPlan → planText: the editor's text, unsaved comments
// included); until it arrives, or when it cannot be read, the steps stand in.

import type { FromWebview } from '../src/messages';
import type { PendingQuestion } from '../src/state';
import type { PlanEntry } from '../src/protocol';
import { h, icon } from './dom';
import { renderPlanMarkdown } from './markdown';

const texts = new Map<string, string | null>();

/**
 * The plan's body without its front matter: as the server splits it (workspace/frontmatter.go), a
 * first line "---" (after an optional byte order mark) and the next line "---" or "..." (YAML's
 * document end), trailing blanks allowed. A front matter that is not closed is no front matter.
 */
export function planBody(text: string): string {
  const m = /^\ufeff?---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/**
 * The plan an approval shows: the one its permission approves (`what` of a `plan` permission), with
 * the session's steps only when they are that plan's — not the session's attached plan, which can
 * be another one (exit_plan_mode on a second plan).
 */
export function approvedPlan(q: PendingQuestion, attached: { planFile: string; entries: PlanEntry[] } | null): { planFile: string; entries: PlanEntry[] } | null {
  const what = q.permission?.kind === 'plan' ? q.permission.what : '';
  if (!what) return attached;
  return { planFile: what, entries: attached?.planFile === what ? attached.entries : [] };
}

/** Task-list items ("[ ] step", "[x] step") get a check icon instead of the brackets. */
function tickBoxes(root: HTMLElement): void {
  for (const li of root.querySelectorAll('li')) {
    const first = li.firstChild?.nodeType === Node.ELEMENT_NODE && (li.firstChild as HTMLElement).tagName === 'P' ? li.firstChild.firstChild : li.firstChild;
    if (!first || first.nodeType !== Node.TEXT_NODE) continue;
    const m = /^\[([ xX])\]\s+/.exec(first.textContent ?? '');
    if (!m) continue;
    first.textContent = (first.textContent ?? '').slice(m[0].length);
    const done = m[1] !== ' ';
    li.classList.add('task', done ? 'done' : 'todo');
    first.parentNode!.insertBefore(icon(done ? 'pass-filled' : 'circle-large-outline'), first);
    first.parentNode!.insertBefore(document.createTextNode(' '), first);
  }
}

function fill(box: HTMLElement, entries: PlanEntry[]): void {
  const text = texts.get(box.dataset.planFile ?? '');
  if (typeof text === 'string' && text.trim()) {
    box.innerHTML = renderPlanMarkdown(planBody(text));
    tickBoxes(box);
    box.classList.add('markdown');
    return;
  }
  const steps = h('ol', { class: 'approval-steps' });
  for (const e of entries) steps.append(h('li', { class: `step ${e.status}` }, e.content));
  box.replaceChildren(steps);
  box.classList.remove('markdown');
}

/** The plan block of an approval: the Open plan link, then the rendered plan (or its steps). */
export function approvalPlan(plan: { planFile: string; entries: PlanEntry[] }, openPlan: (planFile: string) => void): HTMLElement {
  const link = h('a', { href: '#', class: 'plan-link open-plan', title: `Open ${plan.planFile}` }, icon('go-to-file'), ' Open plan ', h('span', { class: 'plan-file' }, plan.planFile));
  link.addEventListener('click', (e) => {
    e.preventDefault();
    openPlan(plan.planFile);
  });
  const box = h('div', { class: 'plan-rendered', 'data-plan-file': plan.planFile });
  box.dataset.entries = JSON.stringify(plan.entries);
  fill(box, plan.entries);
  return h('div', { class: 'approval-plan' }, link, box);
}

/** The host's answer to readPlan: the plan's text (null: it could not be read); shown at once. */
export function setPlanText(planFile: string, text: string | null): void {
  texts.set(planFile, text);
  for (const box of document.querySelectorAll<HTMLElement>('.plan-rendered')) {
    if (box.dataset.planFile === planFile) fill(box, JSON.parse(box.dataset.entries ?? '[]') as PlanEntry[]);
  }
}

/** Forgets a plan's text (a new approval reads it again: the plan may have been revised). */
export function forgetPlanText(planFile: string): void {
  texts.delete(planFile);
}

/** Asks the host for the plan's text when an approval is drawn anew (fresh: asked again, the plan may be revised). */
export function approvalPlanWanted(planFile: string, fresh: boolean, post: (m: FromWebview) => void): void {
  if (fresh) forgetPlanText(planFile);
  if (!texts.has(planFile)) post({ type: 'readPlan', planFile });
}
