// Keyboard only, at a plan approval: the approval focuses its feedback
// box, and the README says "Keyboard only works: Tab, Enter submits, Escape
// dismisses" and "an approval focuses its feedback box, never Accept & Build".
// A person who writes what should change and presses Enter means "send my
// feedback", not "approve": their Enter must never end in an approval, nor move
// the focus onto Accept & Build where the next Enter approves. Enter there sends the
// feedback with Keep Planning; in an empty box it only says to choose, the focus
// staying in the box. No validation error, of any question, moves the focus onto a
// button (the next Enter or Space would press it).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Question } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { chatPagesForFile, oneSessionModel, planApprovalQuestions, postedBy, sendTo, stateMessage } from './chatPage';

const out = outputDir('webview-approval-keys');
const pages = chatPagesForFile({ keepState: false });

// The approval as the server asks it (agent/approval_dialog.go).
const approvalQuestions = planApprovalQuestions('plans/x.plan', 'The plan `plans/x.plan` asks for your approval.');

function approvalModel(): ChatModel {
  const m = oneSessionModel({ title: 'x', createdAt: '2026-11-26T10:00:00Z' });
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: [{ content: 'Add the handler', priority: 'medium', status: 'pending' }] });
  m.ask({ sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: approvalQuestions });
  return m;
}

test('Enter in the approval\'s feedback box never approves the plan', async () => {
  const page = await pages.open({ width: 420, height: 900 });
  const m = approvalModel();
  await sendTo(page, stateMessage(m));
  const box = page.locator('form.question-bar.approval [data-field="feedback"] textarea');
  await page.waitForFunction(() => document.activeElement?.matches('[data-field="feedback"] textarea') ?? false);
  // The person types what should change, and presses Enter (to send it), then Enter again
  // (nothing seemed to happen: the first one only showed "choose one").
  await page.keyboard.type('Also update the docs.');
  await page.keyboard.press('Enter');
  const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
  await page.keyboard.press('Enter');
  await page.screenshot({ path: path.join(out, 'approval-enter-in-feedback.png') });
  const answers = (await postedBy(page)).filter((x) => x.type === 'answer');
  assert.ok(
    !answers.some((a) => a.type === 'answer' && a.answers.approve === true),
    `Enter in the feedback box approved the plan: after the first Enter the focus was on "${focused}", the second one posted ${JSON.stringify(answers)} (feedback box now: ${JSON.stringify(await box.inputValue().catch(() => '(gone)'))})`,
  );
  // The first Enter sent the feedback with Keep Planning.
  assert.deepEqual(answers[0], { type: 'answer', questionId: 'qa', answers: { approve: false, feedback: 'Also update the docs.' } });
});

test('Enter in an empty feedback box sends nothing and keeps the focus in the box', async () => {
  const page = await pages.open({ width: 420, height: 900 });
  await sendTo(page, stateMessage(approvalModel()));
  await page.waitForFunction(() => document.activeElement?.matches('[data-field="feedback"] textarea') ?? false);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert.deepEqual((await postedBy(page)).filter((x) => x.type === 'answer'), [], 'Enter in an empty feedback box answered the approval');
  assert.ok(await page.evaluate(() => document.activeElement?.matches('[data-field="feedback"] textarea') ?? false), `the focus left the feedback box for "${await page.evaluate(() => document.activeElement?.textContent ?? '')}"`);
  assert.match(await page.locator('[data-field="approve"] .field-error').innerText(), /Accept & Build or Keep Planning/, 'the approval says what to choose');
});

test('a question\'s validation error never moves the focus onto its buttons', async () => {
  const page = await pages.open({ width: 420, height: 900 });
  const m = oneSessionModel({ title: 'x', mode: 'build', createdAt: '2026-11-26T10:00:00Z' });
  m.ask({ sessionId: 's1', questionId: 'qb', createdAt: 'x', purpose: 'question', questions: [
    { name: 'decision', question: 'Allow the migration?', schema: { type: 'string', enum: ['allow', 'deny'] }, buttons: [{ label: 'Allow', value: 'allow', variant: 'primary' }, { label: 'Deny', value: 'deny', variant: 'secondary' }] },
    { name: 'why', question: 'Why?', schema: { type: 'string', maxLength: 4000 }, optional: true } as Question,
  ] });
  await sendTo(page, stateMessage(m));
  const why = page.locator('[data-field="why"] textarea');
  await why.click();
  await page.keyboard.type('Because.');
  await page.keyboard.press('Enter');
  assert.ok(await page.evaluate(() => !(document.activeElement instanceof HTMLButtonElement)), `a validation error moved the focus onto "${await page.evaluate(() => document.activeElement?.textContent ?? '')}"`);
  await page.keyboard.press('Enter');
  assert.deepEqual((await postedBy(page)).filter((x) => x.type === 'answer'), [], 'Enter without a choice answered the question');
  assert.equal(await page.locator('[data-field="decision"] .field-error').isVisible(), true, 'the unchosen buttons show their error');
});
