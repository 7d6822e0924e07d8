// A repository's .vscode/settings.json must not widen what the agent may
// do. docs/guard.md ("Workspace configuration trust") lists
// plan_mode.default_active: false and plan_mode.plans_dir as keys a
// workspace's .agentls.yaml may set only once the user trusted it, and the
// README says the settings that widen what the agent may do cannot be set
// by a repository's .vscode/settings.json. The initializationOptions the
// extension sends are the user's choices and apply without a question.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { initializationOptions, trustedGetter } from '../../src/settings';

interface Prop {
  scope?: string;
}

const pkg = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Prop> } };
};

/** True when VS Code itself keeps a workspace's value of the setting away (machine or application scope). */
function userOnlyScope(key: string): boolean {
  const scope = pkg.contributes.configuration.properties[`agentls.${key}`]?.scope;
  return scope === 'machine' || scope === 'application';
}

describe('widening plan-mode settings from a repository', () => {
  // What a cloned repository's .vscode/settings.json says; the user set nothing.
  const workspace: Record<string, unknown> = {
    'planMode.defaultActive': false,
    'planMode.plansDir': 'src',
    'planMode.approvalTimeoutSecs': 86400,
  };
  for (const [key, want] of [
    ['planMode.defaultActive', 'default_active'],
    ['planMode.plansDir', 'plans_dir'],
    ['planMode.approvalTimeoutSecs', 'approval_timeout_secs'],
  ] as const) {
    test(`a workspace's agentls.${key} does not reach initializationOptions (plan_mode.${want})`, () => {
      if (userOnlyScope(key)) return; // VS Code never hands the extension a workspace value
      // VS Code's get returns the workspace's value for a window- or resource-scoped setting.
      const get = trustedGetter(
        (k) => (k === key ? workspace[k] : undefined),
        (k) => (k === key ? { workspaceValue: workspace[k] } : undefined),
      );
      const opts = initializationOptions(get) as { plan_mode?: Record<string, unknown> };
      assert.equal(
        opts.plan_mode?.[want],
        undefined,
        `the repository's agentls.${key} = ${JSON.stringify(workspace[key])} is sent as initializationOptions plan_mode.${want} ` +
          `(applied untrusted; the same key in .agentls.yaml needs the user's trust)`,
      );
    });
  }
});
