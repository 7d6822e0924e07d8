// The chat webview in Debian's Chromium: the built page (same HTML and strict
// CSP as in VS Code) served on 127.0.0.1 with a fake acquireVsCodeApi that
// records what the page posts. The page is driven with the extension's own
// state snapshots (ChatModel), as the extension host sends them.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { FromWebview } from '../../src/messages';
import type { AskUserParams, PermissionRequest, Question } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { chatPageEachTest, oneSessionModel, planApprovalQuestions, planPermission } from './chatPage';

const out = outputDir('webview');
const chat = chatPageEachTest();
const { send, show, posted, noCspViolations } = chat;
const model = () => oneSessionModel({ title: 'Louder' });

// Every schema kind of the seed's §6.3, plus a select (above 5 options) and the JSON fallback.
const batch: Question[] = [
  { name: 'confirm', question: 'Should I proceed?', schema: { type: 'boolean' }, buttons: [{ label: 'Yes', value: true, variant: 'primary' }, { label: 'No', value: false, variant: 'danger' }] },
  { name: 'environment', question: 'Which environment?', schema: { type: 'string', enum: ['dev', 'staging', 'prod'], default: 'staging' } },
  { name: 'region', question: 'Which region?', schema: { type: 'string', enum: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'] } },
  { name: 'branch_name', question: 'Branch name?', schema: { type: 'string', pattern: '^[a-z0-9-]+$', minLength: 3, maxLength: 50 } },
  { name: 'components', question: 'Which components?', schema: { type: 'array', items: { type: 'string', enum: ['frontend', 'backend', 'database', 'docs'] }, minItems: 1 } },
  {
    name: 'endpoint_config', question: 'Configure the endpoint:',
    schema: { type: 'object', properties: { path: { type: 'string', pattern: '^/[a-z0-9/-]+$' }, method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'DELETE'] }, auth_required: { type: 'boolean', default: true } }, required: ['path', 'method'] },
  },
  { name: 'retries', question: 'How many retries?', schema: { type: 'integer', minimum: 0 } },
  { name: 'dry_run', question: 'Dry run?', schema: { type: 'boolean' } },
];

function ask(m: ChatModel, questions: Question[], extra: Partial<AskUserParams> = {}): void {
  m.ask({ sessionId: 's1', questionId: 'q1', createdAt: 'x', purpose: 'question', questions, ...extra });
}

describe('question bar', () => {
  test('a question batch renders every kind', async () => {
    const m = model();
    ask(m, batch);
    await show(m);
    const bar = chat.page.locator('form.question-bar');
    await bar.waitFor();
    assert.deepEqual(await bar.locator('[data-field="confirm"] button').allInnerTexts(), ['Yes', 'No']);
    assert.equal(await bar.locator('[data-field="confirm"] button.btn-danger').count(), 1);
    assert.equal(await bar.locator('[data-field="environment"] input[type="radio"]').count(), 3);
    assert.equal(await bar.locator('[data-field="environment"] input[type="radio"]:checked').count(), 1, 'the default is preselected');
    assert.equal(await bar.locator('[data-field="region"] select option').count(), 7);
    assert.match(await bar.locator('[data-field="branch_name"] .field-hint').innerText(), /3–50 characters · only lowercase letters, digits and “-” · format \^\[a-z0-9-\]\+\$/);
    assert.equal(await bar.locator('[data-field="components"] input[type="checkbox"]').count(), 4);
    assert.equal(await bar.locator('[data-field="endpoint_config"] fieldset .required').count(), 2, 'required marks on path and method');
    assert.equal(await bar.locator('[data-field="endpoint_config.auth_required"] input[role="switch"]:checked').count(), 1);
    assert.equal(await bar.locator('[data-field="retries"] textarea.json').count(), 1);
    assert.equal(await bar.locator('[data-field="dry_run"] input[role="switch"]').count(), 1);
    await chat.page.screenshot({ path: path.join(out, 'question-batch.png'), fullPage: true });
    await noCspViolations();
  });

  test('invalid input is blocked; a valid submit posts the answers object', async () => {
    const m = model();
    ask(m, batch);
    await show(m);
    const bar = chat.page.locator('form.question-bar');
    await bar.locator('[data-field="region"] select').selectOption({ label: 'a4' });
    await bar.locator('[data-field="branch_name"] input').fill('Not Valid');
    await bar.locator('[data-field="endpoint_config.path"] input').fill('/api/users');
    await bar.locator('[data-field="endpoint_config.method"] label', { hasText: 'POST' }).click();
    await bar.locator('[data-field="retries"] textarea').fill('{oops');
    await bar.locator('[data-field="confirm"] button', { hasText: 'Yes' }).click();
    // Blocked: errors next to the fields, nothing posted.
    assert.match(await bar.locator('[data-field="branch_name"] .field-error').innerText(), /^use only lowercase letters, digits and “-” \(format: \^\[a-z0-9-\]\+\$\)$/);
    assert.match(await bar.locator('[data-field="components"] .field-error').innerText(), /at least 1/);
    assert.match(await bar.locator('[data-field="retries"] .field-error').innerText(), /not valid JSON/);
    assert.equal((await posted()).filter((p) => p.type === 'answer').length, 0);
    await chat.page.screenshot({ path: path.join(out, 'question-invalid.png'), fullPage: true });

    await bar.locator('[data-field="branch_name"] input').fill('feature-x');
    await bar.locator('[data-field="components"] label', { hasText: 'backend' }).click();
    await bar.locator('[data-field="components"] label', { hasText: 'docs' }).click();
    await bar.locator('[data-field="retries"] textarea').fill('3');
    await bar.locator('[data-field="confirm"] button', { hasText: 'Yes' }).click();
    const answers = (await posted()).filter((p) => p.type === 'answer');
    assert.deepEqual(answers, [{
      type: 'answer', questionId: 'q1',
      answers: {
        confirm: true, environment: 'staging', region: 'a4', branch_name: 'feature-x', components: ['backend', 'docs'],
        endpoint_config: { path: '/api/users', method: 'POST', auth_required: true }, retries: 3, dry_run: false,
      },
    }]);
  });

  test("the server's errors show next to their field; Escape dismisses", async () => {
    const m = model();
    ask(m, [batch[3]], { errors: { branch_name: 'taken: pick another name' } });
    await show(m);
    const bar = chat.page.locator('form.question-bar');
    assert.equal(await bar.locator('[data-field="branch_name"] .field-error').innerText(), 'taken: pick another name');
    // Keyboard only: focus starts in the field, Enter submits, Escape dismisses.
    await chat.page.keyboard.type('ok-name');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual((await posted()).filter((p) => p.type === 'answer').map((p) => p.type === 'answer' && p.answers), [{ branch_name: 'ok-name' }]);
    await chat.page.keyboard.press('Escape');
    assert.deepEqual((await posted()).filter((p) => p.type === 'dismiss'), [{ type: 'dismiss', questionId: 'q1' }]);
  });

  test('critical severity styles the bar', async () => {
    const m = model();
    ask(m, [{ ...batch[0], severity: 'critical' }]);
    await show(m);
    await chat.page.locator('form.question-bar.severity-critical').waitFor();
  });
});

describe('plan approval', () => {
  const approvalQuestions = planApprovalQuestions('plans/x.plan');
  function withPlan(): ChatModel {
    const m = model();
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: [
      { content: 'Add the handler', priority: 'medium', status: 'pending' },
      { content: 'Write the test', priority: 'medium', status: 'pending' },
    ] });
    ask(m, approvalQuestions, { purpose: 'plan_approval', questionId: 'qa' });
    return m;
  }

  test('approval shows the steps; Accept & Build posts approve', async () => {
    await show(withPlan());
    const bar = chat.page.locator('form.question-bar.approval');
    assert.deepEqual(await bar.locator('.approval-steps li').allInnerTexts(), ['Add the handler', 'Write the test']);
    // The feedback question says "(optional)" itself: the form adds no second mark.
    assert.match(await bar.innerText(), /What should change in the plan\? \(optional\)/);
    assert.equal(await bar.locator('.optional-mark').count(), 0, 'a second "(optional)"');
    await chat.page.screenshot({ path: path.join(out, 'approval.png'), fullPage: true });
    await bar.locator('.plan-link').click();
    await bar.locator('button', { hasText: 'Accept & Build' }).click();
    const p = await posted();
    assert.deepEqual(p.filter((x) => x.type === 'openPlan'), [{ type: 'openPlan', planFile: 'plans/x.plan' }]);
    assert.deepEqual(p.filter((x) => x.type === 'answer'), [{ type: 'answer', questionId: 'qa', answers: { approve: true } }]);
  });

  test('an approval that grants commands lists every one of them, whole', async () => {
    const m = model();
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: [{ content: 'Add the handler', priority: 'medium', status: 'pending' }] });
    const long = `${'a'.repeat(120)} sh *`;
    ask(m, approvalQuestions, { purpose: 'plan_approval', questionId: 'qa', permission: planPermission('plans/x.plan', ['go test ./...', long]) });
    await show(m);
    const bar = chat.page.locator('form.question-bar.approval');
    await bar.locator('.permission-grants').waitFor();
    assert.match(await bar.locator('.permission-grants-head').innerText(), /Approving also allows these commands for this session:/);
    assert.deepEqual(await bar.locator('.permission-grants li').allInnerTexts(), ['go test ./...', long]);
    assert.ok(await bar.locator('.permission-grants li').nth(1).isVisible());
    await chat.page.screenshot({ path: path.join(out, 'approval-grants.png'), fullPage: true });
  });

  test('a run permission shows the command, its folder, the network and the sandbox', async () => {
    const m = model();
    const question: Question = { name: 'decision', question: 'Run `make`?', schema: { type: 'string', enum: ['reject_once', 'allow_once'] },
      buttons: [{ label: 'Reject', value: 'reject_once', variant: 'danger' }, { label: 'Run', value: 'allow_once', variant: 'primary' }] };
    ask(m, [question], { purpose: 'permission', questionId: 'qp', permission: {
      kind: 'run', what: 'make \\u202E', cwd: '/work/proj/sub', reach: 'process', grants: [], network: 'not isolated', sandbox: 'off',
      options: [{ id: 'reject_once', kind: 'reject_once', label: 'Reject' }, { id: 'allow_once', kind: 'allow_once', label: 'Run' }],
    } });
    await show(m);
    const bar = chat.page.locator('form.question-bar');
    await bar.locator('.permission-run').waitFor();
    assert.equal(await bar.locator('.bar-title').innerText(), 'Permission requested');
    assert.equal(await bar.locator('.permission-what').innerText(), 'make \\u202E');
    assert.equal(await bar.locator('[data-fact="folder"]').innerText(), '/work/proj/sub');
    assert.equal(await bar.locator('[data-fact="network"]').innerText(), 'not isolated');
    assert.equal(await bar.locator('[data-fact="sandbox"]').innerText(), 'off');
    await bar.locator('button', { hasText: 'Run' }).click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'answer'), [{ type: 'answer', questionId: 'qp', answers: { decision: 'allow_once' } }]);
  });

  test("a question's generated document is named once: by the question, or by the permission box when the question does not", async () => {
    const doc = '/state/agentls/questions/autorun-1.md';
    const decision = (text: string): Question => ({ name: 'decision', question: text, schema: { type: 'string', enum: ['reject_once', 'allow_once'] },
      buttons: [{ label: 'Remove (restore)', value: 'reject_once' }, { label: 'Keep', value: 'allow_once' }] });
    const permission: PermissionRequest = { kind: 'edit', what: 'created x and 29 more', reach: 'workspace', grants: [], document: doc,
      options: [{ id: 'reject_once', kind: 'reject_once', label: 'Remove (restore)' }, { id: 'allow_once', kind: 'allow_once', label: 'Keep' }] };
    for (const [id, text, boxes] of [['qd1', `What it did: 30 lines, in full in ${doc} (opened beside this question).`, 0], ['qd2', 'What it did: 30 lines.', 1]] as const) {
      const m = model();
      ask(m, [decision(text)], { purpose: 'permission', questionId: id, permission });
      await show(m);
      const bar = chat.page.locator(`form.question-bar[data-question-id="${id}"]`);
      await bar.locator('.permission').waitFor();
      assert.equal(await bar.locator('.permission-document').count(), boxes, text);
      assert.equal((await bar.innerText()).split(doc).length - 1, 1, `the path once in: ${await bar.innerText()}`);
    }
  });

  test('Keep Planning carries the feedback', async () => {
    await show(withPlan());
    const bar = chat.page.locator('form.question-bar.approval');
    await bar.locator('[data-field="feedback"] textarea').fill('Also update the docs.');
    await bar.locator('button', { hasText: 'Keep Planning' }).click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'answer'), [{ type: 'answer', questionId: 'qa', answers: { approve: false, feedback: 'Also update the docs.' } }]);
  });

  test('open review comments: the approval counts them and Request changes posts requestChanges; none, no button', async () => {
    const m = withPlan();
    await show(m);
    const bar = chat.page.locator('form.question-bar.approval');
    await bar.waitFor();
    assert.equal(await bar.locator('button.request-changes').count(), 0, 'no open comment, no Request changes');
    m.setOpenComments('s1', 2); // what the extension does when the plan linter reports two
    await show(m);
    const btn = bar.locator('.open-comments button.request-changes');
    await btn.waitFor();
    assert.equal(await btn.innerText(), 'Request changes (2 comments)');
    assert.match(await bar.locator('.open-comments').innerText(), /2 open review comments: it cannot be approved until they are resolved/);
    await chat.page.screenshot({ path: path.join(out, 'approval-open-comments.png'), fullPage: true });
    await btn.click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'requestChanges'), [{ type: 'requestChanges' }]);
    // Dismissed, the approval still offers it.
    await bar.locator('.dismiss').click();
    m.dismiss('s1', 'qa');
    m.setOpenComments('s1', 1);
    await show(m);
    const awaiting = chat.page.locator('.awaiting');
    await awaiting.locator('button.request-changes', { hasText: 'Request changes (1 comment)' }).click();
    assert.equal((await posted()).filter((x) => x.type === 'requestChanges').length, 2);
  });

  test('after Dismiss the plan stays visibly awaiting approval with Approve / Keep Planning', async () => {
    const m = withPlan();
    await show(m);
    await chat.page.locator('form.question-bar .dismiss').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'dismiss'), [{ type: 'dismiss', questionId: 'qa' }]);
    m.dismiss('s1', 'qa'); // what the extension does on that message
    await show(m);
    const awaiting = chat.page.locator('.awaiting');
    await awaiting.waitFor();
    assert.match(await awaiting.innerText(), /Plan awaiting approval: plans\/x\.plan/);
    await awaiting.locator('input.feedback').fill('smaller steps');
    await awaiting.locator('button.keep').click();
    await awaiting.locator('button.approve').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'resolvePlan'), [
      { type: 'resolvePlan', decision: 'reject', reason: 'smaller steps', sessionId: 's1', planFile: 'plans/x.plan' },
      { type: 'resolvePlan', decision: 'approve', sessionId: 's1', planFile: 'plans/x.plan' },
    ]);
  });
});

describe('chat', () => {
  test('the mode toggle shows the mode in its colour and posts a switch', async () => {
    const m = model();
    await show(m);
    const colour = (sel: string) => chat.page.locator(sel).evaluate((el) => getComputedStyle(el).color);
    await chat.page.locator('.mode-tab.plan[aria-selected="true"]').waitFor();
    assert.equal(await colour('.mode-tab.plan'), 'rgb(79, 193, 255)');
    await chat.page.screenshot({ path: path.join(out, 'mode-plan.png') });
    await chat.page.locator('.mode-tab.build').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'setMode'), [{ type: 'setMode', mode: 'build' }]);
    m.applyModeChanged({ sessionId: 's1', mode: 'build', planFile: null, source: 'user' });
    await show(m);
    await chat.page.locator('.mode-tab.build[aria-selected="true"]').waitFor();
    assert.equal(await colour('.mode-tab.build'), 'rgb(137, 209, 133)');
    assert.notEqual(await colour('.mode-tab.plan'), 'rgb(79, 193, 255)', 'the unselected tab loses its colour');
    await chat.page.screenshot({ path: path.join(out, 'mode-build.png') });
  });

  test('streamed markdown is rendered, highlighted and sanitised; tool calls and refusals show', async () => {
    const m = model();
    m.addPrompt('s1', 'hi <b>there</b>');
    const text = 'Here is **bold** and code:\n\n```go\nfunc main() {}\n```\n\n<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> [x](javascript:alert(1))';
    for (const chunk of text.match(/.{1,7}/gs)!) m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'edit main.go', kind: 'edit', status: 'pending', rawInput: { path: 'main.go' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'failed', rawOutput: { success: false }, refusal: { tool_name: 'edit', tool_kind: 'file_edit', hint: 'Only .plan documents may change in PLAN mode.', entered_at: '', entered_reason: '' } });
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 1200, outputTokens: 34 });
    await show(m);
    const msg = chat.page.locator('.msg.assistant .markdown');
    await msg.locator('strong', { hasText: 'bold' }).waitFor();
    assert.equal(await msg.locator('.hljs-keyword').first().innerText(), 'func');
    assert.equal(await msg.locator('img, script').count(), 0, 'raw HTML is never markup');
    assert.match(await msg.innerText(), /<img src=x/);
    assert.equal(await msg.locator('a[href^="javascript"]').count(), 0);
    assert.equal(await chat.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.equal(await chat.page.locator('.msg.user .text').innerText(), 'hi <b>there</b>');
    const tool = chat.page.locator('details.tool.refused');
    assert.match(await tool.locator('summary').innerText(), /Edit main\.go.*refused in PLAN mode/s);
    // The reason is in view without opening the row.
    assert.match(await chat.page.locator('.tool-row .refusal-hint').innerText(), /Refused: Only \.plan documents/);
    assert.match(await chat.page.locator('footer.usage').innerText(), /1,200 in · 34 out/);
    await chat.page.screenshot({ path: path.join(out, 'chat.png'), fullPage: true });
    await noCspViolations();
  });

  test('an edit’s new problems show under its tool row, each linked to its line', async () => {
    const m = model();
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'e1', title: 'edit src/shape.ts', kind: 'edit', status: 'in_progress', rawInput: { path: 'src/shape.ts' } });
    m.applyUpdate('s1', {
      sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'completed',
      rawOutput: { success: true, result: { diagnostics: { new: [{ path: 'src/shape.ts', line: 3, severity: 'error', message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322' }, { path: 'src/util.ts', line: 9, severity: 'warning', message: "'x' is declared but never read.", source: 'ts' }], settled: false } } },
    });
    // A clean edit (no new problems, settled) gets no block.
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'e2', title: 'edit src/fix.ts', kind: 'edit', status: 'in_progress' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'e2', status: 'completed', rawOutput: { success: true, result: { diagnostics: { new: [], settled: true } } } });
    await show(m);
    const block = chat.page.locator('.tool-row .problems');
    await block.waitFor();
    assert.equal(await chat.page.locator('.problems').count(), 1, 'only the edit with problems has a block');
    assert.equal(await block.locator('.problems-heading').innerText(), '2 new problems');
    const rows = block.locator('.problem');
    assert.match(await rows.nth(0).innerText(), /src\/shape\.ts:3 Type 'string' is not assignable to type 'number'\. \(ts 2322\)/);
    assert.equal(await rows.nth(0).locator('.codicon-error').count(), 1);
    assert.equal(await rows.nth(1).locator('.codicon-warning').count(), 1);
    assert.match(await block.locator('.problems-note').innerText(), /had not settled/);
    await chat.page.screenshot({ path: path.join(out, 'edit-problems.png'), fullPage: true });
    await rows.nth(0).locator('a.problem-link').click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'openProblem'), [{ type: 'openProblem', path: 'src/shape.ts', line: 3 }]);
    await noCspViolations();
  });

  test('Enter sends the prompt, Shift+Enter is a new line; Stop cancels a running turn', async () => {
    const m = model();
    await show(m);
    const box = chat.page.locator('textarea.prompt');
    await box.click();
    await chat.page.keyboard.type('first line');
    await chat.page.keyboard.press('Shift+Enter');
    await chat.page.keyboard.type('second');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual((await posted()).filter((x) => x.type === 'prompt'), [{ type: 'prompt', text: 'first line\nsecond' }]);
    assert.equal(await box.inputValue(), '');
    m.addPrompt('s1', 'first line\nsecond');
    await show(m);
    await chat.page.locator('button.stop').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'cancel'), [{ type: 'cancel' }]);
  });

  test('the plan checklist ticks and opens the plan', async () => {
    const m = model();
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: [
      { content: 'One', priority: 'medium', status: 'completed' },
      { content: 'Two', priority: 'medium', status: 'in_progress' },
    ] });
    await show(m);
    assert.match(await chat.page.locator('.plan-steps .step[data-status="completed"]').innerText(), /^\s*One$/);
    assert.match(await chat.page.locator('.plan-progress').innerText(), /1\/2 steps done/);
    await chat.page.locator('.plan-panel .plan-link').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'openPlan'), [{ type: 'openPlan', planFile: 'plans/x.plan' }]);
  });

  test('a refused tick shows why under its step, each problem linked; the next plan update clears it', async () => {
    const m = model();
    const entries = [
      { content: 'Change the greeting', priority: 'medium', status: 'in_progress' as const },
      { content: 'Review', priority: 'medium', status: 'pending' as const },
    ];
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/greet.plan', entries, tickRefused: {
      steps: ['Change the greeting'],
      problems: [
        { path: 'main.go', line: 7, severity: 'error', message: 'cannot use 42 (untyped int constant) as string value', source: 'compiler', code: 'IncompatibleAssign' },
        { path: 'main.go', line: 9, severity: 'warning', message: 'unused parameter', source: 'unusedparams' },
      ],
      message: 'step not ticked: the files changed in this step have new errors',
    } });
    await show(m);
    const block = chat.page.locator('.plan-steps .step[data-status="in_progress"] .tick-refused');
    await block.waitFor();
    assert.equal((await block.locator('.problems-heading').innerText()).trim(), 'Not ticked: 1 new error, 1 warning');
    assert.match(await block.locator('.problem').nth(0).innerText(), /main\.go:7 cannot use 42 .*\(compiler IncompatibleAssign\)/);
    assert.equal(await block.locator('.problem').nth(1).locator('.codicon-warning').count(), 1);
    assert.equal(await chat.page.locator('.plan-steps .step[data-status="pending"] .tick-refused').count(), 0, 'only under the refused step');
    await chat.page.screenshot({ path: path.join(out, 'tick-refused.png'), fullPage: true });
    await block.locator('a.problem-link').first().click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'openProblem'), [{ type: 'openProblem', path: 'main.go', line: 7 }]);
    // The tick's failed tool row shows the same block.
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'plan_edit plans/greet.plan', kind: 'edit', status: 'in_progress' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', rawOutput: { success: false, error: 'step not ticked: the files changed in this step have new errors\nmain.go:7: error: …' } });
    await show(m);
    const row = chat.page.locator('.tool-row', { has: chat.page.locator('details[data-tool-id="t1"]') }).locator('.tick-refused');
    await row.waitFor();
    assert.equal((await row.locator('.problems-heading').innerText()).trim(), 'Not ticked: 1 new error, 1 warning');
    await chat.page.screenshot({ path: path.join(out, 'tick-refused-row.png'), fullPage: true });
    // The fix, then the accepted tick: the next plan update has no refusal.
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/greet.plan', entries: [{ ...entries[0], status: 'completed' }, { ...entries[1], status: 'in_progress' }] });
    await show(m);
    await chat.page.locator('.plan-steps .step[data-status="completed"]').waitFor();
    assert.equal(await chat.page.locator('.plan-panel .tick-refused').count(), 0);
    await noCspViolations();
  });

  test('typing @ asks for a mention; the pick replaces the @ with a chip that can be removed', async () => {
    const m = model();
    await show(m);
    const box = chat.page.locator('textarea.prompt');
    await box.click();
    await chat.page.keyboard.type('explain @');
    assert.deepEqual((await posted()).filter((x) => x.type === 'mention'), [{ type: 'mention' }]);
    // The extension drops the typed @ and sends the chips.
    await send({ type: 'insert', text: '' });
    await show(m, [{ kind: 'file', label: 'src/main.go', title: 'src/main.go' }]);
    assert.equal(await box.inputValue(), 'explain ');
    const chip = chat.page.locator('.mention-chip');
    await chip.waitFor();
    assert.match(await chip.innerText(), /src\/main\.go/);
    await chip.locator('button[aria-label="Remove src/main.go"]').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'clearContext'), [{ type: 'clearContext', index: 0 }]);
    await show(m);
    await chip.waitFor({ state: 'detached' });
  });

  test('a sent selection shows as its file and lines until the prompt goes', async () => {
    const m = model();
    await show(m, [{ kind: 'selection', label: 'src/main.go:5-10', title: 'x' }]);
    assert.match(await chat.page.locator('.mention-chip').innerText(), /src\/main\.go:5-10/);
    await chat.page.locator('textarea.prompt').fill('fix this');
    await chat.page.locator('button.send').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'prompt'), [{ type: 'prompt', text: 'fix this' }]);
  });

  test('the session list shows every chat with its mode; picking one and New chat post to the extension', async () => {
    const m = model();
    m.upsertSession({ sessionId: 's2', title: 'Quieter', mode: 'build', planFile: null, createdAt: '2026-11-23T11:00:00Z', updatedAt: '2026-11-23T11:00:00Z' });
    await show(m);
    const select = chat.page.locator('select.sessions');
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['BUILD · Quieter', 'PLAN · Louder']);
    assert.equal(await select.inputValue(), 's1', 'the chat in view is selected');
    await select.selectOption('s2');
    await chat.page.locator('button.new-chat').click();
    assert.deepEqual((await posted()).filter((x) => x.type === 'selectSession' || x.type === 'newChat'), [{ type: 'selectSession', sessionId: 's2' }, { type: 'newChat' }]);
  });

  test('hidden and shown again (the page made anew), the view asks for the state and keeps the draft', async () => {
    const m = model();
    m.addPrompt('s1', 'first question');
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'first answer' } });
    m.endTurn('s1', { stopReason: 'end_turn' });
    await show(m);
    await chat.page.locator('textarea.prompt').fill('half-typed');
    await chat.page.reload();
    await chat.page.waitForFunction(() => (window as unknown as { __posted: FromWebview[] }).__posted.some((x) => x.type === 'ready'));
    assert.equal(await chat.page.locator('textarea.prompt').inputValue(), 'half-typed');
    assert.equal(await chat.page.locator('.msg').count(), 0, 'the page holds no conversation of its own');
    await show(m); // the extension's answer to ready
    await chat.page.locator('.msg.assistant', { hasText: 'first answer' }).waitFor();
    assert.equal(await chat.page.locator('.msg.user .text').innerText(), 'first question');
  });

  test('the footer shows token usage from usage_update, with the context window', async () => {
    const m = model();
    await show(m);
    assert.equal(await chat.page.locator('footer.usage').innerText(), '');
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 1200, outputTokens: 34 });
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 800, outputTokens: 66, contextTokens: 5000, contextWindow: 128000 });
    await show(m);
    await chat.page.locator('footer.usage', { hasText: 'Tokens' }).waitFor();
    assert.equal(await chat.page.locator('footer.usage').innerText(), 'Tokens: 2,000 in · 100 out · context 5,000 / 128,000');
  });

  test("a sub-agent's tool calls nest under its task row, collapsed, expanded on click, with its tokens", async () => {
    const m = model();
    m.addPrompt('s1', 'where is main?');
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task explore', kind: 'other', status: 'in_progress', rawInput: { kind: 'explore', prompt: 'find main\nand its tests' } });
    const child = '0000000000000000000000001a2b3c4d';
    for (const [id, title] of [['1a2b3c4d/c1', 'grep func main'], ['1a2b3c4d/c2', 'read main.go']]) {
      m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: id, title, kind: 'read', status: 'in_progress', parentToolCallId: 't1', childSessionId: child });
      m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', rawOutput: { ok: true }, parentToolCallId: 't1', childSessionId: child });
    }
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 900, outputTokens: 300, children: [{ toolCallId: 't1', inputTokens: 900, outputTokens: 300 }], total: { inputTokens: 2100, outputTokens: 340 } });
    await show(m);
    assert.match(await chat.page.locator('details.tool.task[data-tool-id="t1"] > summary').innerText(), /task explore: find main — 2 steps, 1\.2k tokens\s*running$/);
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', rawOutput: { success: true, result: { status: 'completed', answer: 'main is in main.go', turns: 2, tokens: 1200, session: child } } });
    await show(m);
    const messagesTools = chat.page.locator('main.messages > details.tool');
    assert.equal(await messagesTools.count(), 1, "the sub-agent's calls are never top-level rows");
    const task = chat.page.locator('details.tool.task[data-tool-id="t1"]');
    assert.match(await task.locator(':scope > summary').innerText(), /^\s*task explore: find main — 2 steps, 1\.2k tokens\s*completed$/);
    assert.equal(await task.evaluate((d) => (d as HTMLDetailsElement).open), false, 'collapsed by default');
    const nested = task.locator('.subagent-steps > details.tool');
    assert.equal(await nested.count(), 2);
    assert.equal(await nested.first().isVisible(), false);
    await task.locator(':scope > summary').click();
    await nested.first().waitFor({ state: 'visible' });
    assert.match(await nested.first().locator('summary').innerText(), /Searched for func main/);
    assert.match(await task.locator('.subagent-meta').innerText(), /sub-agent explore 1a2b3c4d · 900 in · 300 out/);
    const indent = await nested.first().evaluate((el) => el.getBoundingClientRect().left);
    const top = await task.evaluate((el) => el.getBoundingClientRect().left);
    assert.ok(indent > top + 8, `child rows are indented (${indent} vs ${top})`);
    assert.equal(await chat.page.locator('footer.usage').innerText(), 'Tokens: 1,200 in · 40 out · sub-agents: explore 1a2b3c4d 900 in · 300 out · total 2,100 in · 340 out');
    // A later state keeps the row open, and a child's new call lands inside it.
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: '1a2b3c4d/c3', title: 'ls', kind: 'read', status: 'in_progress', parentToolCallId: 't1', childSessionId: child });
    await show(m);
    await task.locator('.subagent-steps > details.tool[data-tool-id="1a2b3c4d/c3"]').waitFor({ state: 'visible' });
    assert.equal(await messagesTools.count(), 1);
    await chat.page.screenshot({ path: path.join(out, 'subagent.png'), fullPage: true });
    await noCspViolations();
  });

  test('a reloaded task row keeps its result, without the sub-agent\'s rows', async () => {
    const m = new ChatModel();
    m.loadMessages({ sessionId: 's1', title: 'x', mode: 'plan', planFile: null, createdAt: '2026-11-23T10:00:00Z', updatedAt: '2026-11-23T10:00:00Z' }, [
      { role: 'user', content: 'go' },
      { role: 'assistant', tool_calls: [{ id: 't1', name: 'task', arguments: '{"kind":"explore","prompt":"where is main?"}' }] },
      { role: 'tool', tool_call_id: 't1', content: '{"success":true,"result":{"status":"budget_exhausted","answer":"partial","turns":20,"tokens":5120,"session":"0000000000000000000000001a2b3c4d"}}' },
    ]);
    m.setCurrent('s1');
    await show(m);
    const task = chat.page.locator('details.tool.task[data-tool-id="t1"]');
    assert.match(await task.locator(':scope > summary').innerText(), /^\s*task explore: where is main\? — 20 turns, 5\.1k tokens\s*budget exhausted$/);
    await task.locator(':scope > summary').click();
    assert.match(await task.locator('.subagent-none').innerText(), /in its session 1a2b3c4d/);
    assert.match(await task.locator('.tool-io').last().innerText(), /budget_exhausted/);
  });
});
