// Files the editor runs by itself, end to end in a real VS Code (code-server in
// Debian's Chromium, the packaged .vsix, the real agentls binary, the scripted
// model of fixtures/autorun.yaml): with review mode off, after the plan's
// approval, the builder's write of .vscode/tasks.json (a folderOpen task) is
// still asked — VS Code's Refactor Preview opens with the change unchecked,
// and a notification, shown whole, names the file and why (the preview shows
// the annotation's label only on hover). Discard applies nothing (no file on disk,
// the tool row failed with the decline); in a second turn the change checked
// and applied is on disk. Screenshots of each moment go to the test output
// folder (e2e-autorun).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { answered, chatFrame, clickAsAPerson, outputDir, until } from './harness';
import { type Project, startProject } from './project';

const out = outputDir('e2e-autorun');
let project: Project;
let page: Page;
let workspace: string;
let shot = 0;

/** What the builder writes: a task VS Code would run when the folder opens. */
const tasksJson = '{"version": "2.0.0", "tasks": [{"label": "build", "type": "shell", "command": "touch pwned", "runOptions": {"runOn": "folderOpen"}}]}\n';
/** The reason the question gives, after the file's name. */
const why = "your editor or shell runs what it names by itself, outside agentls's sandbox";

async function screenshot(name: string): Promise<void> {
  shot++;
  await page.screenshot({ path: path.join(out, `${String(shot).padStart(2, '0')}-${name}.png`) });
}

const chat = (): FrameLocator => chatFrame(page);

/** The tasks file on disk, or undefined when there is none. */
function tasksOnDisk(): string | undefined {
  const f = path.join(workspace, '.vscode', 'tasks.json');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined;
}

/**
 * The question about the tasks file: the Refactor Preview names the file, its
 * change unchecked; the notification beside it names the file and why (the
 * preview itself shows the annotation's label only on hover).
 */
async function previewAsking(name: string): Promise<Locator> {
  const preview = page.locator('.bulk-edit-panel');
  await preview.waitFor({ timeout: 120_000 });
  await preview.locator('input.edit-checkbox').first().waitFor();
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'agentls asks before it applies' });
  await toast.waitFor();
  await page.mouse.move(700, 300);
  await screenshot(name);
  assert.match(await preview.innerText(), /tasks\.json/, 'the preview names the file');
  const said = (await toast.innerText()).replace(/\s+/g, ' ');
  assert.ok(said.includes(`write .vscode/tasks.json — ${why}`), `the notification names the file and why: ${said}`);
  // Shown whole, not cut to one line (VS Code cuts a notification without a button).
  const message = toast.locator('.notification-list-item-message');
  assert.ok(await message.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight), 'the notification is not cut off');
  for (const box of await preview.locator('input.edit-checkbox').all()) assert.equal(await box.isChecked(), false, 'each change starts unchecked');
  return preview;
}

before(async () => {
  // The task must not run when the file appears: the test is about the question, not VS Code's tasks.
  project = await startProject('autorun', 'autorun.yaml', out, { 'app.txt': 'alpha\n' }, { 'task.allowAutomaticTasks': 'off' });
  ({ workspace, page } = project);
});

after(async () => {
  await project?.stop();
});

test('review off: the write of .vscode/tasks.json is asked in the Refactor Preview, naming the file and why; Discard writes nothing', async () => {
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  assert.equal(await chat().locator('button.review-toggle[aria-pressed="true"]').count(), 0, 'review mode is off');
  await prompt.fill('Add a build task.');
  await prompt.press('Enter');
  const approval = chat().locator('form.question-bar.approval');
  await approval.waitFor({ timeout: 120_000 });
  await clickAsAPerson(approval.locator('button', { hasText: 'Accept & Build' }));

  const preview = await previewAsking('asked');
  assert.equal(tasksOnDisk(), undefined, 'nothing is written while the question is open');
  await preview.locator('.buttons .monaco-button', { hasText: 'Discard' }).click();
  await answered(page, 'Turn one: you declined the task file.', () => screenshot('declined-failed'));
  assert.equal(tasksOnDisk(), undefined, 'a discarded change applies nothing');
  assert.equal(fs.existsSync(path.join(workspace, '.vscode')), false, 'not even the folder');
  // The chat's row of the write: failed, its result saying it was declined and why.
  const row = chat().locator('details.tool[data-tool-id="w1"]');
  await row.waitFor();
  assert.match(await row.getAttribute('class') ?? '', /status-failed/);
  await row.locator('summary .codicon').first().click(); // the row's icon: the file link opens the file
  await row.locator('button.details-toggle').click();
  const result = await row.locator('.tool-raw').innerText();
  assert.match(result, /the user declined this change; nothing of it was applied/);
  assert.match(result, /\.vscode\/tasks\.json is a file the user's editor or shell runs by itself, so every change to it is asked/);
  await page.mouse.move(700, 450);
  await screenshot('declined');
});

test('the same write asked again, checked and applied: the file is on disk as written', async () => {
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill('Write the task again.');
  await prompt.press('Enter');
  const preview = await previewAsking('asked-again');
  // The file's checkbox checks its change too.
  await preview.locator('input.edit-checkbox').first().click();
  await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLInputElement>('.bulk-edit-panel input.edit-checkbox')).every((b) => b.checked), undefined, { timeout: 10_000 });
  await screenshot('checked');
  await preview.locator('.buttons .monaco-button', { hasText: 'Apply' }).click();
  await answered(page, 'Turn two: the task file is written.', () => screenshot('applied-failed'));
  await until(page, 20_000, () => tasksOnDisk() === tasksJson); // the extension saves the applied edit on its own schedule
  assert.equal(tasksOnDisk(), tasksJson);
  assert.equal(await chat().locator('details.tool[data-tool-id="w2"].status-completed').count(), 1);
  await page.mouse.move(700, 450);
  await screenshot('applied');
});
