// First run: what the chat's empty state says when no model can answer yet,
// in the user's words (no environment variable or configuration file names),
// and which buttons it offers. Pure: the controller passes agent/checkModel's
// result; src/basicsFeature.ts shows it.

import type { ModelCheck } from './protocol';

/** A button of the setup card; each runs one command. */
export type SetupAction = 'settings' | 'apiKey' | 'test' | 'walkthrough';

/** What the chat's setup card shows: why the agent cannot answer yet, and what to do. */
export interface SetupState {
  /** What is missing, one short sentence ("No API key is set"). */
  title: string;
  /** What to do about it. */
  detail: string;
  /** The buttons, most useful first. */
  actions: SetupAction[];
  /** The server's own words, when they help (a configuration file's line); shown under "Details". */
  technical?: string;
}

/** The labels of the setup card's buttons. */
export const setupActionLabels: Record<SetupAction, string> = {
  settings: 'Open Settings',
  apiKey: 'Set API Key',
  test: 'Test connection',
  walkthrough: 'Open walkthrough',
};

/** The host of a base URL ("api.openai.com"), or the URL itself when it does not parse. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/**
 * The setup card for a model check, or null when the model answered (or
 * nothing is known yet). The server's message is read for its kind only.
 */
export function setupState(check: ModelCheck | undefined): SetupState | null {
  if (!check || check.ok) return null;
  const msg = check.message ?? '';
  const where = check.baseUrl ? hostOf(check.baseUrl) : 'the model provider';
  const all: SetupAction[] = ['settings', 'apiKey', 'test', 'walkthrough'];
  if (/no API key|API key is the text/i.test(msg)) {
    return {
      title: 'No API key is set',
      detail: `agentls needs an API key for ${where} before the agent can answer. Set one (VS Code keeps it in its secret storage), or choose another provider or a local server in Settings.`,
      actions: ['apiKey', 'settings', 'test', 'walkthrough'],
    };
  }
  if (/model name is empty/i.test(msg) || (!check.model && check.provider !== 'scripted')) {
    return { title: 'No model is chosen', detail: 'Choose the model the agent should use in Settings (for example gpt-4.1), then test the connection.', actions: all };
  }
  if (/does not offer the model/i.test(msg)) {
    return {
      title: `${where} does not offer the model ${check.model}`,
      detail: 'Choose one of the models the provider offers in Settings, then test the connection.',
      actions: ['settings', 'test', 'walkthrough'],
    };
  }
  if (/\b40[13]\b|incorrect api key|invalid[_ ]api[_ ]key|unauthori[sz]ed|forbidden/i.test(msg)) {
    return { title: `${where} refused the API key`, detail: 'Set the key again (check that it belongs to this provider), then test the connection.', actions: ['apiKey', 'settings', 'test'] };
  }
  if (/\.ya?ml:\d+|initializationOptions|configuration/i.test(msg)) {
    return { title: 'The agentls configuration has an error', detail: 'Fix it (the details say where); the agent sends nothing to a model until it loads.', actions: ['settings', 'test'], technical: msg };
  }
  if (/connection refused|no such host|dial tcp|timeout|timed out|deadline|EOF|unreachable|network/i.test(msg)) {
    return { title: `Can't reach ${where}`, detail: 'Check the base URL in Settings (and that the server is running, for a local one), then test the connection.', actions: ['settings', 'test', 'walkthrough'], technical: msg };
  }
  return { title: 'The model cannot answer yet', detail: 'Check the provider, base URL, model and API key, then test the connection.', actions: all, technical: msg || undefined };
}

/**
 * The setup a failed prompt's error calls for (no key, a refused key, an
 * endpoint out of reach, a model not offered, a configuration error), or
 * null for other errors: the chat then says it in the user's words with the
 * setup buttons, the server's text under "Details".
 */
export function promptErrorSetup(error: string): SetupState | null {
  const s = setupState({ ok: false, provider: 'openai', model: '', baseUrl: '', message: error, sandbox: { mode: '', landlock: '', bwrap: '', network: false, summary: '' } });
  if (!s || s.title === 'The model cannot answer yet' || s.title === 'No model is chosen') return null;
  return { ...s, technical: error };
}

/**
 * What "Test connection" tells the user: success names the model, where it answered and, when the
 * server says (older servers do not), the context window and where it comes from, in the plain LSP
 * editor's words: "…answers; context window 12,288 tokens (llama.cpp /props)." The number is in the
 * user's locale (unless one is given), as the chat's usage line shows it.
 */
export function connectionResult(check: ModelCheck, locale?: string): { ok: boolean; text: string } {
  if (check.ok) {
    const where = check.provider === 'scripted' ? 'the scripted provider' : hostOf(check.baseUrl);
    let window = '';
    if (check.contextWindow) {
      window = `; context window ${check.contextWindow.toLocaleString(locale)} tokens`;
      if (check.contextWindowSource) window += ` (${check.contextWindowSource})`;
    }
    return { ok: true, text: `Connected: ${check.model || 'the model'} at ${where} answers${window}.` };
  }
  const s = setupState(check)!;
  return { ok: false, text: `${s.title}. ${s.detail}` };
}

/** The status bar tooltip's warning when no model is ready ("" when it is, or not known yet). */
export function notReadyLine(check: ModelCheck | undefined): string {
  const s = setupState(check);
  return s ? `⚠ No model is ready: ${s.title}. Open the chat to set it up.\n\n` : '';
}
