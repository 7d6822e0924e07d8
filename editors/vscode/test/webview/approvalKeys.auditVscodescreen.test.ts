// Keyboard only, at a plan approval (audit): the approval focuses its feedback
// box, and the README says "Keyboard only works: Tab, Enter submits, Escape
// dismisses" and "an approval focuses its feedback box, never Accept & Build".
// A person who writes what should change and presses Enter means "send my
// feedback", not "approve": their Enter must never end in an approval, nor move
// the focus onto Accept & Build where the next Enter approves.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Question } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { ChatPages, postedBy, sendTo } from './chatPage';

const out = outputDir('webview-audit-vscodescreen');
const pages = new ChatPages({ keepState: false });
before(() => pages.start());
after(() => pages.stop());

// The approval as the server asks it (agent/approval_dialog.go).
const approvalQuestions: Question[] = [
  { name: 'approve', question: 'The plan `plans/x.plan` asks for your approval.', schema: { type: 'boolean' }, buttons: [{ label: 'Accept & Build', value: true, variant: 'primary' }, { label: 'Keep Planning', value: false, variant: 'secondary' }] },
  { name: 'feedback', question: 'What should change in the plan? (optional)', schema: { type: 'string', maxLength: 4000 }, optional: true } as Question,
];

test('Enter in the approval\'s feedback box never approves the plan', async () => {
  const page = await pages.open({ width: 420, height: 900 });
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 'x', mode: 'plan', planFile: null, createdAt: '2026-11-26T10:00:00Z', updatedAt: '2026-11-26T10:00:00Z' });
  m.setCurrent('s1');
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: [{ content: 'Add the handler', priority: 'medium', status: 'pending' }] });
  m.ask({ sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: approvalQuestions });
  await sendTo(page, { type: 'state', snapshot: JSON.parse(JSON.stringify(m.snapshot())), context: null });
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
});
