// A kill -9 of the server while the plan waits for approval, in a real VS Code
// (code-server, the packaged .vsix, the real binary, fixtures/crash.yaml): the
// chat ends the turn with an error, the approval card goes (its buttons would
// answer a server that is gone), Stop turns back into Send; the extension
// starts the server again and the next prompt runs a turn to its end. A server
// that crashed five times in three minutes is given up (vscode-languageclient's
// rule): the next request (here a new chat) starts it again, as the chat's
// notice says.
// Screenshots go to the test output folder (crash/).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { chatFrame, clickAsAPerson, outputDir, serversLogging, until } from './harness';
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
  await clickAsAPerson(approval.locator('button', { hasText: 'Accept & Build' }));
  await chat.locator('.msg.assistant', { hasText: 'Approved after the restart.' }).waitFor({ timeout: 120_000 });
  await page.screenshot({ path: path.join(out, '03-after-the-restart.png') });
  assert.equal(await approval.count(), 0, 'no approval card left');
});

test('a server that crashed five times in three minutes is given up; the next request (a new chat) starts it again', async () => {
  const { page } = project;
  const chat = chatFrame(page);
  const log = path.join(out, 'agentls.log');
  // Each server logs "sandbox probed" once it is up (the log is appended to): kill each new one then.
  const started = () => (fs.readFileSync(log, 'utf8').match(/msg="sandbox probed"/g) ?? []).length;
  const waitFor = async (what: string, ok: () => boolean) => assert.ok(await until(page, 60_000, ok), what);
  // The first test's kill was the first crash; four more make five (the client restarts a server 4 times in 3 minutes).
  for (let crash = 2; crash <= 5; crash++) {
    const before = started();
    const [pid] = serversLogging(log);
    assert.ok(pid, `a server runs before crash ${crash}`);
    process.kill(pid, 'SIGKILL');
    if (crash < 5) await waitFor(`the server started again after crash ${crash}`, () => started() > before && serversLogging(log).length === 1);
  }
  await page.locator('.notifications-toasts', { hasText: 'will not be restarted' }).first().waitFor({ timeout: 60_000 });
  assert.deepEqual(serversLogging(log), [], 'given up: no server runs');
  await page.screenshot({ path: path.join(out, '04-given-up.png') });

  // A new chat (PLAN): its request starts the server again, and the prompt reaches the model.
  await chat.locator('button.new-chat').click();
  await waitFor('the new chat started one server', () => serversLogging(log).length === 1);
  await chat.locator('.mode-toggle [aria-selected="true"]', { hasText: 'PLAN' }).waitFor();
  const prompt = chat.locator('textarea.prompt');
  await prompt.fill('Plan after giving up.');
  await prompt.press('Enter');
  await chat.locator('.msg.assistant', { hasText: 'Writing the plan.' }).waitFor({ timeout: 120_000 });
  // The plan the first test approved is still that chat's to build (its lock outlived the five
  // crashes): this chat's rewrite is refused, and the turn ends cleanly.
  await chat.locator('.msg.assistant', { hasText: "is the first chat's to build" }).waitFor({ timeout: 120_000 });
  await chat.locator('button.stop').waitFor({ state: 'hidden', timeout: 60_000 });
  assert.equal(await chat.locator('.notice.error', { hasText: 'The turn stopped' }).count(), 0, 'the turn ended without an error');
  assert.equal(serversLogging(log).length, 1, 'one server runs');
  await page.screenshot({ path: path.join(out, '05-started-by-the-chat.png') });
});
