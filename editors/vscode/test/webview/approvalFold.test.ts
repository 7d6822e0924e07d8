// The approval in a narrow side bar: 300 px wide, 700 px tall (the chat view of
// a window some 850 px high) and 548 px tall (the chat view of a 1024×640
// code-server window, test/e2e/approvalFold.test.ts). The README promises that
// the approval never scrolls as a whole, that the rendered plan is the part
// that gives up height and that "the feedback box and the buttons stay in
// view", and the product that every permission question shows what it grants.
// With four granted commands the card was taller than its room: it scrolled as
// a whole, and Accept & Build was below its visible box. Now the transcript
// gives up room (down to 20 %) for the card's fixed parts (webview/room.ts).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { chatPagesForFile, oneSessionModel, planApprovalQuestions, planPermission, sendTo, stateMessage } from './chatPage';

const out = outputDir('webview-fold');
const pages = chatPagesForFile({ keepState: false });

const approvalQuestions = planApprovalQuestions('plans/x.plan', 'The plan `plans/x.plan` asks for your approval.');
const steps = ['Add the store', 'Write the handler', 'Wire the routes', 'Test the handler', 'Document the API'];
const planText = `# Goal\nA small **store**.\n\n## Steps\n${steps.map((s) => `- [ ] ${s}`).join('\n')}\n\n## Verification\n\`go test ./...\`\n`;
const grants = ['go test ./...', 'go vet ./...', 'npm run build', 'git diff *'];

for (const height of [700, 548]) test(`in a 300 × ${height} side bar the approval keeps Accept & Build and every granted command in view`, async () => {
  const page = await pages.open({ width: 300, height });
  const m = oneSessionModel({ title: 'Store', createdAt: '2026-11-26T10:00:00Z' });
  m.addPrompt('s1', 'Plan a store.');
  for (let i = 1; i <= 8; i++) m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Paragraph ${i}: ${'words '.repeat(30)}\n\n` } });
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: steps.map((content) => ({ content, priority: 'medium', status: 'pending' })) });
  m.ask({
    sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: approvalQuestions,
    permission: planPermission('plans/x.plan', grants),
  } as Parameters<ChatModel['ask']>[0]);
  await sendTo(page, stateMessage(m));
  await sendTo(page, { type: 'planText', planFile: 'plans/x.plan', text: planText });
  await page.locator('.plan-rendered li.task').first().waitFor({ state: 'attached' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: path.join(out, `approval-300x${height}.png`) });
  const seen = await page.evaluate(() => {
    const bar = document.querySelector('form.question-bar.approval')!;
    const box = bar.getBoundingClientRect();
    const head = bar.querySelector(':scope > .panel-head')!.getBoundingClientRect();
    // In view: below the card's head, above its bottom, and inside every box between it and the card
    // that clips (the grants list scrolls on its own when long).
    const inView = (el: Element) => {
      const r = el.getBoundingClientRect();
      let clip = { top: head.bottom - 1, bottom: box.bottom + 1 };
      for (let p = el.parentElement; p && p !== bar; p = p.parentElement) {
        if (getComputedStyle(p).overflowY === 'visible') continue;
        const c = p.getBoundingClientRect();
        clip = { top: Math.max(clip.top, c.top - 1), bottom: Math.min(clip.bottom, c.bottom + 1) };
      }
      return r.height > 0 && r.top >= clip.top && r.bottom <= clip.bottom;
    };
    const where = (el: Element) => `${Math.round(el.getBoundingClientRect().top)}–${Math.round(el.getBoundingClientRect().bottom)}`;
    const items = [...bar.querySelectorAll('.permission-grants li'), ...bar.querySelectorAll('.field-buttons button')];
    const feedback = bar.querySelector('[data-field="feedback"] textarea')!;
    const link = bar.querySelector('a.open-plan')!;
    return {
      hidden: [...items, feedback, link].filter((el) => !inView(el)).map((el) => `${el.textContent || el.tagName} (${where(el)})`),
      card: `visible ${Math.round(head.bottom)}–${Math.round(box.bottom)}, scrollTop ${bar.scrollTop}, content ${bar.scrollHeight} in ${bar.clientHeight}`,
      scrolls: bar.scrollTop > 0 || bar.scrollHeight > bar.clientHeight + 1,
      share: document.querySelector('.messages')!.getBoundingClientRect().height / window.innerHeight,
      composer: document.querySelector('.composer')!.getBoundingClientRect().bottom <= window.innerHeight + 1,
    };
  });
  assert.deepEqual(seen.hidden, [], `out of the approval's view: ${seen.hidden.join(', ')}; the card: ${seen.card}`);
  assert.equal(seen.scrolls, false, `the approval scrolls as a whole: ${seen.card}`);
  assert.ok(seen.share >= 0.2 - 0.005, `the transcript keeps ${(seen.share * 100).toFixed(1)} % (at least 20 %)`);
  assert.ok(seen.composer, 'the prompt box is whole');
});
