// A kill -9 of the server while the plan waits for approval, in a real VS Code
// (code-server, the packaged .vsix, the real binary, fixtures/crash.yaml): the
// chat ends the turn with an error, the approval card goes (its buttons would
// answer a server that is gone), Stop turns back into Send; the extension
// starts the server again and the next prompt runs a turn to its end.
// Screenshots go to the test output folder (crash/).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { chatFrame, outputDir } from './harness';
import { type Project, startProject } from './project';

const out = outputDir('crash');
let project: Project;

before(async () => {
  project = await startProject('crash', 'crash.yaml', out, { 'notes.txt': 'notes\n' });
});

after(async () => {
  await project?.stop();
});

test('a server killed while the plan waits: the turn ends with an error, the card goes, the next prompt works', async () => {
  const { page } = project;
  const chat = chatFrame(page);
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat.locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill('Plan something.');
  await prompt.press('Enter');
  const approval = chat.locator('form.question-bar.approval');
  await approval.waitFor({ timeout: 120_000 });
  await page.screenshot({ path: path.join(out, '01-approval.png') });

  // The server is the one process whose arguments name this test's log file.
  execFileSync('pkill', ['-KILL', '-f', path.join(out, 'agentls.log')]);

  const error = chat.locator('.notice.error', { hasText: 'The agentls server stopped during this turn' });
  await error.first().waitFor({ timeout: 60_000 });
  await approval.waitFor({ state: 'detached', timeout: 30_000 });
  await chat.locator('button.stop').waitFor({ state: 'hidden', timeout: 30_000 });
  await page.screenshot({ path: path.join(out, '02-after-the-kill.png') });
  assert.equal(await chat.locator('details.tool[data-tool-id="p2"] .codicon-loading').count(), 0, 'the approval call no longer spins');

  // The extension starts the server again: a new prompt plans anew and can be approved.
  await prompt.fill('Plan it again.');
  await prompt.press('Enter');
  await approval.waitFor({ timeout: 120_000 });
  await approval.locator('button', { hasText: 'Accept & Build' }).click();
  await chat.locator('.msg.assistant', { hasText: 'Approved after the restart.' }).waitFor({ timeout: 120_000 });
  await page.screenshot({ path: path.join(out, '03-after-the-restart.png') });
  assert.equal(await approval.count(), 0, 'no approval card left');
});
