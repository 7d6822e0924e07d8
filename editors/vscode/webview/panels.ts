// Collapsible panels (the plan, a question or form, the approval): a chevron
// button in the panel's head folds everything below the head. The head stays
// on top while the panel scrolls inside itself (chat.css gives panels a
// max-height and lets them shrink, so they never squeeze the transcript).
// Whether a panel is folded is kept by key across re-renders.

import { h, icon } from './dom';

const folded = new Map<string, boolean>();

/** Whether the panel with this key is folded (false when never set). */
export function isCollapsed(key: string): boolean {
  return folded.get(key) ?? false;
}

/** Folds or unfolds the panel with this key the next time it is drawn (and now, if shown). */
export function setCollapsed(key: string, collapsed: boolean): void {
  folded.set(key, collapsed);
  for (const p of document.querySelectorAll<HTMLElement>('.panel')) {
    if (p.dataset.panelKey === key) apply(p, collapsed);
  }
}

function apply(panel: HTMLElement, collapsed: boolean): void {
  panel.classList.toggle('collapsed', collapsed);
  const btn = panel.querySelector<HTMLButtonElement>(':scope > .panel-head > .panel-toggle');
  if (!btn) return;
  btn.setAttribute('aria-expanded', String(!collapsed));
  const what = panel.dataset.panelLabel ?? 'panel';
  btn.title = collapsed ? `Expand ${what}` : `Collapse ${what}`;
  btn.setAttribute('aria-label', btn.title);
  btn.replaceChildren(icon(collapsed ? 'chevron-right' : 'chevron-down'));
}

/**
 * Makes panel collapsible: head (a child of panel) gets the chevron button first; a click on
 * the head's free space toggles too. key names the fold state (a new key starts as
 * initiallyCollapsed says); label names the panel for screen readers ("plan", "question").
 */
export function collapsible(panel: HTMLElement, head: HTMLElement, key: string, label: string, initiallyCollapsed = false): HTMLElement {
  if (!folded.has(key)) folded.set(key, initiallyCollapsed);
  panel.classList.add('panel');
  head.classList.add('panel-head');
  panel.dataset.panelKey = key;
  panel.dataset.panelLabel = label;
  if (!panel.id) panel.id = `panel-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const btn = h('button', { type: 'button', class: 'icon-btn panel-toggle', 'aria-controls': panel.id });
  btn.addEventListener('click', (e) => {
    e.preventDefault();
    setCollapsed(key, !isCollapsed(key));
  });
  head.prepend(btn);
  head.addEventListener('click', (e) => {
    const t = e.target as HTMLElement;
    if (t === head || t.classList.contains('bar-title') || t.classList.contains('panel-title')) setCollapsed(key, !isCollapsed(key));
  });
  apply(panel, isCollapsed(key));
  return panel;
}
