// The chat's review controls (docs/review.md): "Restore" on each user
// message, the last turn's changed files with Diff / Keep / Undo (and for
// the whole turn), and the "Review edits" toggle. They post the user's
// choice; the extension does the rest (src/reviewFeature.ts).

import type { FromWebview } from '../src/messages';
import type { TurnChanges } from '../src/review';
import { h, icon } from './dom';

type Post = (m: FromWebview) => void;

/** The Restore button of a user message. */
export function restoreButton(itemId: string, post: Post): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'icon-btn restore', title: 'Restore the files and the conversation to before this message', 'aria-label': 'Restore to before this message' }, icon('discard'), ' Restore');
  b.addEventListener('click', () => post({ type: 'restore', itemId }));
  return b;
}

function button(label: string, cls: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: `btn ${cls}`, title }, label);
  b.addEventListener('click', onClick);
  return b;
}

/** Fills slot with the turn's changed files (empty when there are none). */
export function renderChanges(slot: HTMLElement, changes: TurnChanges | null, post: Post): void {
  if (!changes || changes.files.length === 0) {
    slot.replaceChildren();
    return;
  }
  const rows = changes.files.map((f) => {
    const diff = h('a', { href: '#', class: 'change-label', title: 'Show the diff against the file before the turn' }, f.label);
    diff.addEventListener('click', (e) => {
      e.preventDefault();
      post({ type: 'diffFile', path: f.path });
    });
    return h('li', { class: `change ${f.status}`, 'data-path': f.path },
      icon(f.status === 'added' ? 'diff-added' : f.status === 'deleted' ? 'diff-removed' : 'diff-modified'), ' ', diff,
      h('span', { class: 'change-buttons' },
        button('Keep', 'btn-secondary keep-file', 'Keep this change', () => post({ type: 'keepFile', path: f.path })),
        f.restorable ? button('Undo', 'btn-secondary undo-file', 'Undo this file: back to before the turn', () => post({ type: 'undoFile', path: f.path })) : null,
      ),
    );
  });
  const n = changes.files.length;
  slot.replaceChildren(
    h('div', { class: 'changes' },
      h('div', { class: 'bar-head' }, icon('git-compare'), h('span', { class: 'bar-title' }, ` ${n} file${n === 1 ? '' : 's'} changed in the last turn`)),
      h('ul', { class: 'change-list' }, ...rows),
      h('div', { class: 'buttons' },
        button('Keep all', 'btn-primary keep-all', 'Keep every change of the turn', () => post({ type: 'keepFile' })),
        button('Undo all', 'btn-secondary undo-all', 'Undo the whole turn: every file back to before it', () => post({ type: 'undoFile' })),
      ),
    ),
  );
}

/** The header's "Review edits" toggle. */
export function reviewToggle(post: Post): { el: HTMLButtonElement; update(review: 'off' | 'edits' | undefined, hasSession: boolean): void } {
  const el = h('button', { type: 'button', class: 'icon-btn review-toggle', title: 'Review each BUILD edit before it applies', 'aria-pressed': 'false' }, icon('eye'));
  let current: 'off' | 'edits' = 'off';
  el.addEventListener('click', () => post({ type: 'setReview', review: current === 'edits' ? 'off' : 'edits' }));
  return {
    el,
    update(review, hasSession) {
      current = review ?? 'off';
      el.hidden = !hasSession;
      el.setAttribute('aria-pressed', String(current === 'edits'));
      el.title = current === 'edits' ? 'Review edits: on (each BUILD edit opens for review). Click to turn off.' : 'Review edits: off. Click to review each BUILD edit before it applies.';
    },
  };
}
