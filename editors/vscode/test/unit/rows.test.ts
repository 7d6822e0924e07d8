// Tool rows' readable summaries (src/toolSummary.ts) and a loaded session's
// rows built from the persisted outcomes (issue 21): the same text live and
// after a reload.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WireMessage } from '../../src/protocol';
import { ChatModel, type ToolItem } from '../../src/state';
import { answerLines, diffCounts, summarize, summaryText, type ToolFacts } from '../../src/toolSummary';

const base = { toolKind: 'other', status: 'completed', refused: false } as const;
const ok = (result: unknown) => JSON.stringify({ success: true, result });

describe('summaries', () => {
  const rows: [string, ToolFacts, string][] = [
    ['read', { ...base, title: 'read main.go', toolKind: 'read', input: '{"path":"main.go"}' }, 'Read main.go'],
    ['an edit counts changed lines', { ...base, title: 'edit store.go', toolKind: 'edit', input: JSON.stringify({ path: 'store.go', old_string: 'a\nb\nc\n', new_string: 'a\nB\nc\nd\n' }), output: ok({ replacements: 1 }) }, 'Edited store.go +2 \u22121'],
    ['replace_all multiplies', { ...base, title: 'edit x.go', input: JSON.stringify({ path: 'x.go', old_string: 'x', new_string: 'y', replace_all: true }), output: ok({ replacements: 3 }) }, 'Edited x.go +3 \u22123'],
    ['an insertion', { ...base, title: 'edit x.go', input: JSON.stringify({ path: 'x.go', insert_line: 2, insert_content: 'one\ntwo\n' }) }, 'Edited x.go +2'],
    ['a refused edit shows no counts', { ...base, title: 'edit main.go', status: 'failed', refused: true, input: JSON.stringify({ path: 'main.go', old_string: 'a', new_string: 'b' }) }, 'Edit main.go'],
    ['a run that passed', { ...base, title: 'run go test ./...', toolKind: 'execute', input: '{"command":"go test ./..."}', output: ok({ exit_code: 0, output: 'ok' }) }, 'Ran `go test ./...` ✓ (exit 0)'],
    ['a run that failed', { ...base, title: 'run false', input: '{"command":"false"}', output: ok({ exit_code: 1, output: '' }) }, 'Ran `false` ✗ (exit 1)'],
    ['a run that timed out', { ...base, title: 'run sleep 99', input: '{"command":"sleep 99"}', output: ok({ exit_code: -1, timed_out: true }) }, 'Ran `sleep 99` ✗ (timed out)'],
    ['a run still going', { ...base, title: 'run make', status: 'in_progress', input: '{"command":"make"}' }, 'Running `make`'],
    ['a question', { ...base, title: 'ask: Branch name?', input: JSON.stringify({ questions: [{ name: 'branch', question: 'Branch **name**?', schema: { type: 'string' } }] }), output: ok({ status: 'answered', answers: { branch: 'fix-main' } }) }, 'Asked: Branch name?'],
    ['several questions', { ...base, title: 'ask the user 3 questions', input: JSON.stringify({ questions: [{ name: 'a', question: 'First?' }, { name: 'b', question: 'B?' }, { name: 'c', question: 'C?' }] }) }, 'Asked: First? (+2 more)'],
    ['a plan approval', { ...base, name: 'exit_plan_mode', title: 'ask to approve plans/a.plan', input: '{"plan_file_path":"plans/a.plan"}' }, 'Asked to approve plans/a.plan'],
    ['a plan written', { ...base, title: 'write plan plans/a.plan', input: JSON.stringify({ path: 'plans/a.plan', title: 'A', content: '# A\n\nx\n' }) }, 'Wrote plans/a.plan +3'],
    ['a new file written', { ...base, title: 'write notes.md', input: JSON.stringify({ path: 'notes.md', content: 'a\nb\n' }), output: ok({ path: 'notes.md', created: true }) }, 'Created notes.md +2'],
    ['a file overwritten', { ...base, title: 'write notes.md', input: JSON.stringify({ path: 'notes.md', content: 'a\n' }), output: ok({ path: 'notes.md', created: false }) }, 'Wrote notes.md +1'],
    ['grep', { ...base, title: 'grep alpha', input: '{"pattern":"alpha"}' }, 'Searched for `alpha`'],
    // The server's titles put a path, a pattern or a command in a code span, a run's command first (agent/tools).
    ['a run titled by its command, without the tool name', { ...base, title: '`echo build:prod`', toolKind: 'execute', input: '{"command":"echo build:prod"}', output: ok({ exit_code: 0, output: 'build:prod' }) }, 'Ran `echo build:prod` ✓ (exit 0)'],
    ['a run titled by its command, without its arguments', { ...base, title: '`make`', toolKind: 'execute', status: 'in_progress' }, 'Running `make`'],
    ['a run holding a backtick, titled by a longer span', { ...base, title: '`` echo `date` ``', toolKind: 'execute', status: 'in_progress' }, 'Running `echo `date``'],
    ['ls of a spanned path, without its arguments', { ...base, title: 'ls `src`' }, 'Listed src'],
    ['another tool shows its title, its code spans as text', { ...base, title: 'mv `a.go` → `b.go`', toolKind: 'move', input: '{"from":"a.go","to":"b.go"}' }, 'Mv a.go → b.go'],
    ['another tool keeps its title', { ...base, title: 'mv a.go → b.go' }, 'Mv a.go → b.go'],
  ];
  for (const [name, facts, want] of rows) test(name, () => assert.equal(summaryText(summarize(facts)), want));

  test('the diff counts are a line diff, not lengths', () => {
    assert.deepEqual(diffCounts('a\nb\nc', 'a\nb\nc'), { added: 0, removed: 0 });
    assert.deepEqual(diffCounts('', 'x\ny'), { added: 2, removed: 0 });
    assert.deepEqual(diffCounts('1\n2\n3\n4', '1\n3\n4\n5'), { added: 1, removed: 1 });
  });

  test('answers read as text: button labels, Yes/No, lists, objects', () => {
    const lines = answerLines(
      [
        { name: 'go', question: 'Go on?', schema: { type: 'string' }, buttons: [{ label: 'Run', value: 'allow_once' }, { label: 'Reject', value: 'reject' }] },
        { name: 'ok', question: '**Sure**?', schema: { type: 'boolean' } },
        { name: 'parts', question: 'Which?', schema: { type: 'array' } },
        { name: 'cfg', question: 'Config', schema: { type: 'object' } },
      ],
      { go: 'allow_once', ok: false, parts: ['a', 'b'], cfg: { path: '/x', n: 2 }, extra: 'kept' },
    );
    assert.deepEqual(lines, [
      { question: 'Go on?', answer: 'Run' },
      { question: 'Sure?', answer: 'No' },
      { question: 'Which?', answer: 'a, b' },
      { question: 'Config', answer: 'path: /x; n: 2' },
      { question: 'extra', answer: 'kept' },
    ]);
  });
});

describe('a loaded session uses the persisted outcomes', () => {
  const session = { sessionId: 's1', mode: 'plan' as const, planFile: null, title: 'Look at main.go', createdAt: '', updatedAt: '' };
  const messages: WireMessage[] = [
    { role: 'user', content: 'Look at main.go' },
    {
      role: 'assistant',
      tool_calls: [
        { id: 'r', name: 'read', arguments: '{"path":"main.go"}', title: 'read main.go', kind: 'read' },
        { id: 'e', name: 'edit', arguments: '{"path":"main.go","old_string":"a","new_string":"b"}', title: 'edit main.go', kind: 'edit' },
        { id: 'q', name: 'ask_user', arguments: '{"questions":[{"name":"branch","question":"Branch name?","schema":{"type":"string"}}]}', title: 'ask: Branch name?', kind: 'other' },
      ],
    },
    { role: 'tool', tool_call_id: 'r', content: ok({ content: 'package main' }), status: 'completed' },
    // A refusal whose text does not say "Plan Mode": only the persisted status knows.
    { role: 'tool', tool_call_id: 'e', content: '{"success":false,"error":"not now"}', status: 'failed', refusal: { tool_name: 'edit', tool_kind: 'file_edit', hint: 'Only .plan documents may change in PLAN mode.', entered_at: '', entered_reason: '' } },
    { role: 'tool', tool_call_id: 'q', content: ok({ status: 'answered', answers: { branch: 'fix-main' } }), status: 'completed', questions: [{ name: 'branch', question: 'Branch name?', schema: { type: 'string' } }], answers: { branch: 'fix-main' } },
  ];

  test('titles, kinds, refusals, questions and answers', () => {
    const m = new ChatModel();
    const st = m.loadMessages(session as never, messages);
    const tools = st.items.filter((i): i is ToolItem => i.kind === 'tool');
    assert.deepEqual(tools.map((t) => [t.title, t.toolKind, t.status, t.refused]), [
      ['read main.go', 'read', 'completed', false],
      ['edit main.go', 'edit', 'failed', true],
      ['ask: Branch name?', 'other', 'completed', false],
    ]);
    assert.equal(tools[1].refusalHint, 'Only .plan documents may change in PLAN mode.');
    assert.deepEqual(tools[2].answers, { branch: 'fix-main' });
    assert.deepEqual(tools.map((t) => summaryText(summarize({ ...t, output: t.result }))), ['Read main.go', 'Edit main.go', 'Asked: Branch name?']);
    assert.deepEqual(summarize({ ...tools[2], output: tools[2].result }).answers, [{ question: 'Branch name?', answer: 'fix-main' }]);
  });

  test('a live row and its reloaded row read the same', () => {
    const m = new ChatModel();
    m.upsertSession(session as never);
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'e', title: 'edit main.go', kind: 'edit', status: 'in_progress', rawInput: { path: 'main.go', old_string: 'a\nb', new_string: 'a\nB\nC' } });
    // The content is a text (new problems); the summary reads the raw result.
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'e', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'New problems:\n…' } }], rawOutput: { success: true, result: { replacements: 1 } } });
    const live = m.get('s1')!.items[0] as ToolItem;
    const loaded = new ChatModel().loadMessages(session as never, [
      { role: 'assistant', tool_calls: [{ id: 'e', name: 'edit', arguments: JSON.stringify({ path: 'main.go', old_string: 'a\nb', new_string: 'a\nB\nC' }), title: 'edit main.go', kind: 'edit' }] },
      { role: 'tool', tool_call_id: 'e', content: ok({ replacements: 1 }), status: 'completed' },
    ]).items[0] as ToolItem;
    const text = (t: ToolItem) => summaryText(summarize({ ...t, output: t.result ?? t.output }));
    assert.equal(text(live), 'Edited main.go +2 \u22121');
    assert.equal(text(loaded), text(live));
  });

  test("a live question's answers land on the row that asked, as a reload shows them (a run's permission too)", () => {
    const m = new ChatModel();
    m.upsertSession(session as never);
    const permission = [{ name: 'decision', question: 'Run `make` in the project?', schema: { type: 'string' }, buttons: [{ label: 'Run', value: 'allow_once' }, { label: 'Reject', value: 'reject' }] }];
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'run make', kind: 'execute', status: 'in_progress', rawInput: { command: 'make' } });
    m.ask({ sessionId: 's1', questionId: 'p1', createdAt: '', purpose: 'permission', questions: permission });
    m.noteAnswer('s1', 'p1', { decision: 'allow_once' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'completed', rawOutput: { success: true, result: { exit_code: 0 } } });
    const live = m.get('s1')!.items[0] as ToolItem;
    const loaded = new ChatModel().loadMessages(session as never, [
      { role: 'assistant', tool_calls: [{ id: 'x', name: 'run', arguments: '{"command":"make"}', title: 'run make', kind: 'execute' }] },
      { role: 'tool', tool_call_id: 'x', content: ok({ exit_code: 0 }), status: 'completed', questions: permission, answers: { decision: 'allow_once' } },
    ]).items[0] as ToolItem;
    const view = (t: ToolItem) => summarize({ ...t, output: t.result ?? t.output });
    assert.deepEqual(view(live).answers, [{ question: 'Run make in the project?', answer: 'Run' }]);
    assert.deepEqual(view(live), view(loaded));
    // Dismissed: said so; a question for no running row changes nothing.
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'y', title: 'ask: Why?', kind: 'other', status: 'in_progress' });
    m.ask({ sessionId: 's1', questionId: 'p2', createdAt: '', purpose: 'question', questions: [{ name: 'why', question: 'Why?', schema: { type: 'string' } }] });
    m.noteAnswer('s1', 'other', { why: 'x' });
    assert.equal((m.get('s1')!.items[1] as ToolItem).answers, undefined);
    m.noteAnswer('s1', 'p2', null);
    assert.equal(view(m.get('s1')!.items[1] as ToolItem).dismissed, true);
  });
});
