// The actions on a chat message: Copy (user and answer), Edit (the user's
// message becomes an editor; Send rewinds the conversation to before it and
// sends the new text), Regenerate (on the last answer) and Retry (on a failed
// prompt's error). They post the user's choice (src/basicsFeature.ts).

import { promptErrorSetup, setupActionLabels } from '../src/firstRun';
import type { FromWebview } from '../src/messages';
import { h, icon } from './dom';

type Post = (m: FromWebview) => void;

function action(cls: string, label: string, title: string, codicon: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: `icon-btn msg-action ${cls}`, title, 'aria-label': title }, icon(codicon), ` ${label}`);
  b.addEventListener('click', onClick);
  return b;
}

/** The Copy button of a message. */
export function copyButton(text: string, post: Post): HTMLButtonElement {
  return action('copy', 'Copy', 'Copy the message', 'copy', () => post({ type: 'copy', text }));
}

/** The Regenerate button of the last answer: the prompt before it runs again. */
export function regenerateButton(userItemId: string, post: Post): HTMLButtonElement {
  return action('regenerate', 'Regenerate', 'Answer the last prompt again (its turn is rewound)', 'refresh', () => post({ type: 'regenerate', itemId: userItemId }));
}

/** The Retry button of a failed prompt's error notice. */
export function retryButton(post: Post): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'btn btn-secondary retry', title: 'Send the failed prompt again' }, icon('debug-restart'), ' Retry');
  b.addEventListener('click', () => {
    b.disabled = true;
    post({ type: 'retry' });
  });
  return b;
}

/**
 * The Edit button of a user message: the message's text becomes an editor
 * with Send and Cancel (Enter sends, Escape cancels).
 */
export function editButton(itemId: string, msg: () => HTMLElement | null, post: Post): HTMLButtonElement {
  return action('edit', 'Edit', 'Edit and resend (the conversation from here is rewound)', 'edit', () => {
    const el = msg();
    const text = el?.querySelector<HTMLElement>('.text');
    if (!el || !text || el.querySelector('.edit-box')) return;
    const box = h('textarea', { class: 'edit-box', rows: '3', 'aria-label': 'Edit the message' });
    box.value = text.textContent ?? '';
    const send = h('button', { type: 'button', class: 'btn btn-primary edit-send' }, 'Send');
    const cancel = h('button', { type: 'button', class: 'btn btn-secondary edit-cancel' }, 'Cancel');
    const editor = h('div', { class: 'edit-form' }, box, h('div', { class: 'buttons' }, send, cancel));
    const close = () => {
      editor.remove();
      text.hidden = false;
    };
    const submit = () => {
      if (!box.value.trim()) return;
      post({ type: 'editMessage', itemId, text: box.value });
      close();
    };
    send.addEventListener('click', submit);
    cancel.addEventListener('click', close);
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        submit();
      }
      if (e.key === 'Escape') close();
    });
    text.hidden = true;
    text.after(editor);
    box.focus();
  });
}

/**
 * A failed prompt's notice with Retry. An error that needs setting up (no
 * key, a refused key, …) is said in the user's words with the setup's
 * buttons; the server's text is under "Details".
 */
export function failedPromptNotice(text: string, post: Post): HTMLElement {
  const error = text.replace(/^The turn stopped: /, '');
  const setup = promptErrorSetup(error);
  const buttons = h('div', { class: 'buttons' }, retryButton(post));
  if (!setup) return h('div', { class: 'notice error failed-prompt' }, icon('error'), ` ${text}`, buttons);
  for (const a of setup.actions.filter((x) => x !== 'test')) {
    const b = h('button', { type: 'button', class: `btn btn-secondary setup-${a}` }, setupActionLabels[a]);
    b.addEventListener('click', () => post({ type: 'setupAction', action: a }));
    buttons.append(b);
  }
  return h('div', { class: 'notice error failed-prompt needs-setup' },
    icon('error'), ` The turn stopped: ${setup.title}. ${setup.detail}`,
    h('details', { class: 'setup-technical' }, h('summary', {}, 'Details'), h('pre', {}, error)),
    buttons);
}
