// Chat basics' decisions: the setup card in the user's words for each way the
// model check fails, "Test connection"'s message, the status bar's warning,
// the model picker, the history's titles and dates, which message an edit,
// regenerate or retry acts on, and failed prompts in the chat state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { connectionResult, hostOf, notReadyLine, promptErrorSetup, setupState } from '../../src/firstRun';
import { historyEntries, relativeDate } from '../../src/history';
import { failedLastPrompt, itemsBefore, laterTurnsChangedFiles, regenerateTarget, sameTextAfter, userMessageIdFromEnd } from '../../src/messageActions';
import { modelPicker } from '../../src/models';
import type { ModelCheck, WireMessage } from '../../src/protocol';
import { ChatModel } from '../../src/state';

const sandbox = { mode: 'none', landlock: 'no', bwrap: 'no', network: false, summary: 'none' };
const check = (o: Partial<ModelCheck>): ModelCheck => ({ ok: false, provider: 'openai', model: 'gpt-4.1', baseUrl: 'https://api.openai.com/v1', sandbox, ...o });

describe('setupState: what is missing, in the user\'s words', () => {
  const cases: { name: string; check: ModelCheck; title: RegExp; first: string; technical?: boolean }[] = [
    {
      name: 'no API key (the server names OPENAI_API_KEY and .agentls.yaml)',
      check: check({ message: 'no API key: set OPENAI_API_KEY, or model.api_key_env in .agentls.yaml, or point OPENAI_BASE_URL at a local server such as Ollama' }),
      title: /^No API key is set$/,
      first: 'apiKey',
    },
    { name: 'no model name', check: check({ model: '', message: 'openai provider: model name is empty' }), title: /^No model is chosen$/, first: 'settings' },
    {
      name: 'a model the endpoint does not offer',
      check: check({ model: 'gpt-9', message: 'https://api.openai.com/v1 does not offer the model "gpt-9" (it offers: a, b); set model.name in .agentls.yaml or AGENTLS_MODEL' }),
      title: /^api\.openai\.com does not offer the model gpt-9$/,
      first: 'settings',
    },
    { name: 'a refused key', check: check({ message: 'model request failed: 401 Unauthorized: Incorrect API key provided' }), title: /^api\.openai\.com refused the API key$/, first: 'apiKey' },
    { name: 'an endpoint that cannot be reached', check: check({ baseUrl: 'http://127.0.0.1:9/v1', message: 'dial tcp 127.0.0.1:9: connect: connection refused' }), title: /^Can't reach 127\.0\.0\.1:9$/, first: 'settings', technical: true },
    { name: 'a configuration file with an error', check: check({ message: '/w/.agentls.yaml:3: unknown key "modle" — fix the file; agentls sends no request to the model until it loads' }), title: /configuration has an error/, first: 'settings', technical: true },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const s = setupState(c.check)!;
      assert.match(s.title, c.title);
      assert.equal(s.actions[0], c.first);
      assert.ok(s.actions.includes('test'), 'every card can test the connection');
      for (const internal of [/OPENAI_API_KEY/, /agentls\.yaml/, /AGENTLS_MODEL/, /api_key_env/]) {
        assert.doesNotMatch(`${s.title} ${s.detail}`, internal, 'no server internals in the user\'s words');
      }
      assert.equal(!!s.technical, !!c.technical);
    });
  }
  test('a model that answers (or no check yet) shows no card', () => {
    assert.equal(setupState(check({ ok: true })), null);
    assert.equal(setupState(undefined), null);
  });
  test('a scripted provider without a model name is not "no model"', () => {
    assert.doesNotMatch(setupState(check({ provider: 'scripted', model: '', message: 'script: no such file' }))!.title, /No model/);
  });
});

describe('connectionResult and the status bar warning', () => {
  test('success names the model and the host', () => {
    assert.deepEqual(connectionResult(check({ ok: true, model: 'fake-1', baseUrl: 'http://127.0.0.1:4000/v1' })), { ok: true, text: 'Connected: fake-1 at 127.0.0.1:4000 answers.' });
    assert.equal(connectionResult(check({ ok: true, provider: 'scripted', baseUrl: '' })).text, 'Connected: gpt-4.1 at the scripted provider answers.');
  });
  test('success names the context window and where it comes from, when the server says', () => {
    const ok = check({ ok: true, model: 'qwen', baseUrl: 'http://127.0.0.1:8080/v1', contextWindow: 12288, contextWindowSource: 'llama.cpp /props' });
    assert.equal(connectionResult(ok, 'en-US').text, 'Connected: qwen at 127.0.0.1:8080 answers; context window 12,288 tokens (llama.cpp /props).');
    assert.equal(
      connectionResult({ ...ok, contextWindow: 128000, contextWindowSource: 'assumed: a model agentls does not know' }, 'de-DE').text,
      'Connected: qwen at 127.0.0.1:8080 answers; context window 128.000 tokens (assumed: a model agentls does not know).',
      'the number in the locale, as the usage line shows it',
    );
    assert.equal(connectionResult({ ...ok, contextWindowSource: undefined }, 'en-US').text, 'Connected: qwen at 127.0.0.1:8080 answers; context window 12,288 tokens.');
  });
  test('an older server (no context window in the result): no window text', () => {
    const r = connectionResult(check({ ok: true, model: 'qwen', baseUrl: 'http://127.0.0.1:8080/v1' }), 'en-US');
    assert.equal(r.text, 'Connected: qwen at 127.0.0.1:8080 answers.');
    assert.doesNotMatch(r.text, /context window/);
    assert.doesNotMatch(connectionResult(check({ ok: true, contextWindow: 0, contextWindowSource: '' })).text, /context window/);
  });
  test('a failed check never names a window', () => {
    assert.doesNotMatch(connectionResult(check({ message: 'no API key', contextWindow: 8192, contextWindowSource: 'model.context_window' })).text, /context window/);
  });
  test('failure says what is missing', () => {
    const r = connectionResult(check({ message: 'no API key: set OPENAI_API_KEY' }));
    assert.equal(r.ok, false);
    assert.match(r.text, /^No API key is set\. agentls needs an API key for api\.openai\.com/);
  });
  test('the mode indicator warns while no model is ready', () => {
    assert.match(notReadyLine(check({ message: 'no API key' })), /^⚠ No model is ready: No API key is set\./);
    assert.equal(notReadyLine(check({ ok: true })), '');
    assert.equal(notReadyLine(undefined), '');
  });
  test("a prompt's error that needs setting up is said in the user's words; others are left as they are", () => {
    const s = promptErrorSetup('no API key: set OPENAI_API_KEY, or model.api_key_env in .agentls.yaml')!;
    assert.equal(s.title, 'No API key is set');
    assert.doesNotMatch(`${s.title} ${s.detail}`, /OPENAI_API_KEY|agentls\.yaml/);
    assert.match(s.technical!, /OPENAI_API_KEY/, 'the server text stays under Details');
    assert.equal(promptErrorSetup('model request failed: 400 Bad Request: context too long'), null);
  });
  test('hostOf keeps what does not parse', () => {
    assert.equal(hostOf('not a url'), 'not a url');
  });
});

describe('modelPicker', () => {
  const list = { models: [{ id: 'a', provider: 'openai' }, { id: 'b', provider: 'openai' }], current: { plan: 'b', build: 'a' } };
  test('the mode in view selects its model', () => {
    const p = modelPicker(list, 'plan')!;
    assert.deepEqual(p.options.map((o) => [o.id, o.selected]), [['a', false], ['b', true]]);
    assert.match(p.tooltip, /PLAN: b · BUILD: a/);
    assert.equal(modelPicker(list, 'build')!.current, 'a');
  });
  test('a current model the list lacks is offered first; nothing to offer hides the picker', () => {
    assert.deepEqual(modelPicker({ models: [], current: { plan: 'x', build: 'x' } }, 'plan')!.options.map((o) => o.id), ['x']);
    assert.equal(modelPicker({ models: [], current: { plan: '', build: '' } }, 'plan'), null);
    assert.equal(modelPicker(null, 'plan'), null);
  });
});

describe('history', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  test('relative dates', () => {
    const at = (s: number) => new Date(now.getTime() - s * 1000).toISOString();
    assert.deepEqual([10, 300, 7200, 90_000, 3 * 86400, 30 * 86400].map((s) => relativeDate(at(s), now)), ['just now', '5 min ago', '2 h ago', 'yesterday', '3 days ago', '2026-10-27']);
    assert.equal(relativeDate('garbage', now), '');
  });
  test('entries are newest first, titled (an empty title reads "New chat"), with mode and date', () => {
    const e = historyEntries(
      [
        { sessionId: 'old', title: 'Make alpha louder', mode: 'build', updatedAt: '2026-11-26T09:00:00Z' },
        { sessionId: 'new', title: '  ', mode: 'plan', updatedAt: '2026-11-26T11:58:00Z' },
      ],
      'old',
      now,
    );
    assert.deepEqual(e.map((x) => [x.sessionId, x.label, x.description, x.current]), [
      ['new', 'New chat', 'PLAN · 2 min ago', false],
      ['old', 'Make alpha louder', 'BUILD · 3 h ago', true],
    ]);
  });
});

describe('edit, regenerate and retry: which saved message', () => {
  const msgs: WireMessage[] = [
    { id: 'm1', role: 'user', content: 'hi' },
    { id: 'm2', role: 'assistant', content: 'hello' },
    { id: 'm3', role: 'user', content: 'edit it' },
    { id: 'm4', role: 'assistant', tool_calls: [{ id: 'c1', name: 'edit', arguments: '{}', kind: 'edit' }, { id: 'c2', name: 'read', arguments: '{}', kind: 'read' }] },
    { id: 'm5', role: 'tool', tool_call_id: 'c1', status: 'completed' },
    { id: 'm6', role: 'tool', tool_call_id: 'c2', status: 'completed' },
    { id: 'm7', role: 'user', content: 'hi' },
    { id: 'm8', role: 'assistant', content: 'hello again' },
  ];
  test('laterTurnsChangedFiles: an edit from the message on; a failed edit or a read is no change', () => {
    assert.equal(laterTurnsChangedFiles(msgs, 'm1'), true);
    assert.equal(laterTurnsChangedFiles(msgs, 'm3'), true);
    assert.equal(laterTurnsChangedFiles(msgs, 'm7'), false);
    assert.equal(laterTurnsChangedFiles(msgs, 'nope'), false);
    const failed = msgs.map((m) => (m.id === 'm5' ? { ...m, status: 'failed' as const } : m));
    assert.equal(laterTurnsChangedFiles(failed, 'm1'), false);
  });
  test('userMessageIdFromEnd counts from the end (a .chat file keeps the turns a rewind left out)', () => {
    assert.equal(userMessageIdFromEnd(msgs, 'hi', 0), 'm7');
    assert.equal(userMessageIdFromEnd(msgs, 'hi', 1), 'm1');
    assert.equal(userMessageIdFromEnd(msgs, 'hi', 2), undefined);
    const rewound = msgs.map((m) => (m.id === 'm7' || m.id === 'm8' ? { ...m, rewound: true } : m));
    assert.equal(userMessageIdFromEnd(rewound, 'hi', 0), 'm1', 'a rewound message is not in the chat');
  });
  test('sameTextAfter, itemsBefore and regenerateTarget', () => {
    const items = [
      { id: 'u1', kind: 'user', text: 'hi' },
      { id: 'a1', kind: 'assistant', text: 'hello' },
      { id: 'u2', kind: 'user', text: 'hi' },
      { id: 'a2', kind: 'assistant', text: 'hello again' },
    ];
    assert.deepEqual(sameTextAfter(items, 'u1'), { text: 'hi', nthFromEnd: 1 });
    assert.deepEqual(sameTextAfter(items, 'u2'), { text: 'hi', nthFromEnd: 0 });
    assert.equal(sameTextAfter(items, 'a1'), undefined);
    assert.deepEqual(itemsBefore(items, 'u2').map((i) => i.id), ['u1', 'a1']);
    assert.equal(regenerateTarget(items, false), 'u2');
    assert.equal(regenerateTarget(items, true), undefined, 'not while a turn runs');
    assert.equal(regenerateTarget(items.slice(0, 3), false), undefined, 'no answer yet');
  });
  test('failedLastPrompt: only the last prompt, only when it failed', () => {
    assert.equal(failedLastPrompt(msgs), undefined);
    const failed: WireMessage[] = [...msgs, { id: 'm9', role: 'user', content: 'again', error: 'model request failed: 400' }];
    assert.equal(failedLastPrompt(failed)?.id, 'm9');
    assert.equal(failedLastPrompt([...failed, { id: 'm10', role: 'user', content: 'later' }]), undefined);
  });
});

describe('failed prompts in the chat state', () => {
  const session = { sessionId: 's1', title: 'New chat', mode: 'plan' as const, planFile: null, createdAt: '2026-11-26T10:00:00Z', updatedAt: '2026-11-26T10:00:00Z' };
  const kinds = (m: ChatModel) => m.get('s1')!.items.map((i) => (i.kind === 'notice' ? `notice${i.retry ? '+retry' : ''}` : i.kind === 'user' && i.failed ? 'user!' : i.kind));
  test('a reloaded failed prompt is marked, its error shown with Retry; nothing is sent', () => {
    const m = new ChatModel();
    m.loadMessages(session, [{ id: 'm1', role: 'user', content: 'hi', error: 'model request failed: 400 bad' }]);
    assert.deepEqual(kinds(m), ['user!', 'notice+retry']);
    const n = m.get('s1')!.items[1];
    assert.ok(n.kind === 'notice' && n.text === 'The turn stopped: model request failed: 400 bad');
    assert.equal(m.get('s1')!.busy, false);
  });
  test('a live error marks the prompt the same way; Retry clears the mark; a new prompt makes old errors unretryable', () => {
    const m = new ChatModel();
    m.upsertSession(session);
    m.addPrompt('s1', 'hi');
    m.endTurn('s1', { stopReason: 'error', error: { message: 'boom' } });
    assert.deepEqual(kinds(m), ['user!', 'notice+retry']);
    m.retrying('s1');
    assert.deepEqual(kinds(m), ['user']);
    assert.equal(m.get('s1')!.busy, true);
    m.endTurn('s1', { stopReason: 'error', error: { message: 'boom' } });
    m.addPrompt('s1', 'something else');
    assert.deepEqual(kinds(m), ['user!', 'notice', 'user']);
  });
  test('messages a rewind left out are not shown after a reload', () => {
    const m = new ChatModel();
    m.loadMessages(session, [
      { id: 'm1', role: 'user', content: 'Say hi.', rewound: true },
      { id: 'm2', role: 'assistant', content: 'Hi.', rewound: true },
      { id: 'm3', role: 'user', content: 'Say hello.' },
      { id: 'm4', role: 'assistant', content: 'Hello.' },
    ]);
    assert.deepEqual(m.get('s1')!.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind)), ['Say hello.', 'Hello.']);
  });
  test('session_info_update retitles the chat', () => {
    const m = new ChatModel();
    m.upsertSession(session);
    m.applyUpdate('s1', { sessionUpdate: 'session_info_update', title: 'Make alpha louder', updatedAt: '2026-11-26T11:00:00Z' });
    assert.deepEqual(m.snapshot().sessions.map((s) => [s.title, s.updatedAt]), [['Make alpha louder', '2026-11-26T11:00:00Z']]);
  });
});
