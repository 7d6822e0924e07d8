// The usage footer's text, from the usage_update totals the ChatModel keeps.

import type { SessionState } from '../src/state';

/** In the user's locale unless one is given: "Tokens: 1,200 in · 34 out · context 5,000 / 128,000"; empty before any usage_update. */
export function usageText(u: SessionState['usage'] | undefined, locale?: string): string {
  const n = (x: number) => x.toLocaleString(locale);
  if (!u) return '';
  let s = `Tokens: ${n(u.inputTokens)} in · ${n(u.outputTokens)} out`;
  if (u.contextTokens !== undefined) {
    s += ` · context ${n(u.contextTokens)}`;
    if (u.contextWindow) s += ` / ${n(u.contextWindow)}`;
  }
  return s;
}
