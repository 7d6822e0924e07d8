// The usage footer's text, from the usage_update totals the ChatModel keeps.

import type { SessionState } from '../src/state';

/** In the user's locale unless one is given: "Tokens: 1,200 in · 34 out · context 5,000 / 128,000"; empty before any usage_update.
 * Once the session has sub-agents: " · sub-agents: explore 1a2b3c4d 800 in · 20 out; … · total 2,000 in · 54 out". */
export function usageText(u: SessionState['usage'] | undefined, locale?: string): string {
  const n = (x: number) => x.toLocaleString(locale);
  if (!u) return '';
  // With sub-agents the leading numbers are the session's own: the total less its sub-agents'.
  let own = { inputTokens: u.inputTokens, outputTokens: u.outputTokens };
  if (u.total && u.children?.length) {
    own = {
      inputTokens: u.total.inputTokens - u.children.reduce((a, c) => a + c.inputTokens, 0),
      outputTokens: u.total.outputTokens - u.children.reduce((a, c) => a + c.outputTokens, 0),
    };
  }
  let s = `Tokens: ${n(own.inputTokens)} in · ${n(own.outputTokens)} out`;
  if (u.contextTokens !== undefined) {
    s += ` · context ${n(u.contextTokens)}`;
    if (u.contextWindow) s += ` / ${n(u.contextWindow)}`;
  }
  if (u.children?.length) {
    s += ' · sub-agents: ' + u.children.map((c) => `${c.label} ${n(c.inputTokens)} in · ${n(c.outputTokens)} out`).join('; ');
  }
  if (u.total) s += ` · total ${n(u.total.inputTokens)} in · ${n(u.total.outputTokens)} out`;
  return s;
}
