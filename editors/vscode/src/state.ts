// The chat state model: sessions, their mode and plan, the conversation items
// built from agent/update, and the question or approval waiting for the user.
// Pure (no vscode API): the extension host keeps one ChatModel, the status bar
// and the chat view render from it, and its snapshots are what the webview shows.

import type {
  AskUserParams,
  InstructionFile,
  Mode,
  ModeChangedParams,
  PermissionRequest,
  PlanEntry,
  PromptResult,
  Question,
  LanguageServing,
  MCPServerStatus,
  SandboxStatus,
  Session,
  SessionUpdate,
  TickRefusal,
  ToolCallDone,
  WireMessage,
} from './protocol';
import type { ChildUsageLine, SubagentInfo } from './subagents';
import { isTickRefusalResult } from './tickRefusal';
import { applyTaskResult, shortId, subagentOf } from './subagents';

/** One entry of the conversation as the chat view shows it. */
export type ChatItem =
  // failed: the error the prompt's turn ended with (shown on the message; Retry sends it again).
  | { kind: 'user'; id: string; rev: number; text: string; failed?: string }
  | { kind: 'assistant' | 'thought'; id: string; rev: number; text: string }
  | ToolItem
  // retry: the notice of a failed prompt's error, with a Retry button (agent/prompt retryOf).
  | { kind: 'notice'; id: string; rev: number; text: string; level: 'info' | 'error'; retry?: boolean };

/** A tool call row. A `task` row carries its sub-agent and the sub-agent's
 * own tool calls (children: never top-level rows); a reloaded session has
 * the task's result but not its children. */
export interface ToolItem {
  kind: 'tool';
  id: string;
  rev: number;
  title: string;
  toolKind: string;
  status: string;
  input?: string;
  output?: string;
  refused: boolean;
  refusalHint?: string;
  subagent?: SubagentInfo;
  children?: ToolItem[];
  /** The new problems an edit introduced (its result's diagnostics.new; docs/language-intel.md). */
  problems?: EditProblems;
  /** Why this plan edit's tick was refused (the plan update before its result; tickRefusal.ts). */
  tickRefused?: TickRefusal;
  /** The result's JSON as the model saw it (the row's summary reads it; output may be a text). */
  result?: string;
  /** The tool's name (a loaded session has it; live rows read it off the title). */
  name?: string;
  /** What the call asked the user and the answers (persisted; docs/protocol.md, agent/loadSession). */
  questions?: Question[];
  answers?: Record<string, unknown>;
  dismissed?: boolean;
  /** The running call's newest progress line (tool_call_update in_progress: a command's output, an
   * MCP server's progress; experimental.agent.toolCallProgress). Untrusted text, shown as text; gone
   * when the call ends. */
  progress?: string;
}

/** The token footer's numbers: summed usage_updates, and once the session has sub-agents each one's tokens and the total. */
export interface UsageState {
  inputTokens: number;
  outputTokens: number;
  contextTokens?: number;
  contextWindow?: number;
  children?: ChildUsageLine[];
  total?: { inputTokens: number; outputTokens: number };
}

/** A question waiting in the question bar. */
export interface PendingQuestion {
  questionId: string;
  questions: Question[];
  purpose: 'question' | 'plan_approval' | 'permission';
  /** What the question asks to allow and everything it grants (shown in the bar). */
  permission?: PermissionRequest;
  errors?: Record<string, string>;
  /** request: an agent/askUser waits for the reply; answer: answered with agent/answer (question_pending). */
  via: 'request' | 'answer';
}

/** The state of one session. */
export interface SessionState {
  session: Session;
  items: ChatItem[];
  /** tickRefused: why the builder's last tick was refused (the plan update right after it; the next one clears it). */
  plan: { planFile: string; entries: PlanEntry[]; tickRefused?: TickRefusal } | null;
  usage: UsageState | null;
  busy: boolean;
  question: PendingQuestion | null;
  /** A plan approval the user dismissed: still pending on the server (PROTOCOL.md §5). */
  /** A dismissed plan approval still pending: its plan and the commands approving it grants. */
  awaitingApproval: { planFile: string | null; grants: string[] } | null;
  /** The open review comments (`> review:`) of the session's plan, as the server's plan linter reports them. */
  openComments: number;
  loaded: boolean;
}

/** What the chat view needs: the session list and the current session. */
export interface Snapshot {
  sessions: { sessionId: string; title: string; mode: Mode; updatedAt: string }[];
  current: SessionState | null;
  /** Mode shown when no session exists yet (the mode a new chat starts in). */
  defaultMode: Mode;
}

/** How the status bar shows a mode. */
export interface ModePresentation {
  text: string;
  tooltip: string;
  color: string;
}

/** The status bar item's text, tooltip and theme colour for a mode; the
 * tooltip also says what confines commands when the server reported it. */
export function presentMode(mode: Mode, planFile: string | null, sandbox?: SandboxStatus, languages?: LanguageServing[], mcp?: MCPServerStatus[]): ModePresentation {
  const plan = (planFile ? `\n\nPlan: ${planFile}` : '\n\nNo plan attached yet.') + sandboxLine(sandbox) + languagesLine(languages) + mcpLine(mcp);
  if (mode === 'build') {
    return {
      text: '$(tools) BUILD',
      tooltip: `agentls is in BUILD mode: the agent carries out the approved plan and may edit files.${plan}\n\nClick to switch to PLAN mode.`,
      color: 'agentls.buildForeground',
    };
  }
  return {
    text: '$(map) PLAN',
    tooltip: `agentls is in PLAN mode: the agent explores and writes a plan; nothing but .plan documents can change.${plan}\n\nClick to switch to BUILD mode.`,
    color: 'agentls.planForeground',
  };
}

/** The tooltip's sandbox paragraph ("" when the server did not report one). */
export function sandboxLine(sandbox?: SandboxStatus): string {
  if (!sandbox) return '';
  const warn = sandbox.mode === 'none' || sandbox.mode === 'off' ? '⚠ ' : '';
  return `\n\n${warn}Sandbox: ${sandbox.summary} (landlock: ${sandbox.landlock}; bwrap: ${sandbox.bwrap})`;
}

/** The tooltip's paragraph saying which source serves each file type (docs/language-intel.md; "" when not reported). */
export function languagesLine(languages?: LanguageServing[]): string {
  if (!languages?.length) return '';
  const each = languages.map((l) => `${l.fileType}: ${l.source === 'editor' ? 'VS Code' : l.source}${l.source !== 'editor' && l.detail ? ` (${l.detail})` : ''}`);
  return `\n\nLanguage intelligence: ${each.join('; ')}`;
}

/** How many of a server's tool names the tooltip lists before "+N more". */
export const MCP_TOOLTIP_TOOLS = 8;

/** A name from an MCP server as tooltip text: control and bidi characters escaped (\uXXXX), never raw. */
function visibleName(name: string): string {
  return Array.from(name, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return hiddenChar(code) ? `\\u${code.toString(16).toUpperCase().padStart(4, '0')}` : c;
  }).join('');
}

/** A control, line-separator or bidi character: one a tooltip must not show raw. */
function hiddenChar(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x200e || code === 0x200f || code === 0x2028 || code === 0x2029 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** A reason or stderr tail on the server's one line: runs of white space (newlines too) as one space, the rest as visibleName. */
function oneLine(text: string): string {
  return visibleName(text.replace(/\s+/g, ' ').trim());
}

/** A running or idle server's tools: the count and the first MCP_TOOLTIP_TOOLS names ("+N more" for the rest). */
function toolsOf(s: MCPServerStatus): string {
  const names = (s.toolNames ?? []).map(visibleName);
  const count = `${s.tools} tool${s.tools === 1 ? '' : 's'}`;
  if (!names.length) return ` (${count})`;
  const shown = names.slice(0, MCP_TOOLTIP_TOOLS).join(', ');
  const more = names.length > MCP_TOOLTIP_TOOLS ? `, +${names.length - MCP_TOOLTIP_TOOLS} more` : '';
  return ` (${count}: ${shown}${more})`;
}

/**
 * The tooltip's paragraph on the MCP servers (docs/mcp.md; "" when there are
 * none): one line per server with its state, a running one with its tools'
 * names (the first eight, then "+N more"), a failed one with why and the tail
 * of its stderr.
 */
export function mcpLine(servers?: MCPServerStatus[]): string {
  if (!servers?.length) return '';
  const each = servers.map((s) => {
    const name = visibleName(s.name);
    const reason = s.reason ? `: ${oneLine(s.reason)}` : '';
    if (s.state === 'failed') return `⚠ ${name} failed${reason}${s.stderrTail ? ` (stderr: ${oneLine(s.stderrTail)})` : ''}`;
    if (s.state === 'skipped' || s.state === 'stopped') return `${name} ${s.state}${reason}`;
    return `${name} ${s.state}${s.state === 'idle' && !s.tools ? '' : toolsOf(s)}`;
  });
  return `\n\nMCP servers:\n${each.join('\n')}`;
}

/** The other mode. */
export function otherMode(mode: Mode): Mode {
  return mode === 'plan' ? 'build' : 'plan';
}

/** One problem an edit introduced, as the edit tool's result lists it (paths relative, lines from 1). */
export interface EditProblem {
  path: string;
  line: number;
  severity: string;
  message: string;
  source?: string;
  code?: string;
}

/** An edit's new problems and whether the diagnostics settled in time. */
export interface EditProblems {
  new: EditProblem[];
  settled: boolean;
  error?: string;
}

/** The diagnostics block of an edit tool's result (an object, or its JSON text: {success, result: {diagnostics}}), if it has one with something to show. */
export function editProblems(result: unknown): EditProblems | undefined {
  let v = result;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  // The tool result is {success, result: {…, diagnostics}}; a bare result is read too.
  const r = v as { result?: { diagnostics?: unknown }; diagnostics?: unknown } | null;
  const d = (r?.result?.diagnostics ?? r?.diagnostics) as Partial<EditProblems> | undefined;
  if (!d || typeof d !== 'object' || !Array.isArray(d.new)) return undefined;
  const list = d.new.filter((p): p is EditProblem => !!p && typeof p.path === 'string' && typeof p.line === 'number' && typeof p.message === 'string');
  if (list.length === 0 && d.settled !== false && !d.error) return undefined;
  const out: EditProblems = { new: list, settled: d.settled !== false };
  if (typeof d.error === 'string' && d.error) out.error = d.error;
  return out;
}

function stringify(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

/** The chat state of every session the window knows. */
export class ChatModel {
  private readonly states = new Map<string, SessionState>();
  /** The MCP servers whose failure the chat told already (name → the failure told). */
  private readonly mcpFailed = new Map<string, string>();
  private currentId: string | null = null;
  private seq = 0;
  defaultMode: Mode = 'plan';

  /** The session in view, if any. */
  get current(): SessionState | null {
    return this.currentId ? (this.states.get(this.currentId) ?? null) : null;
  }

  /** The state of a session, if known. */
  get(sessionId: string): SessionState | undefined {
    return this.states.get(sessionId);
  }

  /** The mode and plan the indicator shows: the current session's, else the default. */
  indicator(): { mode: Mode; planFile: string | null } {
    const c = this.current;
    return c ? { mode: c.session.mode, planFile: c.session.planFile } : { mode: this.defaultMode, planFile: null };
  }

  private nextId(prefix: string): string {
    this.seq++;
    return `${prefix}${this.seq}`;
  }

  /** Adds or refreshes a session from the server; returns its state. */
  upsertSession(s: Session): SessionState {
    let st = this.states.get(s.sessionId);
    if (!st) {
      st = { session: { ...s }, items: [], plan: null, usage: null, busy: false, question: null, awaitingApproval: null, openComments: 0, loaded: false };
      this.states.set(s.sessionId, st);
    } else {
      st.session = { ...st.session, ...s };
    }
    return st;
  }

  /** Makes a session the one in view. */
  setCurrent(sessionId: string | null): void {
    this.currentId = sessionId;
  }

  /** Replaces the session list (agent/listSessions), keeping known state. */
  setSessions(list: Session[]): void {
    for (const s of list) this.upsertSession(s);
  }

  /** Rebuilds a session's conversation from agent/loadSession's messages. */
  loadMessages(s: Session, messages: WireMessage[]): SessionState {
    const st = this.upsertSession(s);
    st.items = [];
    const tools = new Map<string, ToolItem>();
    for (const m of messages) {
      if (m.rewound) continue; // an edited or regenerated turn: the chat shows the conversation as the model sees it
      if (m.role === 'user' && m.content) {
        st.items.push({ kind: 'user', id: this.nextId('u'), rev: 1, text: m.content, ...(m.error ? { failed: m.error } : {}) });
        // A failed prompt keeps its error across restarts: shown, never sent again on its own.
        if (m.error) st.items.push({ kind: 'notice', id: this.nextId('n'), rev: 1, text: `The turn stopped: ${m.error}`, level: 'error', retry: true });
      }
      if (m.role === 'assistant') {
        // The reasoning shown live before this answer (agent_thought_chunk); older servers send none.
        if (m.thinking) this.textItem(st, 'thought', m.thinking);
        if (m.content) this.textItem(st, 'assistant', m.content);
        for (const tc of m.tool_calls ?? []) {
          // The server keeps each call's title and kind (older servers: the tool's name).
          const item: ToolItem = {
            kind: 'tool', id: tc.id, rev: 1, name: tc.name, title: tc.title || tc.name, toolKind: tc.kind || 'other', status: 'completed', input: tc.arguments, refused: false,
          };
          const sub = subagentOf(tc.name, tc.name, tc.arguments);
          if (sub) item.subagent = sub;
          tools.set(tc.id, item);
          st.items.push(item);
        }
      }
      if (m.role === 'tool' && m.tool_call_id) {
        const item = tools.get(m.tool_call_id);
        if (item) {
          item.output = m.content;
          item.result = m.content;
          item.problems = editProblems(m.content);
          applyOutcome(item, m);
          const failed = item.status === 'failed';
          if (item.subagent) applyTaskResult(item.subagent, m.content, failed);
        }
      }
    }
    st.loaded = true;
    return st;
  }

  /** Records the user's prompt and marks the turn running. */
  addPrompt(sessionId: string, text: string): void {
    const st = this.states.get(sessionId);
    if (!st) return;
    for (const it of st.items) {
      if (it.kind === 'notice' && it.retry) {
        it.retry = false; // only the last prompt can be retried
        it.rev++;
      }
    }
    st.items.push({ kind: 'user', id: this.nextId('u'), rev: 1, text });
    st.busy = true;
    st.awaitingApproval = null;
  }

  /** Records the end of a turn (agent/prompt's result or its error). */
  endTurn(sessionId: string, result: PromptResult | { error: string; lost?: boolean }): void {
    const st = this.states.get(sessionId);
    if (!st) return;
    st.busy = false;
    if ('stopReason' in result) {
      if (result.stopReason === 'error') this.failedPrompt(st, result.error?.message ?? 'error');
      else if (result.stopReason === 'cancelled') this.notice(st, 'Cancelled.', 'info');
      else if (result.stopReason === 'max_turn_requests') this.notice(st, 'Stopped: too many model requests in one turn.', 'info');
      else if (result.stopReason === 'refusal') this.notice(st, 'The model refused to answer.', 'error');
      else if (result.stopReason === 'max_tokens') this.notice(st, "Cut off: the model reached its output token limit (model.max_tokens, or the endpoint's own). Ask it to continue.", 'info');
    } else if (result.lost) {
      // The connection went with the turn (a server killed mid-turn): nothing of it can be
      // answered any more, so its question and a pending approval go too, and its unfinished
      // tool calls end as failed. (A refused prompt, "session busy", leaves the running turn
      // alone.)
      this.notice(st, 'The agentls server stopped during this turn; it starts again with your next prompt.', 'error');
      st.question = null;
      st.awaitingApproval = null;
      for (const it of st.items) {
        if (it.kind === 'tool' && (it.status === 'pending' || it.status === 'in_progress')) {
          it.status = 'failed';
          delete it.progress;
          it.rev++;
        }
      }
    } else {
      this.notice(st, result.error, 'error');
    }
  }

  /**
   * Says in the session's chat which MCP servers failed since the last
   * status (agent/checkModel's mcpServers): each failure once, with why and
   * the tail of its stderr (docs/mcp.md, Status).
   */
  mcpStatus(sessionId: string, servers: MCPServerStatus[] | undefined): void {
    const st = this.states.get(sessionId);
    if (!st) return;
    for (const s of servers ?? []) {
      const key = `${s.name}\u0000${s.reason ?? ''}`;
      if (s.state !== 'failed') {
        this.mcpFailed.delete(s.name);
        continue;
      }
      if (this.mcpFailed.get(s.name) === key) continue;
      this.mcpFailed.set(s.name, key);
      this.notice(st, `MCP server ${s.name} failed${s.reason ? `: ${s.reason}` : ''}${s.stderrTail ? ` (stderr: ${s.stderrTail})` : ''}`, 'error');
    }
  }

  /** A prompt's turn ended with an error: its message is marked, and the notice offers Retry. */
  private failedPrompt(st: SessionState, error: string): void {
    for (let i = st.items.length - 1; i >= 0; i--) {
      const it = st.items[i];
      if (it.kind !== 'user') continue;
      it.failed = error;
      it.rev++;
      break;
    }
    st.items.push({ kind: 'notice', id: this.nextId('n'), rev: 1, text: `The turn stopped: ${error}`, level: 'error', retry: true });
  }

  /** Retry: the failed prompt's mark and notice go, the turn runs again. */
  retrying(sessionId: string): void {
    const st = this.states.get(sessionId);
    if (!st) return;
    st.items = st.items.filter((i) => !(i.kind === 'notice' && i.retry));
    for (const it of st.items) {
      if (it.kind === 'user' && it.failed) {
        delete it.failed;
        it.rev++;
      }
    }
    st.busy = true;
  }

  /** Adds an answer or a thinking block (live and loaded alike). */
  private textItem(st: SessionState, kind: 'assistant' | 'thought', text: string): void {
    st.items.push({ kind, id: this.nextId(kind[0]), rev: 1, text });
  }

  private notice(st: SessionState, text: string, level: 'info' | 'error'): void {
    st.items.push({ kind: 'notice', id: this.nextId('n'), rev: 1, text, level });
  }

  /** Applies one agent/update; returns false for an unknown session. */
  applyUpdate(sessionId: string, u: SessionUpdate): boolean {
    const st = this.states.get(sessionId);
    if (!st) return false;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const kind = u.sessionUpdate === 'agent_message_chunk' ? 'assistant' : 'thought';
        const last = st.items[st.items.length - 1];
        if (last && last.kind === kind) {
          last.text += u.content.text;
          last.rev++;
        } else {
          this.textItem(st, kind, u.content.text);
        }
        break;
      }
      case 'tool_call': {
        if (u.parentToolCallId) {
          this.childCall(st, u.parentToolCallId, u.childSessionId, (list) => {
            const c = list.find((i) => i.id === u.toolCallId);
            if (c) {
              c.status = u.status;
              c.title = u.title || c.title;
              c.rev++;
            } else {
              list.push(newToolItem(u.toolCallId, u.title, u.kind, u.status, u.rawInput));
            }
          });
          break;
        }
        const existing = findTool(st.items, u.toolCallId);
        if (existing) {
          existing.item.status = u.status;
          existing.item.title = u.title || existing.item.title;
          if (!existing.item.subagent) {
            const sub = subagentOf('', existing.item.title, u.rawInput);
            if (sub) existing.item.subagent = sub;
          }
          if (existing.item.input === undefined) existing.item.input = stringify(u.rawInput);
          existing.top.rev++;
        } else {
          st.items.push(newToolItem(u.toolCallId, u.title, u.kind, u.status, u.rawInput));
        }
        break;
      }
      case 'tool_call_update': {
        if (u.status === 'in_progress') {
          this.toolProgress(st, u);
          break;
        }
        const done = (item: ToolItem) => {
          delete item.progress;
          item.status = u.status;
          const text = (u.content ?? []).map((c) => c.content?.text ?? '').join('');
          item.output = text || stringify(u.rawOutput);
          item.result = stringify(u.rawOutput);
          item.problems = editProblems(u.rawOutput);
          const r = st.plan?.tickRefused;
          if (u.status === 'failed' && r && isTickRefusalResult(u.rawOutput, r)) item.tickRefused = r;
          if (u.refusal) {
            item.refused = true;
            item.refusalHint = u.refusal.hint;
          }
          if (item.subagent && u.status !== 'in_progress' && u.status !== 'pending') applyTaskResult(item.subagent, u.rawOutput ?? item.output, u.status === 'failed');
          item.rev++;
        };
        if (u.parentToolCallId) {
          this.childCall(st, u.parentToolCallId, u.childSessionId, (list) => {
            let c = list.find((i) => i.id === u.toolCallId);
            if (!c) {
              c = newToolItem(u.toolCallId, u.toolCallId, 'other', u.status, undefined);
              list.push(c);
            }
            done(c);
          });
          break;
        }
        const found = findTool(st.items, u.toolCallId);
        if (!found) break;
        done(found.item);
        found.top.rev++;
        if (found.item.subagent) relabel(st); // the result names the sub-agent's session
        break;
      }
      case 'plan':
        st.plan = { planFile: u.planFile, entries: u.entries, ...(u.tickRefused ? { tickRefused: u.tickRefused } : {}) };
        if (!st.session.planFile) st.session.planFile = u.planFile;
        break;
      case 'current_mode_update':
        st.session.mode = u.currentModeId;
        break;
      case 'question_pending':
        if (!st.question || st.question.questionId !== u.questionId) {
          st.question = { questionId: u.questionId, questions: u.questions, purpose: 'question', via: 'answer' };
        }
        break;
      case 'usage_update': {
        const prevChildren = st.usage?.children;
        const prevTotal = st.usage?.total;
        st.usage = {
          inputTokens: (st.usage?.inputTokens ?? 0) + u.inputTokens,
          outputTokens: (st.usage?.outputTokens ?? 0) + u.outputTokens,
          contextTokens: u.contextTokens ?? st.usage?.contextTokens,
          contextWindow: u.contextWindow ?? st.usage?.contextWindow,
        };
        if (st.usage.contextTokens === undefined) delete st.usage.contextTokens;
        if (st.usage.contextWindow === undefined) delete st.usage.contextWindow;
        const children = u.children ? undefined : prevChildren;
        if (children) st.usage.children = children;
        const total = u.total ?? prevTotal;
        if (total) st.usage.total = total;
        if (u.children) {
          st.usage.children = u.children.map((c) => {
            const found = findTool(st.items, c.toolCallId);
            const sub = found?.item.subagent;
            if (sub) {
              const same = sub.tokens?.inputTokens === c.inputTokens && sub.tokens?.outputTokens === c.outputTokens;
              sub.tokens = { inputTokens: c.inputTokens, outputTokens: c.outputTokens };
              if (!same) found.top.rev++;
            }
            return { ...c, label: c.toolCallId };
          });
        }
        relabel(st);
        break;
      }
      case 'session_info_update':
        // The title the first prompt gave (or agent/setTitle): the same as agent/listSessions shows after a reload.
        st.session.title = u.title;
        if (u.updatedAt) st.session.updatedAt = u.updatedAt;
        break;
      case 'instructions_loaded':
        this.notice(st, instructionsText(u.files), 'info');
        break;
    }
    return true;
  }

  /** Runs edit on the child rows of the task call parentId (a placeholder
   * task row when the child's call came first): a sub-agent's calls are
   * never top-level rows. */
  private childCall(st: SessionState, parentId: string, childSessionId: string | undefined, edit: (list: ToolItem[]) => void): void {
    let found = findTool(st.items, parentId);
    if (!found) {
      const placeholder = newToolItem(parentId, 'task', 'other', 'in_progress', undefined);
      placeholder.subagent = { kind: '', prompt: '', status: 'running' };
      st.items.push(placeholder);
      found = { item: placeholder, top: placeholder };
    }
    const parent = found.item;
    parent.subagent ??= { kind: '', prompt: '', status: 'running' };
    if (childSessionId) parent.subagent.childSessionId ??= childSessionId;
    parent.children ??= [];
    edit(parent.children);
    found.top.rev++;
  }

  /** Applies agent/modeChanged. */
  applyModeChanged(p: ModeChangedParams): void {
    const st = this.states.get(p.sessionId);
    if (!st) return;
    st.session.mode = p.mode;
    st.session.planFile = p.planFile;
    if (p.mode === 'build') st.awaitingApproval = null;
  }

  /** Shows an agent/askUser request in the question bar. */
  ask(p: AskUserParams): void {
    const st = this.states.get(p.sessionId);
    if (!st) return;
    st.question = { questionId: p.questionId, questions: p.questions, purpose: p.purpose, permission: p.permission, errors: p.errors, via: 'request' };
    if (p.purpose === 'plan_approval') st.awaitingApproval = null;
  }

  /**
   * A running call's progress (tool_call_update in_progress): its newest line replaces the one before,
   * on a row that is still running (a line after the call's end, or for a call not shown, is dropped).
   */
  private toolProgress(st: SessionState, u: ToolCallDone): void {
    const text = (u.content ?? []).map((c) => c.content?.text ?? '').join(' ');
    const show = (item: ToolItem | undefined): boolean => {
      if (!item || (item.status !== 'pending' && item.status !== 'in_progress') || item.progress === text) return false;
      item.status = 'in_progress';
      item.progress = text;
      item.rev++;
      return true;
    };
    const found = findTool(st.items, u.toolCallId); // a sub-agent's call too, inside its task row
    if (found && show(found.item) && found.top !== found.item) found.top.rev++; // the task row holding it is drawn again
  }

  /**
   * The user answered (answers) or dismissed (null) the question in view: the
   * tool call asking it (the newest one still running) keeps the questions
   * and the reply, as the server persists them for a reload.
   */
  noteAnswer(sessionId: string, questionId: string, answers: Record<string, unknown> | null): void {
    const st = this.states.get(sessionId);
    const q = st?.question;
    if (!st || !q || q.questionId !== questionId) return;
    for (let i = st.items.length - 1; i >= 0; i--) {
      const it = st.items[i];
      if (it.kind !== 'tool' || (it.status !== 'in_progress' && it.status !== 'pending')) continue;
      it.questions = q.questions;
      if (answers) it.answers = answers;
      else it.dismissed = true;
      it.rev++;
      return;
    }
  }

  /** Removes a question (answered, withdrawn). */
  clearQuestion(sessionId: string, questionId: string): void {
    const st = this.states.get(sessionId);
    if (st?.question?.questionId === questionId) st.question = null;
  }

  /** The user dismissed a question; a dismissed plan approval stays pending. */
  dismiss(sessionId: string, questionId: string): void {
    const st = this.states.get(sessionId);
    if (!st?.question || st.question.questionId !== questionId) return;
    if (st.question.purpose === 'plan_approval') {
      // The plan the question was about (exit_plan_mode may ask about another than the session's).
      const p = st.question.permission;
      st.awaitingApproval = { planFile: p?.what || st.session.planFile, grants: p?.grants ?? [] };
    }
    st.question = null;
  }

  /** Sets the open review comments of a session's plan (openReviewComments). */
  setOpenComments(sessionId: string, n: number): void {
    const st = this.states.get(sessionId);
    if (st) st.openComments = n;
  }

  /** The plan file of a session: the one its plan updates name, else the session's. */
  planFileOf(sessionId: string): string | null {
    const st = this.states.get(sessionId);
    return st?.plan?.planFile ?? st?.session.planFile ?? null;
  }

  /** The approval was resolved (agent/resolvePlan returned). */
  approvalResolved(sessionId: string): void {
    const st = this.states.get(sessionId);
    if (st) st.awaitingApproval = null;
  }

  /** The server stopped: no turn runs, and questions it asked wait for nobody. */
  serverStopped(): void {
    for (const st of this.states.values()) {
      st.busy = false;
      if (st.question?.via === 'request') st.question = null;
    }
  }

  /** The sessions, newest first, and the current one. */
  snapshot(): Snapshot {
    const sessions = [...this.states.values()]
      .map((s) => ({ sessionId: s.session.sessionId, title: s.session.title, mode: s.session.mode, updatedAt: s.session.updatedAt }))
      .sort(newestFirst);
    return { sessions, current: this.current, defaultMode: this.defaultMode };
  }
}

/** Sets a loaded tool row's status, refusal, questions and answers from its tool message: the
 * persisted outcome when the server sent one, else what the result's JSON says (older servers). */
export function applyOutcome(item: ToolItem, m: WireMessage): void {
  if (m.status) {
    item.status = m.status;
    item.refused = !!m.refusal;
    if (m.refusal?.hint) item.refusalHint = m.refusal.hint;
  } else {
    item.refused = /System is in Plan Mode/.test(m.content ?? '');
    item.status = /^\s*\{\s*"success"\s*:\s*false/.test(m.content ?? '') ? 'failed' : 'completed';
  }
  if (m.questions?.length) item.questions = m.questions;
  if (m.answers) item.answers = m.answers;
  if (m.dismissed) item.dismissed = true;
}

function newToolItem(id: string, title: string, toolKind: string, status: string, rawInput: unknown): ToolItem {
  const item: ToolItem = { kind: 'tool', id, rev: 1, title, toolKind, status, input: stringify(rawInput), refused: false };
  const sub = subagentOf('', title, rawInput);
  if (sub) item.subagent = sub;
  return item;
}

/** Names each sub-agent of the usage footer by its task row: "explore 1a2b3c4d" (its kind and short id, as far as known). */
function relabel(st: SessionState): void {
  for (const c of st.usage?.children ?? []) {
    const sub = findTool(st.items, c.toolCallId)?.item.subagent;
    c.label = sub ? `${sub.kind || 'sub-agent'} ${shortId(sub.childSessionId)}`.trim() : c.toolCallId;
  }
}

/** The tool row with id among items and their sub-agents' rows, with the top-level row holding it. */
export function findTool(items: ChatItem[], id: string): { item: ToolItem; top: ToolItem } | null {
  const inside = (list: ToolItem[]): ToolItem | null => {
    for (const t of list) {
      if (t.id === id) return t;
      const c = t.children ? inside(t.children) : null;
      if (c) return c;
    }
    return null;
  };
  for (const i of items) {
    if (i.kind !== 'tool') continue;
    const hit = inside([i]);
    if (hit) return { item: hit, top: i };
  }
  return null;
}

/** Orders sessions by their last change, newest first. */
export function newestFirst(a: { updatedAt: string }, b: { updatedAt: string }): number {
  return a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;
}

/** The chat's one line for instructions_loaded: "Loaded project instructions: AGENTS.md (1.2 KB), src/AGENTS.md (300 B, cut)". */
export function instructionsText(files: InstructionFile[]): string {
  const size = (n: number): string => (n < 1000 ? `${n} B` : n < 1_000_000 ? `${(n / 1000).toFixed(1)} KB` : `${(n / 1_000_000).toFixed(1)} MB`);
  return 'Loaded project instructions: ' + files.map((f) => `${f.path} (${size(f.bytes)}${f.cut ? ', cut' : ''})`).join(', ');
}

/** The prefix of the server's plan-linter diagnostic for an open review comment (docs/review.md). */
export const openCommentPrefix = 'open review comment';

/** How many of a plan's diagnostics are open review comments. */
export function openReviewComments(diagnostics: readonly { message: string }[]): number {
  return diagnostics.filter((d) => d.message.startsWith(openCommentPrefix)).length;
}

/** The label of the approval's "Request changes" action for n open comments. */
export function requestChangesLabel(n: number): string {
  return n === 1 ? 'Request changes (1 comment)' : `Request changes (${n} comments)`;
}
