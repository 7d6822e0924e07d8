// The plan shown in its approval is the plan as it is now, in a real VS Code
// (code-server in Debian's Chromium, the packaged .vsix, the real agentls
// binary, the scripted model of fixtures/approval-plan-changes.yaml): while
// the approval is up, the plan's file changes on disk (another program, a
// second chat, a git checkout); the approval shows the new text, never the
// text it first read. Screenshots go to the test output folder
// (e2e-approval-plan-changes).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chatFrame, outputDir } from './harness';
import { type Project, startProject } from './project';

const out = outputDir('e2e-approval-plan-changes');
let project: Project;
let page: Page;

before(async () => {
  project = await startProject('approval-plan-changes', 'approval-plan-changes.yaml', out, { 'app.txt': 'alpha\n' });
  ({ page } = project);
});

after(async () => {
  await project?.stop();
});

test('the plan changes on disk while its approval is shown: the approval shows the new text', async () => {
  const chat = chatFrame(page);
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat.locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill('Plan a greeting.');
  await prompt.press('Enter');

  const approval = chat.locator('form.question-bar.approval');
  await approval.waitFor({ timeout: 120_000 });
  const rendered = approval.locator('.plan-rendered');
  await rendered.locator('p', { hasText: 'Say hello to ALPHA.' }).waitFor(); // the plan's text, from the host
  await page.screenshot({ path: path.join(out, '01-approval.png') });

  const file = path.join(project.workspace, 'plans', 'greet.plan');
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /Say hello to ALPHA\./);
  fs.writeFileSync(file, text.replace('Say hello to ALPHA.', 'Say goodbye to OMEGA.').replace('- [ ] Write hello.txt', '- [ ] Write hello.txt\n- [ ] Delete app.txt'));

  await rendered.locator('p', { hasText: 'Say goodbye to OMEGA.' }).waitFor({ timeout: 30_000 }).catch(async () => {
    await page.screenshot({ path: path.join(out, 'failed.png') });
    assert.fail(`the approval still shows the plan it first read: ${await rendered.innerText()}`);
  });
  assert.equal(await rendered.locator('li', { hasText: 'Delete app.txt' }).count(), 1, 'the new step is shown');
  assert.equal(await rendered.getByText('ALPHA').count(), 0, 'the old text is gone');
  await page.screenshot({ path: path.join(out, '02-approval-after-change.png') });
});
