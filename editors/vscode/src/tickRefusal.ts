// A refused tick in the chat (docs/language-intel.md, "Step ticks"): the plan
// update that says why arrives just before the failed tool call of the tick;
// its row then shows the same problems as the plan panel.
import type { TickRefusal } from './protocol';

/** Whether a failed tool result (an object, or its JSON text: {success: false, error}) is the refused tick r. */
export function isTickRefusalResult(raw: unknown, r: TickRefusal): boolean {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return false;
    }
  }
  const err = (v as { error?: unknown } | null)?.error;
  return typeof err === 'string' && r.message !== '' && err.includes(r.message);
}
