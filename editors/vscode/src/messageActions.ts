// Edit-and-resend, regenerate and retry: which saved message they act on and
// whether the turns after it changed files. Pure: src/basicsFeature.ts sends
// agent/rewind and agent/prompt.

import type { WireMessage } from './protocol';

/** Tool kinds that change files (ACP's kinds, as a tool call keeps them). */
const fileChangingKinds = new Set(['edit', 'delete', 'move']);

/** Whether the turns from the message messageId on changed files (a call of an editing kind that did not fail). */
export function laterTurnsChangedFiles(messages: WireMessage[], messageId: string): boolean {
  const at = messages.findIndex((m) => m.id === messageId);
  if (at < 0) return false;
  const failed = new Set(messages.filter((m) => m.role === 'tool' && m.status === 'failed').map((m) => m.tool_call_id));
  for (const m of messages.slice(at)) {
    for (const tc of m.tool_calls ?? []) {
      if (fileChangingKinds.has(tc.kind ?? '') && !failed.has(tc.id)) return true;
    }
  }
  return false;
}

/** The session's last user message when its turn failed (what Retry sends again), else undefined. */
export function failedLastPrompt(messages: WireMessage[]): WireMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && !m.rewound) return m.error ? m : undefined;
  }
  return undefined;
}

/** The items of a conversation from one item on dropped (an edited or regenerated turn is replaced). */
export function itemsBefore<T extends { id: string }>(items: T[], itemId: string): T[] {
  const at = items.findIndex((i) => i.id === itemId);
  return at < 0 ? items : items.slice(0, at);
}

/** The user item Regenerate acts on: the last user item, when an answer follows it and no turn runs. */
export function regenerateTarget(items: { id: string; kind: string }[], busy: boolean): string | undefined {
  if (busy) return undefined;
  let lastUser = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i].kind === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser < 0) return undefined;
  return items.slice(lastUser + 1).some((i) => i.kind === 'assistant') ? items[lastUser].id : undefined;
}

/**
 * The saved id of a user message shown in the chat: the nthFromEnd-last
 * saved user message with its text that no rewind left out (a `.chat` file
 * keeps the turns an edit or regenerate rewound; agent/loadSession returns
 * them marked `rewound`, and the chat does not show them).
 */
export function userMessageIdFromEnd(messages: WireMessage[], text: string, nthFromEnd: number): string | undefined {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.rewound || m.role !== 'user' || (m.content ?? '') !== text) continue;
    if (seen === nthFromEnd) return m.id;
    seen++;
  }
  return undefined;
}

/** How many user items after itemId have the same text (userMessageIdFromEnd's nthFromEnd). */
export function sameTextAfter(items: { id: string; kind: string; text?: string }[], itemId: string): { text: string; nthFromEnd: number } | undefined {
  const at = items.findIndex((i) => i.id === itemId);
  const item = items[at];
  if (!item || item.kind !== 'user') return undefined;
  const text = item.text ?? '';
  const nthFromEnd = items.slice(at + 1).filter((i) => i.kind === 'user' && i.text === text).length;
  return { text, nthFromEnd };
}
