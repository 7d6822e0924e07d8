// Settings → initializationOptions, the server's environment, binary
// resolution, the documents an edit touches, and the protocol names.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { editedUris } from '../../src/edits';
import { agentCapability, Methods } from '../../src/protocol';
import { binaryName, resolveServer } from '../../src/serverPath';
import { initializationOptions, restartKeys, serverEnv, trustedGetter, userOnlyKeys } from '../../src/settings';

describe('initializationOptions', () => {
  test('maps set settings to the config file shape', () => {
    const values: Record<string, unknown> = {
      'model.provider': 'openai',
      'model.baseUrl': ' http://127.0.0.1:8080/v1 ',
      'model.name': 'gpt-4.1',
      'model.planName': '',
      'planMode.defaultActive': true,
      'planMode.requireApproval': false,
      'planMode.approvalTimeoutSecs': 90.5,
      'planMode.plansDir': 'docs/plans',
      edits: 'client',
      'run.allow': ['go test ./...', 7],
    };
    assert.deepEqual(initializationOptions((k) => values[k]), {
      model: { provider: 'openai', base_url: 'http://127.0.0.1:8080/v1', name: 'gpt-4.1' },
      plan_mode: { default_active: true, require_approval: false, approval_timeout_secs: 90, plans_dir: 'docs/plans' },
      edits: 'client',
      run: { allow: ['go test ./...'] },
    });
  });
  test('unset settings leave the server its own configuration', () => {
    assert.deepEqual(initializationOptions(() => undefined), {});
    assert.deepEqual(initializationOptions((k) => (k === 'edits' ? 'everywhere' : k === 'planMode.approvalTimeoutSecs' ? 0 : '')), {});
  });
  test('the API key never goes into initializationOptions, only into the environment', () => {
    const opts = JSON.stringify(initializationOptions((k) => (k === 'model.name' ? 'm' : undefined)));
    assert.doesNotMatch(opts, /api_key/);
    const env = serverEnv({ PATH: '/bin' }, 'sk-secret');
    assert.equal(env.OPENAI_API_KEY, 'sk-secret');
    assert.equal(env.PATH, '/bin');
    assert.equal(serverEnv({ OPENAI_API_KEY: 'from-shell' }, undefined).OPENAI_API_KEY, 'from-shell');
  });
});

describe('resolveServer', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agentls-vscode-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const exe = (p: string) => {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, '#!/bin/sh\n', { mode: 0o755 });
    return p;
  };
  const ext = path.join(tmp, 'ext');
  const bundled = exe(path.join(ext, 'bin', binaryName()));
  const onPath = exe(path.join(tmp, 'pathdir', 'agentls'));
  const setting = exe(path.join(tmp, 'custom', 'agentls-dev'));
  const notExec = path.join(tmp, 'plain');
  fs.writeFileSync(notExec, 'x', { mode: 0o644 });

  test('the setting wins', () => assert.deepEqual(resolveServer(setting, ext, path.dirname(onPath)), { command: setting, source: 'setting' }));
  test('a setting naming no executable is an error, not skipped', () => {
    for (const bad of [path.join(tmp, 'missing'), notExec]) {
      const r = resolveServer(bad, ext, path.dirname(onPath));
      assert.ok('error' in r && r.error.includes('agentls.serverPath'), JSON.stringify(r));
    }
  });
  test('then the bundled binary', () => assert.deepEqual(resolveServer('  ', ext, path.dirname(onPath)), { command: bundled, source: 'bundled' }));
  test('then PATH', () => assert.deepEqual(resolveServer('', path.join(tmp, 'none'), `/nonexistent${path.delimiter}${path.dirname(onPath)}`), { command: onPath, source: 'path' }));
  test('else a clear error', () => {
    const r = resolveServer(undefined, path.join(tmp, 'none'), '/nonexistent');
    assert.ok('error' in r && /not found/.test(r.error) && /PATH/.test(r.error));
  });
  test('windows binary name', () => assert.equal(binaryName('win32'), 'agentls.exe'));
});

describe('editedUris', () => {
  test('changes, text document edits, creates and renames; deletes drop out', () => {
    assert.deepEqual(
      editedUris({
        changes: { 'file:///w/a.go': [] },
        documentChanges: [
          { textDocument: { uri: 'file:///w/b.go' } },
          { kind: 'create', uri: 'file:///w/c.go' },
          { kind: 'rename', oldUri: 'file:///w/c.go', newUri: 'file:///w/d.go' },
          { textDocument: { uri: 'file:///w/a.go' } },
          { kind: 'delete', uri: 'file:///w/b.go' },
        ],
      }),
      ['file:///w/a.go', 'file:///w/d.go'],
    );
    assert.deepEqual(editedUris({}), []);
  });
});

describe('protocol names', () => {
  test('every method the extension uses is in docs/protocol.md', () => {
    const doc = fs.readFileSync(path.resolve('..', '..', 'docs', 'protocol.md'), 'utf8') // npm runs tests in editors/vscode;
    for (const m of Object.values(Methods)) assert.ok(doc.includes(`\`${m}`), `${m} missing from docs/protocol.md`);
  });
  test('the capability declares askUser, modeIndicator, savesEdits, languageIntel and toolCallProgress', () => {
    assert.deepEqual(agentCapability(false), { askUser: true, modeIndicator: true, savesEdits: false, languageIntel: true, toolCallProgress: true });
  });
});

describe('trustedGetter: where the API key goes comes from the user\'s settings only', () => {
  const values: Record<string, unknown> = { 'model.provider': 'openai', 'model.baseUrl': 'https://evil.example/v1', 'model.name': 'm' };
  const layers: Record<string, { globalValue?: unknown; workspaceValue?: unknown }> = {
    'model.provider': { globalValue: 'openai' },
    'model.baseUrl': { globalValue: 'https://api.openai.com/v1', workspaceValue: 'https://evil.example/v1' },
  };
  test('a workspace value of base URL is ignored and reported; other keys read as usual', () => {
    const ignored: string[] = [];
    const get = trustedGetter((k) => values[k], (k) => layers[k], (k) => ignored.push(k));
    assert.deepEqual(initializationOptions(get).model, { provider: 'openai', base_url: 'https://api.openai.com/v1', name: 'm' });
    assert.deepEqual(ignored, ['model.baseUrl']);
  });
  test('without a user value the server\'s configuration decides', () => {
    const get = trustedGetter((k) => values[k], () => ({ workspaceValue: 'https://evil.example/v1' }));
    assert.deepEqual(initializationOptions(get).model, { name: 'm' });
  });
});

describe('package.json', () => {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const props: Record<string, { scope?: string }> = pkg.contributes.configuration.properties;

  test('settings that widen what the agent may do cannot come from a workspace (Guard II trust rule)', () => {
    // A repository's .vscode/settings.json can set only window/resource-scoped settings.
    const widening = ['serverPath', 'serverArgs', 'model.script', 'planMode.requireApproval', 'edits', 'run.allow'];
    for (const k of widening) {
      assert.ok(['machine', 'application'].includes(props[`agentls.${k}`]?.scope ?? ''), `agentls.${k} must be machine or application scoped`);
    }
    // Where the key goes shows in remote windows' User tab (window scope), and is read from the user's settings only.
    for (const k of userOnlyKeys) {
      assert.equal(props[`agentls.${k}`]?.scope, 'window', `agentls.${k} is window scoped`);
    }
    assert.deepEqual(userOnlyKeys, ['model.provider', 'model.baseUrl']);
    assert.equal(Object.keys(props).some((k) => /api.?key/i.test(k)), false, 'the API key is never a setting');
  });

  test('every setting that reaches the server restarts it', () => {
    for (const k of Object.keys(props)) assert.ok(restartKeys.includes(k.replace(/^agentls\./, '')), `${k} is not in restartKeys`);
  });

  test('palette commands do not collide with the server commands the client registers', () => {
    const ours: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);
    const doc = fs.readFileSync(path.resolve('..', '..', 'docs', 'protocol.md'), 'utf8');
    const server = [...doc.matchAll(/"(agentls\.[a-zA-Z]+)"/g)].map((m) => m[1]);
    assert.ok(server.length >= 6, 'server commands found in docs/protocol.md');
    assert.deepEqual(ours.filter((c) => server.includes(c)), []);
    for (const c of ours) assert.match(c, /^agentls\.ui\./);
  });

  test('the mode colours have light, dark and high-contrast defaults', () => {
    for (const id of ['agentls.planForeground', 'agentls.buildForeground']) {
      const c = pkg.contributes.colors.find((x: { id: string }) => x.id === id);
      assert.ok(c, id);
      for (const k of ['light', 'dark', 'highContrast', 'highContrastLight']) assert.match(c.defaults[k], /^#[0-9A-Fa-f]{6}$/);
    }
  });
});
