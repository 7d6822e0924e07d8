// Wire types of the agentls protocol still kept by hand (docs/protocol.md): the questions, the
// permission requests and the agent/update kinds, which agentproto declares as opaque JSON so far.
// Everything else comes from protocol.gen.ts (go generate ./agentproto). Pure declarations.

import type { Mode } from './protocol.gen';

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
