// Messages between the extension host and the chat webview.

import type { CommandInfo, Mode } from './protocol';
import type { TurnChanges } from './review';
import type { Snapshot } from './state';

/** Webview → extension. */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'prompt'; text: string }
  | { type: 'cancel' }
  | { type: 'newChat' }
  | { type: 'selectSession'; sessionId: string }
  | { type: 'setMode'; mode: Mode }
  | { type: 'answer'; questionId: string; answers: Record<string, unknown> }
  | { type: 'dismiss'; questionId: string }
  | { type: 'resolvePlan'; decision: 'approve' | 'reject'; reason?: string }
  // The plan's open review comments go back to the planner (agentls.requestChanges).
  | { type: 'requestChanges' }
  | { type: 'openPlan'; planFile: string }
  // A problem under an edit's tool row: the workspace-relative path and its line (from 1).
  | { type: 'openProblem'; path: string; line: number }
  | { type: 'mention' }
  | { type: 'clearContext' }
  | { type: 'listCommands' }
  // Review (reviewFeature.ts): Restore on a user message, the turn's changes, the review toggle.
  | { type: 'restore'; itemId: string }
  | { type: 'diffFile'; path: string }
  | { type: 'keepFile'; path?: string }
  | { type: 'undoFile'; path?: string }
  | { type: 'setReview'; review: 'off' | 'edits' }
  // Layout (layoutFeature.ts): a code block's Copy and Insert, the approval's rendered plan.
  | { type: 'copyCode'; text: string }
  | { type: 'insertCode'; text: string }
  | { type: 'readPlan'; planFile: string };

/** Extension → webview. */
export type ToWebview =
  | { type: 'state'; snapshot: Snapshot; context: string | null }
  | { type: 'insert'; text: string }
  | { type: 'commands'; commands: CommandInfo[] }
  | { type: 'changes'; changes: TurnChanges | null }
  // The answer to readPlan: the plan's text as the editor has it (null: unreadable).
  | { type: 'planText'; planFile: string; text: string | null };
