// Why the builder's tick of a plan step was refused (docs/language-intel.md,
// "Step ticks"): a block under the step in the plan panel, "Not ticked: N new
// errors", one linked path:line a problem (errors, then warnings).
import type { TickRefusal } from '../src/protocol';
import { h, icon } from './dom';
import { problemLine } from './problems';

/** The heading of a refusal's block. */
export function tickRefusedHeading(r: TickRefusal): string {
  const errors = r.problems.filter((p) => p.severity === 'error').length;
  const warnings = r.problems.length - errors;
  const parts = [`${errors} new error${errors === 1 ? '' : 's'}`];
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return `Not ticked: ${parts.join(', ')}`;
}

/** The block: a heading and one linked line a problem. */
export function tickRefusedBlock(r: TickRefusal, open: (path: string, line: number) => void): HTMLElement {
  const heading = tickRefusedHeading(r);
  const block = h('div', { class: 'problems tick-refused', role: 'group', 'aria-label': heading }, h('div', { class: 'problems-heading' }, icon('error'), ` ${heading}`));
  for (const d of r.problems) block.append(problemLine(d, open));
  return block;
}

/** The index of the step a refusal is about: the first step named that is not done, else -1. */
export function refusedStepIndex(entries: { content: string; status: string }[], r: TickRefusal): number {
  return entries.findIndex((e) => e.status !== 'completed' && r.steps.includes(e.content));
}
