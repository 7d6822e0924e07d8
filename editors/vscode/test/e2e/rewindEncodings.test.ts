// A rewind restores a file's exact bytes, end to end in a real VS Code
// (code-server in Debian's Chromium, the packaged .vsix, the real agentls
// binary, the scripted model of fixtures/rewind-encodings.yaml): two BUILD
// turns each edit one line of CRLF, UTF-8-with-BOM and Latin-1 files, some
// open in an editor (VS Code decodes them: Latin-1 bytes as U+FFFD, the BOM
// out of the text), some closed; "Restore" on the first user message brings
// every file back byte for byte. The open Latin-1 file's edits went on disk
// byte for byte from agentls (a save would re-encode it) and VS Code reloaded
// it; so did the Restore, and its editor is left with nothing to save
// (docs/rewind.md). Screenshots go to the test output folder
// (e2e-rewind-encodings).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chatFrame, outputDir, until } from './harness';
import { openFile, type Project, shownBytes, startProject } from './project';

const out = outputDir('e2e-rewind-encodings');
let project: Project;
let page: Page;
let workspace: string;

const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** Each file: open in an editor or not, and its bytes before turn 1. */
const files: { name: string; open: boolean; before: Buffer }[] = [
  { name: 'crlf-open.txt', open: true, before: Buffer.from('one\r\ntwo\r\nthree\r\n') },
  { name: 'crlf-closed.txt', open: false, before: Buffer.from('one\r\ntwo\r\nthree\r\n') },
  { name: 'bom-open.txt', open: true, before: Buffer.concat([bom, Buffer.from('one\ntwo\nthree é\n')]) },
  { name: 'latin1-open.txt', open: true, before: latin1('café\ntwo\nthree naïve\n') },
  { name: 'latin1-closed.txt', open: false, before: latin1('café\ntwo\nthree naïve\n') },
];

const read = (name: string) => (fs.existsSync(path.join(workspace, name)) ? fs.readFileSync(path.join(workspace, name)) : undefined);

/** Waits (bounded) until every file's bytes are want's, then asserts it. */
async function bytesBecome(want: (f: (typeof files)[number]) => Buffer, what: string): Promise<void> {
  const wrong = () => files.filter((f) => !read(f.name)?.equals(want(f))).map((f) => `${f.name}: want ${shownBytes(want(f))}, got ${shownBytes(read(f.name))}`);
  await until(page, 30_000, () => wrong().length === 0, 200);
  assert.deepEqual(wrong(), [], what);
}

/** Sends a prompt from the chat and waits for the agent's answer. */
async function turn(text: string, answer: string): Promise<void> {
  const prompt = chatFrame(page).locator('textarea.prompt');
  await prompt.fill(text);
  await prompt.press('Enter');
  await chatFrame(page).locator('.msg.assistant', { hasText: answer }).waitFor({ timeout: 120_000 });
}

/** Presses Restore on the user message with this text and confirms it (files and conversation). */
async function restore(text: string): Promise<void> {
  await chatFrame(page).locator('.msg.user', { hasText: text }).first().locator('button.restore').click();
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'Restore the files and the conversation' });
  await dialog.waitFor();
  await dialog.locator('.monaco-button', { hasText: /^Restore$/ }).click();
}

before(async () => {
  project = await startProject('rewind-encodings', 'rewind-encodings.yaml', out, Object.fromEntries(files.map((f) => [f.name, f.before])), {
    'agentls.planMode.defaultActive': false,
  });
  ({ workspace, page } = project);
});

after(async () => {
  await project?.stop();
});

test('Restore to before two turns of edits brings CRLF, BOM and Latin-1 files back byte for byte, open or closed', async () => {
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor();
  for (const f of files) if (f.open) await openFile(page, f.name);

  const chat = chatFrame(page);
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  await chat.locator('textarea.prompt').waitFor();
  if ((await chat.locator('.mode-tab.build[aria-selected="true"]').count()) === 0) await chat.locator('.mode-tab.build').click();
  await chat.locator('.mode-tab.build[aria-selected="true"]').waitFor();
  await turn('turn one', 'Turn one done.');
  await turn('turn two', 'Turn two done.');
  // Both edits on disk in the form of each file, the open Latin-1 file's too (VS Code would
  // re-encode it, U+FFFD for é: agentls writes its edits on disk, byte for byte).
  // As Latin-1 every byte is one character: the bytes around the words stay as they are.
  const edited = (f: (typeof files)[number]): Buffer => Buffer.from(f.before.toString('latin1').replace('two', 'TWO').replace('three', 'THREE'), 'latin1');
  await bytesBecome(edited, 'after two turns');
  await page.screenshot({ path: path.join(out, '01-edited.png') });

  await restore('turn one');
  await bytesBecome((f) => f.before, 'after the Restore every file has its bytes of before turn 1');
  // The open files' editors show the restored text, with nothing left to save.
  await page.locator('.tab[aria-label^="latin1-open.txt"]').click();
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: /^two$/ }).first().waitFor();
  await page.locator('.tab[aria-label^="crlf-open.txt"]').click();
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: /^two$/ }).first().waitFor();
  await page.mouse.move(700, 300);
  await page.screenshot({ path: path.join(out, '02-restored.png') });
  const dirty = await page.locator('.tab.dirty').evaluateAll((tabs) => tabs.map((t) => (t.getAttribute('aria-label') ?? '').split(',')[0]));
  assert.ok(!dirty.includes('crlf-open.txt') && !dirty.includes('bom-open.txt') && !dirty.includes('latin1-open.txt'), `modified editors: ${dirty.join(', ')}`);
});

// A rewind of open files only, a CRLF and a BOM file, that VS Code would take as one edit: the BOM
// file's checkpoint bytes are more than its document holds (its text has no BOM), so the rewind is
// written on disk and VS Code reloads both documents (docs/rewind.md, "Exact bytes").
test('Restore of a turn that edited only open CRLF and BOM files brings their bytes back', async () => {
  const only = ['crlf-open.txt', 'bom-open.txt'];
  await turn('turn three', 'Turn three done.');
  const edited = (f: (typeof files)[number]): Buffer => (only.includes(f.name) ? Buffer.from(f.before.toString('latin1').replace('one', 'ONE'), 'latin1') : f.before);
  await bytesBecome(edited, 'after turn three');
  await restore('turn three');
  await bytesBecome((f) => f.before, 'after the Restore of turn three');
  await page.locator('.tab[aria-label^="bom-open.txt"]').click();
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: /^one$/ }).first().waitFor();
  await page.mouse.move(700, 300);
  await page.screenshot({ path: path.join(out, '03-restored-open-only.png') });
  const dirty = await page.locator('.tab.dirty').evaluateAll((tabs) => tabs.map((t) => (t.getAttribute('aria-label') ?? '').split(',')[0]));
  assert.ok(!dirty.includes('crlf-open.txt') && !dirty.includes('bom-open.txt'), `modified editors: ${dirty.join(', ')}`);
});
