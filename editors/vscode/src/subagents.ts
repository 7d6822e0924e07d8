// Sub-agents in the chat (docs/subagents.md): what a `task` row shows — the
// kind and the prompt's first line from its input, the sub-agent's status and
// tokens from its result or usage_update, its tool calls nested under it.
// Pure (no vscode API, no DOM): used by the ChatModel and the webview.

import type { ChildUsage, TokenTotal } from './protocol';

/** The tool name of a sub-agent call. */
export const taskTool = 'task';

/** What the chat knows of the sub-agent a `task` row runs. */
export interface SubagentInfo {
  /** explore, build or a user kind (from the call's input). */
  kind: string;
  /** The first line of the task's prompt. */
  prompt: string;
  /** The sub-agent's session, once a child call or the result named it. */
  childSessionId?: string;
  /** running until the result came, then its status (completed, budget_exhausted, cancelled, error). */
  status: string;
  /** The sub-agent's tokens (usage_update's children, else the result's tokens). */
  tokens?: TokenTotal;
  /** The result's total tokens, when the row has no per-direction split. */
  resultTokens?: number;
  /** The result's model requests. */
  turns?: number;
}

function asObject(v: unknown): Record<string, unknown> | null {
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The sub-agent of a call of tool `name` with input `raw` (object or JSON text); null for any other tool. */
export function subagentOf(name: string, title: string, raw: unknown): SubagentInfo | null {
  const isTask = name === taskTool || title === taskTool || title.startsWith(`${taskTool} `);
  if (!isTask) return null;
  const args = asObject(raw) ?? {};
  const kind = typeof args.kind === 'string' ? args.kind : title.slice(taskTool.length).trim();
  const prompt = typeof args.prompt === 'string' ? (args.prompt.split('\n').find((l) => l.trim()) ?? '').trim() : '';
  return { kind, prompt, status: 'running' };
}

/** Takes the task's result (rawOutput, or the tool message's text on reload) into info. */
export function applyTaskResult(info: SubagentInfo, output: unknown, failed: boolean): void {
  // The tool result the model sees: {success: true, result: {status, answer, turns, tokens, session}}.
  const outer = asObject(output);
  const r = outer && outer.result && typeof outer.result === 'object' ? asObject(outer.result) : outer;
  if (r && typeof r.status === 'string') info.status = r.status;
  else info.status = failed ? 'error' : 'completed';
  if (r && typeof r.tokens === 'number') info.resultTokens = r.tokens;
  if (r && typeof r.turns === 'number') info.turns = r.turns;
  if (r && typeof r.session === 'string' && !info.childSessionId) info.childSessionId = r.session;
}

/** The last 8 characters of a session id: how plain editors and the footer name a sub-agent. */
export function shortId(sessionId: string | undefined): string {
  return sessionId ? sessionId.slice(-8) : '';
}

/** A token count in few characters: 950, 1.2k, 34k, 1.5M. */
export function compactTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** The sub-agent's tokens, input plus output, if known. */
export function subagentTokens(info: SubagentInfo): number | undefined {
  if (info.tokens) return info.tokens.inputTokens + info.tokens.outputTokens;
  return info.resultTokens;
}

/** The task row's title: "task explore: where is main? — 5 steps, 1.2k tokens". steps is the child rows' count (undefined after a reload). */
export function taskSummary(info: SubagentInfo, steps: number | undefined): string {
  let s = `${taskTool} ${info.kind}`.trim();
  if (info.prompt) s += `: ${info.prompt}`;
  const parts: string[] = [];
  if (steps !== undefined && steps > 0) parts.push(`${steps} step${steps === 1 ? '' : 's'}`);
  else if (info.turns !== undefined) parts.push(`${info.turns} turn${info.turns === 1 ? '' : 's'}`);
  const t = subagentTokens(info);
  if (t !== undefined) parts.push(`${compactTokens(t)} tokens`);
  return parts.length ? `${s} — ${parts.join(', ')}` : s;
}

/** One sub-agent's line of the usage footer. */
export interface ChildUsageLine extends ChildUsage {
  /** "explore 1a2b3c4d", or the kind alone before the sub-agent's session is known. */
  label: string;
}
