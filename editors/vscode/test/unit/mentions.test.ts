// @-mentions (src/mentions.ts): chips, several mentions at once, internals
// hidden, @problems capped, and agent/prompt's wire contract kept (one
// context, the rest named in the text).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addMention, chipOf, isInternal, isSlashCommand, type Mention, mentionPrompt, type ProblemFact, problemsMention } from '../../src/mentions';

const file = (path: string): Mention => ({ kind: 'file', uri: `file:///w/${path}`, path });
const sel: Mention = { kind: 'selection', uri: 'file:///w/main.go', path: 'main.go', range: { start: { line: 2, character: 0 }, end: { line: 4, character: 3 } } };

describe('mentions', () => {
  test('a second @ adds a chip, never replaces the first; the same one twice is one chip', () => {
    let list: Mention[] = [];
    list = addMention(list, file('a.go'));
    list = addMention(list, file('b.go'));
    list = addMention(list, file('a.go'));
    assert.deepEqual(list.map((m) => chipOf(m).label), ['b.go', 'a.go']);
    list = addMention(list, sel);
    assert.deepEqual(list.map((m) => chipOf(m).label), ['b.go', 'a.go', 'main.go:3-5']);
  });

  test("the picker hides agentls's internals", () => {
    for (const p of ['.agentls/chats/x.json', '.agentls/checkpoints/a/b', 'sub/.agentls/state', '.git/HEAD', 'node_modules/x/index.js']) assert.ok(isInternal(p), p);
    for (const p of ['main.go', 'plans/a.plan', 'agentls/x.go', 'docs/.agentlsrc']) assert.ok(!isInternal(p), p);
  });

  test('@problems: errors first, capped, counted', () => {
    const probs: ProblemFact[] = Array.from({ length: 60 }, (_, i) => ({ path: `f${i % 3}.go`, line: i + 1, severity: i === 59 ? 'error' : 'warning', message: `w${i}\nmore`, source: 'vet' }));
    const m = problemsMention(probs, 50);
    assert.equal(m.kind, 'problems');
    if (m.kind !== 'problems') return;
    assert.equal(m.count, 50);
    assert.equal(m.total, 60);
    assert.match(m.text.split('\n')[0], /^ {2}- f2\.go:60 error: w59 \(vet\)$/);
    assert.equal(m.text.split('\n').length, 50);
    assert.equal(chipOf(m).label, 'problems (60)');
  });

  test('the wire contract: the selection is the context, the other mentions are named in the text', () => {
    const plan: Mention = { kind: 'plan', uri: 'file:///w/plans/a.plan', path: 'plans/a.plan' };
    const p = mentionPrompt('s1', 'Fix it', [file('a.go'), sel, file('b.go'), plan, problemsMention([{ path: 'a.go', line: 3, severity: 'error', message: 'undefined: x' }])]);
    assert.deepEqual(p.context, { uri: 'file:///w/main.go', range: { start: { line: 2, character: 0 }, end: { line: 4, character: 3 } } });
    assert.equal(p.text, 'Fix it\n\nAttached by the user:\n- @a.go\n- @b.go\n- @plans/a.plan (the plan)\n- @problems: VS Code reports 1 problem:\n  - a.go:3 error: undefined: x');
    assert.deepEqual(Object.keys(p).sort(), ['context', 'sessionId', 'text'], 'no new field on agent/prompt');
  });

  test('without a selection the first file is the context, as one attachment always was', () => {
    assert.deepEqual(mentionPrompt('s1', 'Hi', [file('a.go')]), { sessionId: 's1', text: 'Hi', context: { uri: 'file:///w/a.go' } });
    assert.deepEqual(mentionPrompt('s1', 'Hi', []), { sessionId: 's1', text: 'Hi' });
  });

  test('a slash command is not a prompt the mentions ride on', () => {
    assert.ok(isSlashCommand('/plan'));
    assert.ok(isSlashCommand('  /reject too big'));
    assert.ok(!isSlashCommand('//not a command'));
    assert.ok(!isSlashCommand('fix /etc/hosts'));
  });
});
