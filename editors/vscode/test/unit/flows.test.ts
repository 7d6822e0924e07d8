// The controller's user-facing flows, with the editor calls recorded: the
// BUILD → PLAN confirmation, @file / selection attachments, the API key in
// secret storage, the restart on a settings change, the chat restored after a
// (re)start.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  apiKeySecret,
  attachment,
  confirmModeSwitch,
  connectionLost,
  connectionLostCodes,
  planSwitchAction,
  planSwitchWarning,
  planSwitchWarningBusy,
  promptParams,
  restartAction,
  restartOnChange,
  sessionToRestore,
  storeApiKey,
} from '../../src/flows';
import type { Mode, Session } from '../../src/protocol';
import { initializationOptions, serverEnv } from '../../src/settings';

/** A Confirm that records what it was asked and answers with `reply`. */
function confirmer(reply: (action: string) => string | undefined) {
  const asked: string[] = [];
  const confirm = async (message: string, action: string) => {
    asked.push(message);
    return reply(action);
  };
  return { asked, confirm };
}

describe('confirmModeSwitch (status bar click, Switch Mode command and the chat view toggle)', () => {
  const cases: { name: string; from: Mode; to: Mode; reply: 'accept' | 'refuse'; want: boolean; asks: boolean }[] = [
    { name: 'PLAN → BUILD goes ahead without asking', from: 'plan', to: 'build', reply: 'refuse', want: true, asks: false },
    { name: 'BUILD → PLAN asks; confirmed, it goes ahead', from: 'build', to: 'plan', reply: 'accept', want: true, asks: true },
    { name: 'BUILD → PLAN asks; dismissed, nothing changes', from: 'build', to: 'plan', reply: 'refuse', want: false, asks: true },
    { name: 'the same mode is no switch', from: 'build', to: 'build', reply: 'accept', want: false, asks: false },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { asked, confirm } = confirmer((action) => (c.reply === 'accept' ? action : undefined));
      assert.equal(await confirmModeSwitch(c.from, c.to, confirm), c.want);
      assert.equal(asked.length, c.asks ? 1 : 0);
      if (c.asks) assert.equal(asked[0], planSwitchWarning);
      if (c.asks) assert.doesNotMatch(asked[0], /stop/, 'nothing runs: nothing stops');
    });
  }
  test('while a turn runs, BUILD → PLAN says the turn goes on with its edits refused', async () => {
    const { asked, confirm } = confirmer((action) => action);
    assert.equal(await confirmModeSwitch('build', 'plan', confirm, true), true);
    assert.deepEqual(asked, [planSwitchWarningBusy]);
    assert.match(asked[0], /edits are refused/);
  });
  test('only the confirming action counts (a different button is a no)', async () => {
    const { confirm } = confirmer(() => 'Cancel');
    assert.equal(await confirmModeSwitch('build', 'plan', confirm), false);
    assert.equal(planSwitchAction, 'Switch to PLAN');
  });
});

describe('attachment and promptParams (@file mentions, Send Selection to Agent)', () => {
  const uri = 'file:///w/src/main.go';
  test('an @file mention attaches the file as context', () => {
    const a = attachment(uri, 'src/main.go');
    assert.deepEqual(a, { context: { uri }, label: 'src/main.go' });
    assert.deepEqual(promptParams('s1', 'explain @src/main.go', a), { sessionId: 's1', text: 'explain @src/main.go', context: { uri } });
  });
  test('a selection attaches the file and its range (zero-based, as LSP)', () => {
    const sel = { start: { line: 4, character: 2 }, end: { line: 9, character: 0 } };
    const a = attachment(uri, 'src/main.go', sel);
    assert.deepEqual(a.context, { uri, range: { start: { line: 4, character: 2 }, end: { line: 9, character: 0 } } });
    assert.equal(a.label, 'src/main.go:5-10', 'the label counts lines from 1');
    assert.deepEqual(promptParams('s1', 'fix this', a), { sessionId: 's1', text: 'fix this', context: a.context });
  });
  test('an empty selection (a cursor) attaches the whole file', () => {
    const cursor = { start: { line: 3, character: 1 }, end: { line: 3, character: 1 } };
    assert.deepEqual(attachment(uri, 'src/main.go', cursor), { context: { uri }, label: 'src/main.go' });
  });
  test('without an attachment the prompt carries no context', () => {
    assert.deepEqual(promptParams('s1', 'hi', null), { sessionId: 's1', text: 'hi' });
  });
});

describe('storeApiKey (Set API Key)', () => {
  function secrets() {
    const kept = new Map<string, string>();
    const calls: string[] = [];
    return {
      kept,
      calls,
      store: async (k: string, v: string) => {
        calls.push(`store ${k}`);
        kept.set(k, v);
      },
      delete: async (k: string) => {
        calls.push(`delete ${k}`);
        kept.delete(k);
      },
    };
  }
  test('a key is stored in secret storage and restarts the server', async () => {
    const s = secrets();
    assert.equal(await storeApiKey(s, 'sk-test-123'), true);
    assert.equal(s.kept.get(apiKeySecret), 'sk-test-123');
  });
  test('cancelling the input box changes nothing and does not restart', async () => {
    const s = secrets();
    s.kept.set(apiKeySecret, 'old');
    assert.equal(await storeApiKey(s, undefined), false);
    assert.deepEqual(s.calls, []);
    assert.equal(s.kept.get(apiKeySecret), 'old');
  });
  test('an empty key deletes the stored one', async () => {
    const s = secrets();
    s.kept.set(apiKeySecret, 'old');
    assert.equal(await storeApiKey(s, ''), true);
    assert.deepEqual(s.calls, [`delete ${apiKeySecret}`]);
    assert.equal(s.kept.has(apiKeySecret), false);
  });
  test('the stored key reaches the server in its environment only', async () => {
    const s = secrets();
    await storeApiKey(s, 'sk-test-123');
    const key = s.kept.get(apiKeySecret);
    const env = serverEnv({ PATH: '/usr/bin' }, key);
    assert.equal(env.OPENAI_API_KEY, 'sk-test-123');
    const opts = initializationOptions((k) => ({ 'model.provider': 'openai', 'model.baseUrl': 'http://127.0.0.1:1/v1' })[k]);
    assert.equal(JSON.stringify(opts).includes('sk-test-123'), false);
    assert.equal(serverEnv({ PATH: '/usr/bin' }, undefined).OPENAI_API_KEY, undefined, 'no key stored: none set');
  });
});

describe('restartOnChange (settings change)', () => {
  const affects = (...keys: string[]) => (section: string) => keys.includes(section);
  test('a setting the server sees restarts it at once when no turn runs', async () => {
    const { asked, confirm } = confirmer(() => undefined);
    assert.equal(await restartOnChange(affects('agentls.model.name'), false, confirm), true);
    assert.deepEqual(asked, []);
  });
  test('during a turn it asks first; Restart restarts', async () => {
    const { asked, confirm } = confirmer((action) => action);
    assert.equal(await restartOnChange(affects('agentls.planMode.requireApproval'), true, confirm), true);
    assert.equal(asked.length, 1);
    assert.match(asked[0], /running turn will stop/);
    assert.equal(restartAction, 'Restart');
  });
  test('during a turn, Later or closing the question keeps the server running', async () => {
    for (const reply of ['Later', undefined]) {
      const { asked, confirm } = confirmer(() => reply);
      assert.equal(await restartOnChange(affects('agentls.edits'), true, confirm), false);
      assert.equal(asked.length, 1);
    }
  });
  test('other settings change nothing and ask nothing', async () => {
    const { asked, confirm } = confirmer((action) => action);
    assert.equal(await restartOnChange(affects('editor.fontSize', 'agentls'), true, confirm), false);
    assert.deepEqual(asked, []);
  });
});

describe('sessionToRestore (after a reload or restart)', () => {
  const s = (id: string, updatedAt: string): Session => ({ sessionId: id, title: id, mode: 'plan', planFile: null, createdAt: updatedAt, updatedAt });
  const list = [s('old', '2026-11-20T10:00:00Z'), s('newest', '2026-11-23T10:00:00Z'), s('mid', '2026-11-22T10:00:00Z')];
  test('the chat last in view comes back', () => assert.equal(sessionToRestore(list, 'mid')?.sessionId, 'mid'));
  test('else the newest', () => assert.equal(sessionToRestore(list, 'gone')?.sessionId, 'newest'));
  test('no sessions: nothing to load', () => assert.equal(sessionToRestore([], 'x'), undefined));
});

describe('connectionLost: a request that failed with the connection, not with the server\'s answer', () => {
  test('the codes are vscode-jsonrpc\'s', async () => {
    const { ErrorCodes, ResponseError } = await import('vscode-jsonrpc');
    assert.deepEqual(connectionLostCodes, [ErrorCodes.PendingResponseRejected, ErrorCodes.ConnectionInactive]);
    assert.equal(connectionLost(new ResponseError(ErrorCodes.PendingResponseRejected, 'Pending response rejected since connection got disposed')), true);
    assert.equal(connectionLost(new ResponseError(ErrorCodes.ConnectionInactive, 'Client is not running')), true);
  });

  test('a server\'s error answer or anything else is not', () => {
    for (const e of [{ code: -32603, message: 'session busy' }, { code: -32001 }, new Error('x'), null, undefined, { code: '-32097' }]) {
      assert.equal(connectionLost(e), false, JSON.stringify(e));
    }
  });
});
