// Wire types and method names of the agentls protocol (docs/protocol.md).
// Pure declarations: shared by the extension host and the webview bundle.

/** A session's mode. */
export type Mode = 'plan' | 'build';

/** A session as the server reports it. */
export interface Session {
  sessionId: string;
  title: string;
  mode: Mode;
  planFile: string | null;
  createdAt: string;
  updatedAt: string;
  /** Whether BUILD edits are reviewed before they apply (docs/review.md). */
  review?: 'off' | 'edits';
}

/** A message of a loaded session, as the model saw it. */
export interface WireMessage {
  role: string;
  content?: string;
  tool_calls?: { id: string; name: string; arguments: string }[];
  tool_call_id?: string;
  name?: string;
}

/** A button offered by a question. */
export interface QuestionButton {
  label: string;
  value: unknown;
  variant?: 'primary' | 'secondary' | 'danger';
}

/** One question of an ask_user batch. */
export interface Question {
  name: string;
  question: string;
  schema: JsonSchema;
  buttons?: QuestionButton[];
  severity?: 'critical' | 'major' | 'minor';
}

/** A JSON Schema (draft 2020-12) as far as the form renderer reads it. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  title?: string;
  [key: string]: unknown;
}

/** One choice of a permission request; its id equals its kind. */
export interface PermissionOption {
  id: 'allow_once' | 'allow_always' | 'reject_once';
  kind: 'allow_once' | 'allow_always' | 'reject_once';
  label: string;
}

/**
 * A permission request (docs/protocol.md "Permission requests"): what is asked, where, and
 * everything allowing it grants. A plan approval carries one of kind `plan` listing the commands
 * approving grants.
 */
export interface PermissionRequest {
  kind: 'run' | 'mcp' | 'network' | 'trust' | 'subagent' | 'plan';
  what: string;
  cwd?: string;
  reach?: 'workspace' | 'network' | 'process' | 'editor';
  grants: string[] | null;
  network?: string;
  sandbox?: string;
  options: PermissionOption[];
  requester?: string;
  toolCallId?: string;
  document?: string;
}

/** Params of the agent/askUser request. */
export interface AskUserParams {
  sessionId: string;
  questionId: string;
  questions: Question[];
  createdAt: string;
  purpose: 'question' | 'plan_approval' | 'permission';
  errors?: Record<string, string>;
  /** The permission request (purpose permission), or what a plan approval grants. */
  permission?: PermissionRequest;
}

/** Result of agent/askUser. */
export type AskUserResult = { answers: Record<string, unknown> } | { dismissed: true };

/** One entry of a plan update. */
export interface PlanEntry {
  content: string;
  priority: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** The update of an agent/update notification. */
export type SessionUpdate =
  | { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk'; content: { type: string; text: string } }
  | { sessionUpdate: 'tool_call'; toolCallId: string; title: string; kind: string; status: string; rawInput?: unknown }
  | {
      sessionUpdate: 'tool_call_update';
      toolCallId: string;
      status: string;
      content?: { type: string; content?: { type: string; text: string } }[];
      rawOutput?: unknown;
      refusal?: Refusal;
    }
  | { sessionUpdate: 'plan'; planFile: string; entries: PlanEntry[] }
  | { sessionUpdate: 'current_mode_update'; currentModeId: Mode }
  | { sessionUpdate: 'question_pending'; questionId: string; questions: Question[]; createdAt: string }
  | { sessionUpdate: 'usage_update'; inputTokens: number; outputTokens: number; contextTokens?: number; contextWindow?: number }
  | { sessionUpdate: 'instructions_loaded'; files: InstructionFile[] };

/** A project instruction file the model's requests carry (docs/instructions.md). */
export interface InstructionFile {
  path: string;
  bytes: number;
  cut: boolean;
}

/** A plan-mode refusal attached to a failed tool call. */
export interface Refusal {
  tool_name?: string;
  tool_kind?: string;
  hint?: string;
  [key: string]: unknown;
}

/** Params of agent/update. */
export interface UpdateParams {
  sessionId: string;
  update: SessionUpdate;
}

/** Params of agent/modeChanged. */
export interface ModeChangedParams {
  sessionId: string;
  mode: Mode;
  planFile: string | null;
  source: 'tool' | 'user' | 'load';
}

/** Result of agent/prompt. */
export interface PromptResult {
  stopReason: string;
  text?: string;
  error?: { message: string };
  /** The session a /new prompt started. */
  sessionId?: string;
}

/** A slash command (agent/listCommands). */
export interface CommandInfo {
  name: string;
  description: string;
  hint?: string;
}

/** Context attached to a prompt (a file, and maybe a selection). */
export interface PromptContext {
  uri: string;
  range?: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** Method names. */
export const Methods = {
  newSession: 'agent/newSession',
  listSessions: 'agent/listSessions',
  loadSession: 'agent/loadSession',
  prompt: 'agent/prompt',
  cancel: 'agent/cancel',
  setMode: 'agent/setMode',
  answer: 'agent/answer',
  resolvePlan: 'agent/resolvePlan',
  update: 'agent/update',
  modeChanged: 'agent/modeChanged',
  askUser: 'agent/askUser',
  checkModel: 'agent/checkModel',
  listCommands: 'agent/listCommands',
  setReview: 'agent/setReview',
  rewind: 'agent/rewind',
  changedFiles: 'agent/changedFiles',
  checkpointFile: 'agent/checkpointFile',
} as const;

/** What confines the commands agentls runs (agent/checkModel's `sandbox`). */
export interface SandboxStatus {
  mode: string;
  landlock: string;
  bwrap: string;
  network: boolean;
  summary: string;
}

/** agent/checkModel's result (the parts the extension reads). */
export interface ModelCheck {
  ok: boolean;
  message?: string;
  sandbox?: SandboxStatus;
}

/** The client's experimental.agent capability. */
export function agentCapability(savesEdits: boolean): { askUser: boolean; modeIndicator: boolean; savesEdits: boolean } {
  return { askUser: true, modeIndicator: true, savesEdits };
}
