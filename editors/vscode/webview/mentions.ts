// The composer's mention chips (src/mentions.ts): one removable chip a
// mention, above the prompt box. The extension keeps the list; a chip's ×
// asks it to drop that one.

import type { MentionChip } from '../src/mentions';
import { h, icon } from './dom';

const chipIcons: Record<MentionChip['kind'], string> = { file: 'file', selection: 'selection', problems: 'warning', plan: 'checklist' };

/** Draws the chips into el; remove(index) drops one. */
export function renderChips(el: HTMLElement, chips: readonly MentionChip[], remove: (index: number) => void): void {
  el.replaceChildren(
    ...chips.map((c, i) => {
      const x = h('button', { type: 'button', class: 'icon-btn', title: `Remove ${c.label}`, 'aria-label': `Remove ${c.label}` }, icon('close'));
      x.addEventListener('click', () => remove(i));
      return h('span', { class: `mention-chip mention-${c.kind}`, title: c.title, 'data-kind': c.kind }, icon(chipIcons[c.kind]), h('span', { class: 'chip-label' }, c.label), x);
    }),
  );
  el.hidden = chips.length === 0;
}
