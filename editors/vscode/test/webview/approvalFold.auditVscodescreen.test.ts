// The approval in a narrow side bar (audit): 300 px wide, 700 px tall (the chat
// view of a window some 850 px high). The README promises that the approval
// never scrolls as a whole, that the rendered plan is the part that gives up
// height and that "the feedback box and the buttons stay in view", and the
// product that every permission question shows what it grants. With four granted
// commands the card is taller than its room: it scrolls as a whole, and Accept &
// Build is below its visible box.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Question } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { ChatPages, sendTo } from './chatPage';

const out = outputDir('webview-audit-vscodescreen');
const pages = new ChatPages({ keepState: false });
before(() => pages.start());
after(() => pages.stop());

const approvalQuestions: Question[] = [
  { name: 'approve', question: 'The plan `plans/x.plan` asks for your approval.', schema: { type: 'boolean' }, buttons: [{ label: 'Accept & Build', value: true, variant: 'primary' }, { label: 'Keep Planning', value: false, variant: 'secondary' }] },
  { name: 'feedback', question: 'What should change in the plan? (optional)', schema: { type: 'string', maxLength: 4000 }, optional: true } as Question,
];
const steps = ['Add the store', 'Write the handler', 'Wire the routes', 'Test the handler', 'Document the API'];
const planText = `# Goal\nA small **store**.\n\n## Steps\n${steps.map((s) => `- [ ] ${s}`).join('\n')}\n\n## Verification\n\`go test ./...\`\n`;
const grants = ['go test ./...', 'go vet ./...', 'npm run build', 'git diff *'];

test('in a 300 px side bar the approval keeps Accept & Build and every granted command in view', async () => {
  const page = await pages.open({ width: 300, height: 700 });
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 'Store', mode: 'plan', planFile: null, createdAt: '2026-11-26T10:00:00Z', updatedAt: '2026-11-26T10:00:00Z' });
  m.setCurrent('s1');
  m.addPrompt('s1', 'Plan a store.');
  for (let i = 1; i <= 8; i++) m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Paragraph ${i}: ${'words '.repeat(30)}\n\n` } });
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: steps.map((content) => ({ content, priority: 'medium', status: 'pending' })) });
  m.ask({
    sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: approvalQuestions,
    permission: { kind: 'plan', what: 'plans/x.plan', grants, options: [{ id: 'reject_once', kind: 'reject_once', label: 'Keep Planning' }, { id: 'allow_once', kind: 'allow_once', label: 'Accept & Build' }] },
  } as Parameters<ChatModel['ask']>[0]);
  await sendTo(page, { type: 'state', snapshot: JSON.parse(JSON.stringify(m.snapshot())), context: null });
  await sendTo(page, { type: 'planText', planFile: 'plans/x.plan', text: planText });
  await page.locator('.plan-rendered li.task').first().waitFor({ state: 'attached' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: path.join(out, 'approval-300x700.png') });
  const seen = await page.evaluate(() => {
    const bar = document.querySelector('form.question-bar.approval')!;
    const box = bar.getBoundingClientRect();
    const head = bar.querySelector(':scope > .panel-head')!.getBoundingClientRect();
    const inView = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= head.bottom - 1 && r.bottom <= box.bottom + 1;
    };
    const where = (el: Element) => `${Math.round(el.getBoundingClientRect().top)}–${Math.round(el.getBoundingClientRect().bottom)}`;
    const items = [...bar.querySelectorAll('.permission-grants li'), ...bar.querySelectorAll('.field-buttons button')];
    return {
      hidden: items.filter((el) => !inView(el)).map((el) => `${el.textContent} (${where(el)})`),
      card: `visible ${Math.round(head.bottom)}–${Math.round(box.bottom)}, scrollTop ${bar.scrollTop}, content ${bar.scrollHeight} in ${bar.clientHeight}`,
    };
  });
  assert.deepEqual(seen.hidden, [], `out of the approval's view: ${seen.hidden.join(', ')}; the card: ${seen.card}`);
});
