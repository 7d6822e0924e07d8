// Messages between the extension host and the chat webview.

import type { CommandInfo, Mode } from './protocol';
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
  | { type: 'openPlan'; planFile: string }
  | { type: 'mention' }
  | { type: 'clearContext' }
  | { type: 'listCommands' };

/** Extension → webview. */
export type ToWebview =
  | { type: 'state'; snapshot: Snapshot; context: string | null }
  | { type: 'insert'; text: string }
  | { type: 'commands'; commands: CommandInfo[] };
