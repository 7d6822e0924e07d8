// Messages between the extension host and the chat webview.

import type { SetupAction, SetupState } from './firstRun';
import type { MentionChip } from './mentions';
import type { CommandInfo, Mode, ModelList } from './protocol';
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
  // sessionId and planFile: the chat and plan the panel showed (the decision is for them only).
  | { type: 'resolvePlan'; decision: 'approve' | 'reject'; reason?: string; sessionId?: string; planFile?: string | null }
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
  | { type: 'setReview'; review: 'off' | 'edits' }
  // Layout (layoutFeature.ts): a code block's Copy and Insert, the approval's rendered plan.
  | { type: 'copyCode'; text: string }
  | { type: 'insertCode'; text: string }
  | { type: 'readPlan'; planFile: string }
  // Chat basics (basicsFeature.ts): the model picker, history, copy, edit-and-resend, regenerate, retry, the setup card.
  | { type: 'setModel'; model: string }
  | { type: 'history' }
  | { type: 'renameChat' }
  | { type: 'copy'; text: string }
  | { type: 'editMessage'; itemId: string; text: string }
  | { type: 'regenerate'; itemId: string }
  | { type: 'retry' }
  | { type: 'setupAction'; action: SetupAction };

/** Extension → webview. */
export type ToWebview =
  | { type: 'state'; snapshot: Snapshot; context: string | null; mentions?: MentionChip[] }
  | { type: 'insert'; text: string }
  | { type: 'commands'; commands: CommandInfo[] }
  | { type: 'changes'; changes: TurnChanges | null }
  // The answer to readPlan: the plan's text as the editor has it (null: unreadable).
  | { type: 'planText'; planFile: string; text: string | null }
  // The setup card (null: a model answers), the last "Test connection" result, the models to pick from.
  | { type: 'basics'; setup: SetupState | null; connection: { ok: boolean; text: string } | null; models: ModelList | null }
  | { type: 'focusPrompt' };
