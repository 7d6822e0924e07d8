// Tool rows, form marks and mention chips in the chat webview (issue 21), in
// Debian's Chromium with the built page, driven by the extension's own
// ChatModel snapshots (as test/webview/chat.test.ts does).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Question, WireMessage } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { chatPageEachTest, oneSessionModel } from './chatPage';

const out = outputDir('webview-rows');
const chat = chatPageEachTest();
const { show, posted, noCspViolations } = chat;
const model = () => oneSessionModel({ title: 'Rows' });
const ok = (result: unknown) => JSON.stringify({ success: true, result });
const refusal = { tool_name: 'edit', tool_kind: 'file_edit', hint: 'Only .plan documents may change in PLAN mode.', entered_at: '', entered_reason: '' };
const branchQ: Question = { name: 'branch', question: 'Branch name?', schema: { type: 'string', pattern: '^[a-z0-9-]+$', description: 'lowercase letters, digits and dashes' } };

// The session of the e2e story, as agent/loadSession returns it.
const loaded: WireMessage[] = [
  { role: 'user', content: 'Look at main.go' },
  {
    role: 'assistant',
    tool_calls: [
      { id: 'r', name: 'read', arguments: '{"path":"main.go"}', title: 'read main.go', kind: 'read' },
      { id: 'e', name: 'edit', arguments: JSON.stringify({ path: 'main.go', old_string: 'a', new_string: 'b' }), title: 'edit main.go', kind: 'edit' },
      { id: 'q', name: 'ask_user', arguments: JSON.stringify({ questions: [branchQ] }), title: 'ask: Branch name?', kind: 'other' },
      { id: 'b', name: 'edit', arguments: JSON.stringify({ path: 'store.go', old_string: 'x\ny\n', new_string: 'x\nY\nz\n' }), title: 'edit store.go', kind: 'edit' },
      { id: 'x', name: 'run', arguments: '{"command":"go test ./..."}', title: 'run go test ./...', kind: 'execute' },
      { id: 'f', name: 'run', arguments: '{"command":"false"}', title: 'run false', kind: 'execute' },
    ],
  },
  { role: 'tool', tool_call_id: 'r', content: ok({ content: 'package main' }), status: 'completed' },
  { role: 'tool', tool_call_id: 'e', content: '{"success":false,"error":"refused"}', status: 'failed', refusal },
  { role: 'tool', tool_call_id: 'q', content: ok({ status: 'answered', answers: { branch: 'fix-main' } }), status: 'completed', questions: [branchQ], answers: { branch: 'fix-main' } },
  { role: 'tool', tool_call_id: 'b', content: ok({ path: 'store.go', replacements: 1 }), status: 'completed' },
  { role: 'tool', tool_call_id: 'x', content: ok({ exit_code: 0, output: 'ok' }), status: 'completed' },
  { role: 'tool', tool_call_id: 'f', content: ok({ exit_code: 1, output: '' }), status: 'completed' },
];

async function rowTexts(): Promise<string[]> {
  return chat.page.locator('main.messages details.tool > summary .tool-title').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
}

const want = ['Read main.go', 'Edit main.go', 'Asked: Branch name?', 'Edited store.go +2 \u22121', 'Ran go test ./... ✓ (exit 0)', 'Ran false ✗ (exit 1)'];

describe('tool rows', () => {
  test('a loaded session reads as summaries: links, counts, exits, the refusal and the answers as text; JSON only behind Details', async () => {
    const m = new ChatModel();
    m.loadMessages({ sessionId: 's1', title: 'Look at main.go', mode: 'build', planFile: null, createdAt: 'x', updatedAt: 'x' }, loaded);
    m.setCurrent('s1');
    await show(m);
    await chat.page.locator('details.tool[data-tool-id="f"]').waitFor();
    assert.deepEqual(await rowTexts(), want);
    const refused = chat.page.locator('details.tool.refused[data-tool-id="e"]');
    assert.match(await refused.locator('summary').innerText(), /refused in PLAN mode/);
    assert.match(await chat.page.locator('.tool-row[data-tool-id="e"] .refusal-hint').innerText(), /Refused: Only \.plan documents may change in PLAN mode\./);
    // The answers as text, in view without opening anything; no JSON anywhere in view.
    const answers = chat.page.locator('.tool-row[data-tool-id="q"] .tool-answers');
    assert.equal(await answers.isVisible(), true);
    assert.equal((await answers.innerText()).replace(/\s+/g, ' ').trim(), 'Branch name? fix-main');
    assert.doesNotMatch(await chat.page.locator('main.messages').innerText(), /[{}"]/, 'no raw JSON in view');
    // Open the row: the raw JSON is behind Details still.
    const edit = chat.page.locator('details.tool[data-tool-id="b"]');
    await edit.locator(':scope > summary').click();
    const details = edit.locator('.tool-details');
    assert.equal(await details.locator('pre.tool-io').first().isVisible(), false);
    await details.locator('button.details-toggle', { hasText: 'Details' }).click();
    assert.equal(await details.locator('button.details-toggle').getAttribute('aria-expanded'), 'true');
    assert.match(await details.locator('pre.tool-io').first().innerText(), /"old_string": "x\\ny\\n"/);
    // The file is a link: an edit's opens its diff when the review has one.
    await edit.locator('a.tool-file').click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'openFile'), [{ type: 'openFile', path: 'store.go', diff: true }]);
    await chat.page.locator('details.tool[data-tool-id="r"] a.tool-file').click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'openFile').pop(), { type: 'openFile', path: 'main.go', diff: false });
    await chat.page.screenshot({ path: path.join(out, 'rows-loaded.png'), fullPage: true });
    await noCspViolations();
  });

  test('live rows read the same as the loaded ones', async () => {
    const m = model();
    const live: [string, string, string, unknown, unknown, boolean?][] = [
      ['r', 'read main.go', 'read', { path: 'main.go' }, { success: true, result: { content: 'package main' } }],
      ['e', 'edit main.go', 'edit', { path: 'main.go', old_string: 'a', new_string: 'b' }, { success: false, error: 'refused' }, true],
      ['q', 'ask: Branch name?', 'other', { questions: [branchQ] }, { success: true, result: { status: 'answered', answers: { branch: 'fix-main' } } }],
      ['b', 'edit store.go', 'edit', { path: 'store.go', old_string: 'x\ny\n', new_string: 'x\nY\nz\n' }, { success: true, result: { path: 'store.go', replacements: 1 } }],
      ['x', 'run go test ./...', 'execute', { command: 'go test ./...' }, { success: true, result: { exit_code: 0, output: 'ok' } }],
      ['f', 'run false', 'execute', { command: 'false' }, { success: true, result: { exit_code: 1, output: '' } }],
    ];
    for (const [id, title, kind, input, output, refused] of live) {
      m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: id, title, kind, status: 'in_progress', rawInput: input });
      m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: id, status: refused ? 'failed' : 'completed', rawOutput: output, ...(refused ? { refusal } : {}) });
    }
    await show(m);
    await chat.page.locator('details.tool[data-tool-id="f"]').waitFor();
    assert.deepEqual(await rowTexts(), want);
    assert.equal((await chat.page.locator('.tool-row[data-tool-id="q"] .tool-answers').innerText()).replace(/\s+/g, ' ').trim(), 'Branch name? fix-main');
    await chat.page.screenshot({ path: path.join(out, 'rows-live.png'), fullPage: true });
  });

  test('a long question with a short answer in a narrow side bar: the answer keeps its words whole', async () => {
    // Seen in the e2e screenshots: exit_plan_mode's question took the whole width and its answer,
    // "Accept & Build", stood one letter a line in what was left.
    await chat.page.setViewportSize({ width: 300, height: 600 });
    const approve: Question = { name: 'decision', question: 'Review the plan plans/notes.plan. Accept it and start building?', schema: { type: 'string', enum: ['Accept & Build', 'Reject'] } };
    const m = new ChatModel();
    m.loadMessages({ sessionId: 's1', title: 'Notes', mode: 'build', planFile: 'plans/notes.plan', createdAt: 'x', updatedAt: 'x' }, [
      { role: 'user', content: 'Use BAD for third.' },
      { role: 'assistant', tool_calls: [{ id: 'a', name: 'exit_plan_mode', arguments: '{"plan_file_path":"plans/notes.plan"}', title: 'exit_plan_mode plans/notes.plan', kind: 'other' }] },
      { role: 'tool', tool_call_id: 'a', content: ok({ approved: true }), status: 'completed', questions: [approve], answers: { decision: 'Accept & Build' } },
    ]);
    m.setCurrent('s1');
    await show(m);
    const answer = chat.page.locator('.tool-row[data-tool-id="a"] .tool-answers dd');
    await answer.waitFor({ state: 'attached' });
    await chat.page.screenshot({ path: path.join(out, 'rows-long-question.png') });
    // Each word of the answer fits on its line: the answer is at least as wide as its longest word.
    const { width, longestWord } = await answer.evaluate((dd) => {
      const probe = document.createElement('span');
      probe.style.whiteSpace = 'nowrap';
      dd.append(probe);
      let longest = 0;
      for (const w of (dd.firstChild?.textContent ?? '').split(/\s+/)) {
        probe.textContent = w;
        longest = Math.max(longest, probe.getBoundingClientRect().width);
      }
      probe.remove();
      return { width: dd.getBoundingClientRect().width, longestWord: longest };
    });
    assert.ok(width >= longestWord, `the answer is ${width} px wide, its longest word ${longestWord} px`);
    assert.equal((await answer.innerText()).trim(), 'Accept & Build');
  });

  test('a task row keeps its sub-agent rows collapsed inside, summarised too', async () => {
    const m = model();
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task explore', kind: 'other', status: 'in_progress', rawInput: { kind: 'explore', prompt: 'find main' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'c/r', title: 'read main.go', kind: 'read', status: 'in_progress', rawInput: { path: 'main.go' }, parentToolCallId: 't1', childSessionId: 'c' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'c/r', status: 'completed', rawOutput: { success: true }, parentToolCallId: 't1', childSessionId: 'c' });
    await show(m);
    const task = chat.page.locator('main.messages > details.tool.task[data-tool-id="t1"]');
    await task.waitFor();
    const child = task.locator('.subagent-steps > details.tool[data-tool-id="c/r"]');
    assert.equal(await child.isVisible(), false, 'collapsed');
    await task.locator(':scope > summary').click();
    assert.equal((await child.locator(':scope > summary .tool-title').innerText()).trim(), 'Read main.go');
  });
});

describe('form marks and messages', () => {
  test('required fields carry *, optional ones (optional); a pattern error leads with the description', async () => {
    const m = model();
    m.ask({
      sessionId: 's1', questionId: 'q1', createdAt: 'x', purpose: 'question',
      questions: [
        branchQ,
        { name: 'note', question: 'Anything else?', schema: { type: 'string' }, optional: true },
        { name: 'ver', question: 'Version?', schema: { type: 'string', pattern: '^v[0-9]+$', examples: ['v2'] }, optional: true },
        { name: 'cfg', question: 'Config', schema: { type: 'object', properties: { path: { type: 'string' }, tag: { type: 'string' } }, required: ['path'] } },
      ],
    });
    await show(m);
    const bar = chat.page.locator('form.question-bar');
    const label = (f: string) => bar.locator(`[data-field="${f}"] > .field-label`).innerText();
    assert.match(await label('branch'), /^Branch name\? \*$/);
    assert.match(await label('note'), /^Anything else\? \(optional\)$/);
    assert.match(await label('cfg.path'), /^path \*$/);
    assert.match(await label('cfg.tag'), /^tag \(optional\)$/);
    // Hints: never the regex alone.
    assert.equal(await bar.locator('[data-field="branch"] .field-hint').innerText(), 'lowercase letters, digits and dashes · format ^[a-z0-9-]+$');
    assert.equal(await bar.locator('[data-field="ver"] .field-hint').innerText(), 'e.g. v2 · format ^v[0-9]+$');
    await bar.locator('[data-field="branch"] input').fill('Bad Name');
    await bar.locator('[data-field="ver"] input').fill('2.0');
    await bar.locator('[data-field="cfg.path"] input').fill('/x');
    await bar.locator('[data-field="cfg.path"] input').press('Enter');
    assert.equal(await bar.locator('[data-field="branch"] .field-error').innerText(), 'lowercase letters, digits and dashes (format: ^[a-z0-9-]+$)');
    assert.equal(await bar.locator('[data-field="ver"] .field-error').innerText(), 'expected something like v2 (format: ^v[0-9]+$)');
    assert.doesNotMatch(await bar.innerText(), /does not match the pattern/);
    await chat.page.screenshot({ path: path.join(out, 'form-marks.png'), fullPage: true });
  });
});

describe('mention chips', () => {
  test('several chips, each removable on its own', async () => {
    const m = model();
    await show(m, [
      { kind: 'file', label: 'main.go', title: 'main.go' },
      { kind: 'file', label: 'util.go', title: 'util.go' },
      { kind: 'selection', label: 'main.go:3-5', title: 'Selection in main.go, lines 3-5' },
      { kind: 'problems', label: 'problems (2)', title: 'The workspace\'s 2 problems' },
    ]);
    const chips = chat.page.locator('.mention-chips .mention-chip');
    assert.deepEqual(await chips.allInnerTexts(), ['main.go', 'util.go', 'main.go:3-5', 'problems (2)']);
    await chips.nth(1).locator('button[aria-label="Remove util.go"]').click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'clearContext'), [{ type: 'clearContext', index: 1 }]);
    await chat.page.screenshot({ path: path.join(out, 'chips.png') });
    await show(m, []);
    assert.equal(await chat.page.locator('.mention-chips').isVisible(), false);
  });
});
