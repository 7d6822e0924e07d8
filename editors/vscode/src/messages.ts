// Messages between the extension host and the chat webview.

import type { MentionChip } from './mentions';
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
  // A tool row's file link (webview/toolRow.ts): the file, or an edit's diff when the turn's review has it.
  | { type: 'openFile'; path: string; diff: boolean }
  | { type: 'mention' }
  // Removes the mention chip at index (all of them without one).
  | { type: 'clearContext'; index?: number }
  | { type: 'listCommands' }
  // Review (reviewFeature.ts): Restore on a user message, the turn's changes, the review toggle.
  | { type: 'restore'; itemId: string }
  | { type: 'diffFile'; path: string }
  | { type: 'keepFile'; path?: string }
  | { type: 'undoFile'; path?: string }
  | { type: 'setReview'; review: 'off' | 'edits' };

/** Extension → webview. */
export type ToWebview =
  | { type: 'state'; snapshot: Snapshot; context: string | null; mentions?: MentionChip[] }
  | { type: 'insert'; text: string }
  | { type: 'commands'; commands: CommandInfo[] }
  | { type: 'changes'; changes: TurnChanges | null };
