// Code blocks in the chat's markdown get a small bar with their language and
// Copy / Insert buttons. Both go through the extension host: Copy writes VS
// Code's clipboard, Insert puts the code at the cursor of the active editor.

import type { FromWebview } from '../src/messages';
import { h, icon } from './dom';

/** The code of a rendered block, as written (highlighting removed, one final newline dropped). */
export function codeText(pre: HTMLElement): string {
  return (pre.textContent ?? '').replace(/\n$/, '');
}

/** Adds the bar to every code block under root (rendered by webview/markdown.ts). */
export function decorateCodeBlocks(root: HTMLElement, post: (m: FromWebview) => void): void {
  for (const pre of root.querySelectorAll<HTMLElement>('pre')) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const copy = h('button', { type: 'button', class: 'icon-btn code-copy', title: 'Copy', 'aria-label': 'Copy code' }, icon('copy'));
    const insert = h('button', { type: 'button', class: 'icon-btn code-insert', title: 'Insert at cursor', 'aria-label': 'Insert code at cursor' }, icon('insert'));
    copy.addEventListener('click', () => {
      post({ type: 'copyCode', text: codeText(pre) });
      copy.replaceChildren(icon('check'));
      setTimeout(() => copy.replaceChildren(icon('copy')), 1500);
    });
    insert.addEventListener('click', () => post({ type: 'insertCode', text: codeText(pre) }));
    const bar = h('div', { class: 'code-bar' }, h('span', { class: 'code-lang' }, pre.dataset.lang ?? ''), copy, insert);
    const block = h('div', { class: 'code-block' });
    pre.replaceWith(block);
    block.append(bar, pre);
  }
}
