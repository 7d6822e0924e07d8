// Maps the extension's settings to the server's initializationOptions (the
// same shape as .agentls.yaml). Pure: the caller passes a getter. The API key
// is never part of this: it goes to the server in its environment.

/** Reads one setting under "agentls." (undefined when unset). */
export type SettingGetter = (key: string) => unknown;

/**
 * Settings that say where the API key goes: window-scoped (so they show in
 * the User tab of a remote window too), but read from the user's own
 * settings only: a repository's .vscode/settings.json could otherwise send
 * the key to its own server (Guard II trust rule).
 */
export const userOnlyKeys = ['model.provider', 'model.baseUrl'];

/** What VS Code's WorkspaceConfiguration.inspect says of a setting (the layers used here). */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The getter initializationOptions reads: get, except that userOnlyKeys
 * come from the user's settings; onIgnored hears of a workspace's value
 * left out.
 */
export function trustedGetter(get: SettingGetter, inspect: (key: string) => InspectedSetting | undefined, onIgnored?: (key: string) => void): SettingGetter {
  return (key) => {
    if (!userOnlyKeys.includes(key)) return get(key);
    const i = inspect(key);
    if (i && (i.workspaceValue !== undefined || i.workspaceFolderValue !== undefined)) onIgnored?.(key);
    return i?.globalValue;
  };
}

/** Setting keys whose change restarts the server. */
export const restartKeys = [
  'serverPath',
  'serverArgs',
  'model.provider',
  'model.baseUrl',
  'model.name',
  'model.planName',
  'model.script',
  'planMode.defaultActive',
  'planMode.requireApproval',
  'planMode.approvalTimeoutSecs',
  'planMode.plansDir',
  'edits',
  'run.allow',
  'saveAgentEdits',
];

function str(get: SettingGetter, key: string): string | undefined {
  const v = get(key);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The initializationOptions for the current settings: only keys the user set. */
export function initializationOptions(get: SettingGetter): Record<string, unknown> {
  const opts: Record<string, unknown> = {};
  const model: Record<string, unknown> = {};
  const set = (o: Record<string, unknown>, k: string, v: unknown) => {
    if (v !== undefined) o[k] = v;
  };
  set(model, 'provider', str(get, 'model.provider'));
  set(model, 'base_url', str(get, 'model.baseUrl'));
  set(model, 'name', str(get, 'model.name'));
  set(model, 'plan_name', str(get, 'model.planName'));
  set(model, 'script', str(get, 'model.script'));
  if (Object.keys(model).length > 0) opts.model = model;

  const plan: Record<string, unknown> = {};
  const active = get('planMode.defaultActive');
  if (typeof active === 'boolean') plan.default_active = active;
  const approval = get('planMode.requireApproval');
  if (typeof approval === 'boolean') plan.require_approval = approval;
  const timeout = get('planMode.approvalTimeoutSecs');
  if (typeof timeout === 'number' && timeout > 0) plan.approval_timeout_secs = Math.floor(timeout);
  set(plan, 'plans_dir', str(get, 'planMode.plansDir'));
  if (Object.keys(plan).length > 0) opts.plan_mode = plan;

  const edits = str(get, 'edits');
  if (edits === 'auto' || edits === 'client' || edits === 'disk') opts.edits = edits;
  const allow = get('run.allow');
  if (Array.isArray(allow) && allow.length > 0) opts.run = { allow: allow.filter((a) => typeof a === 'string') };
  return opts;
}

/** The environment the server starts with: the editor's, plus the API key when one is stored. */
export function serverEnv(base: NodeJS.ProcessEnv, apiKey: string | undefined): NodeJS.ProcessEnv {
  const env = { ...base };
  if (apiKey) env.OPENAI_API_KEY = apiKey;
  return env;
}
