// The decisions behind the controller's user-facing flows (switching mode,
// attaching context, storing the API key, restarting on a settings change,
// picking the chat to restore), apart from the vscode API: the controller
// passes in the few editor calls each one needs.

import type { Mode, PromptContext, PromptParams, Session } from './protocol';
import { restartKeys } from './settings';
import { newestFirst } from './state';

/** Asks the user a question with one action; resolves to the action chosen, or undefined. */
export type Confirm = (message: string, action: string) => Thenable<string | undefined> | Promise<string | undefined>;

/** The confirmation shown before BUILD → PLAN when no turn runs (nothing stops). */
export const planSwitchWarning = 'Switch to PLAN mode? The agent may then change nothing but .plan documents.';
/** The confirmation shown before BUILD → PLAN while a turn runs: it goes on, but its next edits are refused. */
export const planSwitchWarningBusy = 'Switch to PLAN mode while the agent is working? The running turn goes on, but its next edits are refused: in PLAN mode the agent may change nothing but .plan documents.';
/** The action that confirms BUILD → PLAN. */
export const planSwitchAction = 'Switch to PLAN';

/**
 * Whether a mode switch goes ahead: never to the same mode; BUILD → PLAN
 * only once the user confirmed (the question says what happens to a
 * running turn only when one runs).
 */
export async function confirmModeSwitch(from: Mode, to: Mode, confirm: Confirm, busy = false): Promise<boolean> {
  if (from === to) return false;
  if (from === 'build' && to === 'plan') return (await confirm(busy ? planSwitchWarningBusy : planSwitchWarning, planSwitchAction)) === planSwitchAction;
  return true;
}

/** A zero-based position (an editor's selection end). */
export interface Position {
  line: number;
  character: number;
}

/** An attachment for the next prompt and the label the chat shows for it. */
export interface Attachment {
  context: PromptContext;
  label: string;
}

/**
 * The attachment for a file (an @file mention) or a selection in it ("Send
 * Selection to Agent"): the file's URI, plus the range when the selection is
 * not empty.
 */
export function attachment(uri: string, relPath: string, selection?: { start: Position; end: Position }): Attachment {
  const empty = !selection || (selection.start.line === selection.end.line && selection.start.character === selection.end.character);
  if (!selection || empty) return { context: { uri }, label: relPath };
  return {
    context: {
      uri,
      range: {
        start: { line: selection.start.line, character: selection.start.character },
        end: { line: selection.end.line, character: selection.end.character },
      },
    },
    label: `${relPath}:${selection.start.line + 1}-${selection.end.line + 1}`,
  };
}

/** The agent/prompt params: the attachment, when there is one, rides as context. */
export function promptParams(sessionId: string, text: string, att: Attachment | null): PromptParams {
  const params: PromptParams = { sessionId, text };
  if (att) params.context = att.context;
  return params;
}

/** Where the API key is kept (VS Code's SecretStorage has this shape). */
export interface SecretStore {
  store(key: string, value: string): Thenable<void> | Promise<void>;
  delete(key: string): Thenable<void> | Promise<void>;
}

/** The SecretStorage key of the API key. */
export const apiKeySecret = 'agentls.apiKey';

/**
 * Stores what the "Set API Key" input box returned: undefined (cancelled)
 * changes nothing, an empty key deletes the stored one. Resolves to whether
 * the server must restart to see the change in its environment.
 */
export async function storeApiKey(secrets: SecretStore, input: string | undefined): Promise<boolean> {
  if (input === undefined) return false;
  if (input === '') await secrets.delete(apiKeySecret);
  else await secrets.store(apiKeySecret, input);
  return true;
}

/** The question asked before a settings change restarts the server during a turn. */
export const restartWarning = 'agentls settings changed. Restart the server now? The running turn will stop.';
/** The action that confirms that restart. */
export const restartAction = 'Restart';

/**
 * Whether a settings change restarts the server: only settings the server
 * sees; while a turn runs, only when the user says so.
 */
export async function restartOnChange(affects: (section: string) => boolean, busy: boolean, confirm: Confirm): Promise<boolean> {
  if (!restartKeys.some((k) => affects(`agentls.${k}`))) return false;
  if (!busy) return true;
  return (await confirm(restartWarning, restartAction)) === restartAction;
}

/** The chat to show after the server (re)starts: the last one in view if it still exists, else the newest. */
export function sessionToRestore(sessions: Session[], last: string | undefined): Session | undefined {
  const found = sessions.find((s) => s.sessionId === last);
  if (found) return found;
  return [...sessions].sort(newestFirst)[0];
}

/**
 * vscode-jsonrpc's ErrorCodes.PendingResponseRejected (-32097: the connection went with the
 * request pending) and ConnectionInactive (-32096: the client is not running); the unit test
 * checks them against the library.
 */
export const connectionLostCodes: readonly number[] = [-32097, -32096];

/** Whether a request failed because the connection to the server went, not with the server's answer. */
export function connectionLost(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'number' && connectionLostCodes.includes(code);
}
