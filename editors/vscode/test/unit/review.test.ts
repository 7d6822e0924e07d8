// The review of the agent's edits in VS Code: which change annotations the
// user declined in the Refactor Preview (judged on the files before and
// after), what is saved, the checkpoint documents' URIs, the changes
// panel's words, and Restore's message lookup.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type AnnotatedEdit,
  type Files,
  applyTextEdits,
  changeLabel,
  checkpointParams,
  checkpointUri,
  judgeDeclined,
  keptUris,
  reviewedChanges,
  rewoundMessage,
  userMessageId,
} from '../../src/review';

const at = (line: number, character: number) => ({ line, character });

// Two files, one annotation each, as the server sends a reviewed edit.
const edit: AnnotatedEdit = {
  documentChanges: [
    { textDocument: { uri: 'file:///w/a.go' }, edits: [{ range: { start: at(0, 0), end: at(0, 3) }, newText: 'ONE', annotationId: 'agentls-1-1' }] },
    { kind: 'create', uri: 'file:///w/b.go', annotationId: 'agentls-1-2' },
    { textDocument: { uri: 'file:///w/b.go' }, edits: [{ range: { start: at(0, 0), end: at(0, 0) }, newText: 'new\n', annotationId: 'agentls-1-2' }] },
  ],
  changeAnnotations: {
    'agentls-1-1': { label: 'agentls: edit a.go', needsConfirmation: true },
    'agentls-1-2': { label: 'agentls: write b.go', needsConfirmation: true },
  },
};

function files(texts: Record<string, string>): Files {
  return { text: (u) => texts[u], exists: (u) => u in texts };
}

describe('reviewedChanges', () => {
  test('lists the changes whose annotation needs confirmation', () => {
    const cs = reviewedChanges(edit);
    assert.deepEqual(cs.map((c) => `${c.kind} ${c.annotationId}`), ['text agentls-1-1', 'create agentls-1-2', 'text agentls-1-2']);
  });
  test('an edit without annotations, or none asking confirmation, is not reviewed', () => {
    assert.equal(reviewedChanges({ documentChanges: [{ textDocument: { uri: 'file:///a' }, edits: [] }] }).length, 0);
    const plain = { ...edit, changeAnnotations: { 'agentls-1-1': { label: 'x' }, 'agentls-1-2': { label: 'y' } } };
    assert.equal(reviewedChanges(plain).length, 0);
  });
});

describe('judgeDeclined', () => {
  const before = files({ 'file:///w/a.go': 'one\ntwo\n' });
  const changes = reviewedChanges(edit);
  const cases: { name: string; applied: boolean; after: Record<string, string>; declined: string[]; partly: string[] }[] = [
    { name: 'all kept', applied: true, after: { 'file:///w/a.go': 'ONE\ntwo\n', 'file:///w/b.go': 'new\n' }, declined: [], partly: [] },
    { name: 'the new file unchecked', applied: true, after: { 'file:///w/a.go': 'ONE\ntwo\n' }, declined: ['agentls-1-2'], partly: [] },
    { name: 'the edit unchecked', applied: true, after: { 'file:///w/a.go': 'one\ntwo\n', 'file:///w/b.go': 'new\n' }, declined: ['agentls-1-1'], partly: [] },
    { name: 'the new file created empty (its text unchecked)', applied: true, after: { 'file:///w/a.go': 'ONE\ntwo\n', 'file:///w/b.go': '' }, declined: [], partly: ['agentls-1-2'] },
    { name: 'Discard', applied: false, after: { 'file:///w/a.go': 'one\ntwo\n' }, declined: ['agentls-1-1', 'agentls-1-2'], partly: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const d = judgeDeclined(changes, c.applied, before, files(c.after));
      assert.deepEqual(d, { declined: c.declined, partly: c.partly });
    });
  }
  test('only the kept files are saved', () => {
    const d = judgeDeclined(changes, true, before, files({ 'file:///w/a.go': 'ONE\ntwo\n' }));
    assert.deepEqual(keptUris(changes, d), ['file:///w/a.go']);
  });
});

describe('applyTextEdits', () => {
  test('edits apply from the end, in UTF-16 positions', () => {
    const text = 'héllo 😀 x\nline two\n';
    const out = applyTextEdits(text, [
      { range: { start: at(0, 9), end: at(0, 10) }, newText: 'y' },
      { range: { start: at(1, 0), end: at(1, 4) }, newText: 'LINE' },
      { range: { start: at(5, 0), end: at(5, 0) }, newText: 'end\n' },
    ]);
    assert.equal(out, 'héllo 😀 y\nLINE two\nend\n');
  });
});

describe('checkpoint documents', () => {
  test('a relative and an absolute path round-trip through the query', () => {
    for (const p of ['src/a b.go', '/other/folder/c.go']) {
      const u = checkpointUri('s1', 'm1', p);
      assert.equal(u.scheme, 'agentls-checkpoint');
      assert.deepEqual(checkpointParams(u.query), { sessionId: 's1', messageId: 'm1', path: p });
    }
    assert.equal(checkpointParams('session=s1'), null);
  });
});

describe('changeLabel', () => {
  test('reads like an edit, not JSON', () => {
    assert.equal(changeLabel({ path: 'store.go', status: 'modified', added: 17, removed: 2, restorable: true }), 'Edited store.go +17 −2');
    assert.equal(changeLabel({ path: 'new.go', status: 'added', added: 3, removed: 0, restorable: true }), 'Created new.go +3');
    assert.equal(changeLabel({ path: 'old.go', status: 'deleted', added: 0, removed: 8, restorable: true }), 'Deleted old.go −8');
    assert.equal(changeLabel({ path: 'logo.png', status: 'modified', added: 0, removed: 0, restorable: false }), 'Edited logo.png (binary or large: no undo)');
  });
});

describe('userMessageId', () => {
  const msgs = [
    { id: 'u1', role: 'user', content: 'go' },
    { id: 'a1', role: 'assistant', content: 'ok' },
    { id: 'u2', role: 'user', content: 'again' },
    { id: 'u3', role: 'user', content: 'go' },
  ];
  test('the nth message with the text', () => {
    assert.equal(userMessageId(msgs, 'go', 0), 'u1');
    assert.equal(userMessageId(msgs, 'go', 1), 'u3');
    assert.equal(userMessageId(msgs, 'again', 0), 'u2');
    assert.equal(userMessageId(msgs, 'go', 2), undefined);
    assert.equal(userMessageId(msgs, 'ok', 0), undefined);
  });
});

describe('rewoundMessage', () => {
  const res = { restored: ['a.go', 'b.go'], conflicts: [], skipped: [], undoMessageId: 'rw-1' };
  const cases: { name: string; res: typeof res; want: RegExp | null }[] = [
    { name: 'several files', res, want: /^agentls: 2 files restored\. Undo puts the files back; the conversation stays\.$/ },
    { name: 'one file by name', res: { ...res, restored: ['a.go'] }, want: /^agentls: a\.go restored\./ },
    { name: 'nothing restored (a conversation rewind)', res: { ...res, restored: [] }, want: null },
    { name: 'no undo checkpoint', res: { ...res, undoMessageId: '' }, want: null },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = rewoundMessage(c.res);
      if (c.want === null) assert.equal(got, null);
      else assert.match(got ?? '', c.want);
    });
  }
});
