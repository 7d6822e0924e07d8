// A rewind over unsaved typing, in a real VS Code (code-server in Debian's
// Chromium, the packaged .vsix, the real agentls binary, the scripted model
// of fixtures/rewind-dirty.yaml): a BUILD turn edits main.txt (saved by the
// extension); the user types in main.txt's editor and does not save; "Restore"
// on the turn's user message reports main.txt as a conflict and leaves it: the
// editor keeps the user's unsaved text, and the disk keeps the turn's
// (docs/rewind.md, "conflict"). Screenshots go to the test output folder
// (e2e-rewind-dirty).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chatFrame, outputDir, until } from './harness';
import { openFile, type Project, startProject } from './project';

const out = outputDir('e2e-rewind-dirty');
let project: Project;
let page: Page;

before(async () => {
  project = await startProject('rewind-dirty', 'rewind-dirty.yaml', out, { 'main.txt': 'hello\n' }, { 'agentls.planMode.defaultActive': false });
  ({ page } = project);
});

after(async () => {
  await project?.stop();
});

/** The text main.txt's editor shows, line by line (VS Code's rendered lines, in order). */
async function editorLines(): Promise<string[]> {
  const lines = page.locator('.editor-instance .monaco-editor .view-lines .view-line');
  return lines.evaluateAll((els) =>
    els
      .map((e) => ({ top: parseFloat((e as HTMLElement).style.top) || 0, text: (e.textContent ?? '').replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text),
  );
}

test('Restore over unsaved typing: the file is a conflict, left alone, and the editor keeps the typing unsaved', async () => {
  const main = path.join(project.workspace, 'main.txt');
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor();
  const chat = chatFrame(page);
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  await chat.locator('textarea.prompt').waitFor();
  if ((await chat.locator('.mode-tab.build[aria-selected="true"]').count()) === 0) await chat.locator('.mode-tab.build').click();
  await chat.locator('.mode-tab.build[aria-selected="true"]').waitFor();
  await chat.locator('textarea.prompt').fill('turn one');
  await chat.locator('textarea.prompt').press('Enter');
  await chat.locator('.msg.assistant', { hasText: 'Turn one done.' }).waitFor({ timeout: 120_000 });
  await until(page, 30_000, () => fs.readFileSync(main, 'utf8') === 'hello, turn one\n', 200);
  assert.equal(fs.readFileSync(main, 'utf8'), 'hello, turn one\n', "the agent's edit is on disk");

  // The user types in main.txt and does not save.
  await openFile(page, 'main.txt');
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'hello, turn one' }).first().waitFor();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('mine: ');
  await page.locator('.tab.dirty[aria-label^="main.txt"]').waitFor();
  assert.deepEqual((await editorLines()).slice(0, 1), ['mine: hello, turn one']);
  assert.equal(fs.readFileSync(main, 'utf8'), 'hello, turn one\n', 'the typing is not saved');
  await page.screenshot({ path: path.join(out, '01-unsaved-typing.png') });

  // Restore to before the turn (the chat is still in the side bar).
  const sidebarTitle = page.locator('.part.sidebar .composite.title h2').first();
  if (!/agentls/i.test(await sidebarTitle.innerText())) await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  await chat.locator('.msg.user', { hasText: 'turn one' }).first().locator('button.restore').click();
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'Restore the files and the conversation' });
  await dialog.waitFor();
  await dialog.locator('.monaco-button', { hasText: /^Restore$/ }).click();

  const conflict = page.locator('.notification-toast', { hasText: 'changed by someone else' });
  await conflict.waitFor({ timeout: 60_000 });
  assert.match(await conflict.innerText(), /main\.txt/);
  // The conversation went back to before the turn: the rewind is done.
  await until(page, 30_000, async () => (await chat.locator('.msg.user', { hasText: 'turn one' }).count()) === 0, 200);
  await page.locator('.tab[aria-label^="main.txt"]').click();
  await page.mouse.move(700, 300);
  await page.screenshot({ path: path.join(out, '02-restored-conflict.png') });

  assert.deepEqual((await editorLines()).slice(0, 1), ['mine: hello, turn one'], "the editor keeps the user's typing");
  assert.equal(await page.locator('.tab.dirty[aria-label^="main.txt"]').count(), 1, 'still unsaved');
  assert.equal(fs.readFileSync(main, 'utf8'), 'hello, turn one\n', 'the file on disk is left as it was');
});
