// The plan approval in a real VS Code at a small window code-server in
// a 1024×640 Chromium window, the chat in a 300 px side bar, the packaged .vsix,
// the real server and the scripted model (fixtures/fold/approval.yaml):
// a five-step plan whose approval grants four commands. The README promises
// that the approval never scrolls as a whole, that the rendered plan is the part
// that gives up height, and that "the feedback box and the buttons stay in
// view"; the product, that every permission question shows what it grants. The
// card is taller than its room: it scrolls as a whole, Accept & Build is below
// the card's visible box, the granted commands are not all in view.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { outputDir } from './harness';
import { smallWindowProject } from './project';

const out = outputDir('e2e-approval-fold');
const openChat = smallWindowProject('approval-fold', 'fold/approval.yaml', out);

test('at 1024×640 in a 300 px side bar the approval keeps Accept & Build and every granted command in view', async () => {
  const { page, chat, prompt } = await openChat();
  await prompt.fill('Plan a store.');
  await prompt.press('Enter');
  const approval = chat.locator('form.question-bar.approval');
  await approval.waitFor({ timeout: 120_000 });
  await chat.locator('.msg.assistant', { hasText: 'LEAD-IN-APPROVAL' }).waitFor();
  await approval.locator('.plan-rendered li.task').first().waitFor({ state: 'attached' }); // the plan's text, from the host
  await approval.locator('.permission-grants li', { hasText: 'git diff *' }).waitFor();
  await page.locator('.tab[aria-label^="store.plan"]').waitFor(); // the server opened the plan
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: path.join(out, '01-approval.png') });
  const seen = await approval.evaluate((bar) => {
    const box = bar.getBoundingClientRect();
    const head = bar.querySelector(':scope > .panel-head')!.getBoundingClientRect();
    const bottom = Math.min(box.bottom, window.innerHeight);
    const inView = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= head.bottom - 1 && r.bottom <= bottom + 1;
    };
    const where = (el: Element) => `${Math.round(el.getBoundingClientRect().top)}–${Math.round(el.getBoundingClientRect().bottom)}`;
    const items = [...bar.querySelectorAll('.permission-grants li'), ...bar.querySelectorAll('.field-buttons button')];
    const plan = bar.querySelector('.plan-rendered')!.getBoundingClientRect();
    return {
      hidden: items.filter((el) => !inView(el)).map((el) => `${el.textContent} (${where(el)})`),
      card: `visible ${Math.round(head.bottom)}–${Math.round(bottom)} (view ${window.innerWidth}×${window.innerHeight}), scrollTop ${bar.scrollTop}, content ${bar.scrollHeight} in ${bar.clientHeight}, rendered plan ${Math.round(plan.height)} px tall`,
    };
  });
  console.log(`approval: ${seen.card}`);
  assert.deepEqual(seen.hidden, [], `out of the approval's view: ${seen.hidden.join(', ')}; the card: ${seen.card}`);
});
