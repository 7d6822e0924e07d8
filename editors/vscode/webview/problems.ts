// The problems block under an edit's tool row (docs/language-intel.md): the
// new errors and warnings the edit introduced, each linked to its line.
import type { EditProblems } from '../src/state';
import { h, icon } from './dom';

/** What a problem line shows (an edit's new problem, a refused tick's). */
export interface ProblemFacts {
  path: string;
  line: number;
  severity: string;
  message: string;
  source?: string;
  code?: string | number;
}

/** One problem: its icon, its path:line linked to open, its message and where it came from. */
export function problemLine(d: ProblemFacts, open: (path: string, line: number) => void): HTMLElement {
  const where = `${d.path}:${d.line}`;
  const link = h('a', { href: '#', class: 'problem-link', title: `Open ${where}` }, where);
  link.addEventListener('click', (e) => {
    e.preventDefault();
    open(d.path, d.line);
  });
  const tail = [d.source, d.code].filter(Boolean).join(' ');
  return h('div', { class: `problem severity-${d.severity}` },
    icon(d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info'),
    ' ', link, ` ${d.message}`,
    tail ? h('span', { class: 'problem-source' }, ` (${tail})`) : null,
  );
}

/** The block: a heading, one linked line a problem, and a note when the diagnostics did not settle or could not be read. */
export function problemsBlock(p: EditProblems, open: (path: string, line: number) => void): HTMLElement {
  const heading = p.new.length > 0 ? `${p.new.length} new problem${p.new.length === 1 ? '' : 's'}` : 'No new problems';
  const block = h('div', { class: 'problems', role: 'group', 'aria-label': heading }, h('div', { class: 'problems-heading' }, heading));
  for (const d of p.new) block.append(problemLine(d, open));
  if (p.error) block.append(h('div', { class: 'problems-note' }, `Diagnostics unavailable: ${p.error}`));
  else if (!p.settled) block.append(h('div', { class: 'problems-note' }, 'The diagnostics had not settled in time: the list may be incomplete.'));
  return block;
}
