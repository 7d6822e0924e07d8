// What a screen reader hears of the conversation. The transcript is no live
// region: a streamed answer is drawn again at each chunk, and a live transcript
// read it out again from its first word every time. Instead one polite status
// line says each answer and notice once, when it is finished (the turn ended,
// or something came after it in the transcript). A chat's history, shown when
// the chat opens, is not read out.

import type { ChatItem } from '../src/state';
import { h } from './dom';

/** The kinds of transcript items that are read out when they are finished. */
const spoken = new Set<ChatItem['kind']>(['assistant', 'notice']);

/** The polite status line of the chat view and what it has said. */
export class Announcer {
  /** The status line (visually hidden): a live region of its own, outside the transcript. */
  readonly el = h('div', { class: 'sr-only announcer', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
  private said = new Set<string>();
  private session: string | null | undefined;

  /**
   * Says the items finished since the last call: textOf gives an item's text as shown (the
   * rendered markdown's text). A new chat's items finished already are only marked as said.
   */
  update(sessionId: string | null, items: ChatItem[], busy: boolean, textOf: (item: ChatItem) => string): void {
    const fresh = sessionId !== this.session;
    if (fresh) {
      this.session = sessionId;
      this.said.clear();
      this.el.textContent = '';
    }
    const say: string[] = [];
    items.forEach((item, i) => {
      const finished = i < items.length - 1 || !busy;
      if (!finished || !spoken.has(item.kind) || this.said.has(item.id)) return;
      this.said.add(item.id);
      const text = textOf(item).trim();
      if (!fresh && text) say.push(text);
    });
    if (say.length > 0) this.el.textContent = say.join('\n');
  }
}
