// Edits keep a file's bytes, end to end in a real VS Code (code-server in
// Debian's Chromium, the packaged .vsix, the real agentls binary, the scripted
// model of fixtures/encodings.yaml): after the plan's approval the builder
// edits one line of each of CRLF, UTF-8-with-BOM, Latin-1, CR-only and mixed
// line-break files, some open in an editor (VS Code decodes them its own way,
// normalises line breaks and drops the BOM from its positions), some closed,
// one open with the user's unsaved typing. Once the edits are applied, each
// file's bytes on disk are exactly the old ones with that one line changed:
// an open file VS Code cannot hold as it is gets the edit on disk from
// agentls, and VS Code reloads it (the new text shown, nothing unsaved, no
// warning). Screenshots go to the test output folder (e2e-encodings).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { outputDir, until } from './harness';
import { openFile, type Project, promptAndBuild, shownBytes, startProject } from './project';

const out = outputDir('e2e-encodings');
let project: Project;
let page: Page;
let workspace: string;

const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const latin1 = (s: string) => Buffer.from(s, 'latin1');

/**
 * Each file: its bytes before, and on disk after the edit of its line "two"
 * (fixtures/encodings.yaml). An open file VS Code decoded (Latin-1 as U+FFFD,
 * a lone CR or mixed breaks made one kind) gets the edit on disk, byte for
 * byte, from agentls (docs/editors.md, "Files an editor cannot hold as they
 * are"); one with the user's unsaved typing (typed) is not written behind:
 * the edit goes into its editor and stays unsaved there, the disk as it was.
 */
const files: { name: string; open: boolean; before: Buffer; after: Buffer; unsaved?: true; typed?: string }[] = [
  // "two\n" → "TWO\nand more\n": the inserted line break is the file's.
  { name: 'crlf-open.txt', open: true, before: Buffer.from('one\r\ntwo\r\nthree\r\n'), after: Buffer.from('one\r\nTWO\r\nand more\r\nthree\r\n') },
  { name: 'crlf-closed.txt', open: false, before: Buffer.from('one\r\ntwo\r\nthree\r\n'), after: Buffer.from('one\r\nTWO\r\nand more\r\nthree\r\n') },
  // "two" → "TWO" in the rest.
  { name: 'bom-open.txt', open: true, before: Buffer.concat([bom, Buffer.from('one\ntwo\nthrée\n')]), after: Buffer.concat([bom, Buffer.from('one\nTWO\nthrée\n')]) },
  { name: 'bom-closed.txt', open: false, before: Buffer.concat([bom, Buffer.from('one\ntwo\nthrée\n')]), after: Buffer.concat([bom, Buffer.from('one\nTWO\nthrée\n')]) },
  { name: 'latin1-open.txt', open: true, before: latin1('café\ntwo\nnaïve\n'), after: latin1('café\nTWO\nnaïve\n') },
  { name: 'latin1-closed.txt', open: false, before: latin1('café\ntwo\nnaïve\n'), after: latin1('café\nTWO\nnaïve\n') },
  { name: 'cr-open.txt', open: true, before: Buffer.from('one\rtwo\rthree\r'), after: Buffer.from('one\rTWO\rthree\r') },
  { name: 'mixed-open.txt', open: true, before: Buffer.from('one\r\ntwo\nthree\r\n'), after: Buffer.from('one\r\nTWO\nthree\r\n') },
  { name: 'cr-typed.txt', open: true, before: Buffer.from('one\rtwo\rthree\r'), after: Buffer.from('one\rtwo\rthree\r'), unsaved: true, typed: 'mine ' },
];
before(async () => {
  project = await startProject('encodings', 'encodings.yaml', out, Object.fromEntries(files.map((f) => [f.name, f.before])));
  ({ workspace, page } = project);
});

after(async () => {
  await project?.stop();
});

test("an edit of one line of CRLF, BOM, Latin-1, CR and mixed files, open or closed, changes only that line's bytes on disk; an editor with unsaved typing keeps it", async () => {
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor();
  for (const f of files) if (f.open) await openFile(page, f.name);
  // The user types into one of them and does not save.
  for (const f of files.filter((f) => f.typed)) {
    await page.locator(`.tab[aria-label^="${f.name}"]`).click();
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(f.typed ?? '');
    await page.locator(`.tab.dirty[aria-label^="${f.name}"]`).waitFor();
  }
  await page.screenshot({ path: path.join(out, '01-open.png') });

  await promptAndBuild(page, out, 'Shout two in every file.', 'Edited every file.');
  const unsaved = files.filter((f) => f.unsaved).map((f) => f.name).sort();
  // The extension saves each applied edit it can: wait until only the others' tabs are dirty (a timeout leaves the assertions to fail).
  const dirtyTabs = () => page.locator('.tab.dirty').evaluateAll((tabs) => tabs.map((t) => (t.getAttribute('aria-label') ?? '').split(',')[0]).sort());
  const read = (name: string) => (fs.existsSync(path.join(workspace, name)) ? fs.readFileSync(path.join(workspace, name)) : undefined);
  const settled = async () => files.every((f) => read(f.name)?.equals(f.after)) && JSON.stringify(await dirtyTabs()) === JSON.stringify(unsaved);
  await until(page, 20_000, settled, 200);
  await page.mouse.move(700, 300);
  await page.screenshot({ path: path.join(out, '02-edited.png') });

  const wrong = files.filter((f) => !read(f.name)?.equals(f.after)).map((f) => `${f.name}${f.open ? ' (open)' : ''}: want ${shownBytes(f.after)}, got ${shownBytes(read(f.name))}`);
  assert.deepEqual(wrong, [], 'bytes on disk');
  assert.deepEqual(await dirtyTabs(), unsaved, "the editors left unsaved are those with the user's typing");
  // Each says so, naming the file; the edit is in its editor.
  for (const name of unsaved) {
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: `agentls left ${name} unsaved` });
    const center = page.locator('.notifications-center', { hasText: `agentls left ${name} unsaved` });
    if (!(await toast.or(center).first().isVisible())) {
      await page.keyboard.press('Control+Shift+P');
      await page.locator('.quick-input-widget input').fill('>Notifications: Show Notifications');
      await page.locator('.quick-input-widget input').press('Enter');
      await center.waitFor();
    }
  }
  // Nothing else warned of an unsaved file.
  const warned = await page.locator('.notifications-toasts .notification-toast, .notifications-center').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  const others = files.filter((f) => !f.unsaved).map((f) => f.name).filter((name) => warned.some((w) => w.includes(`agentls left ${name} unsaved`)));
  assert.deepEqual(others, [], 'no warning for the files written on disk');
  // VS Code reloaded the open files agentls wrote: each shows the edit.
  for (const f of files.filter((f) => f.open)) {
    await page.locator(`.tab[aria-label^="${f.name}"]`).click();
    const text = f.typed ? `${f.typed}one` : 'TWO';
    await page.locator('.editor-instance .monaco-editor .view-line', { hasText: text }).first().waitFor();
    await page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'TWO' }).first().waitFor();
  }
  await page.locator('.tab[aria-label^="latin1-open.txt"]').click();
  await page.screenshot({ path: path.join(out, '03-reloaded.png') });
  await page.locator('.tab[aria-label^="cr-typed.txt"]').click();
  await page.screenshot({ path: path.join(out, '04-unsaved.png') });

  // What agentls wrote behind an editor is on that editor's undo stack:
  // Undo there brings the old line back (unsaved), as after an edit applied
  // through the editor.
  await page.locator('.tab[aria-label^="latin1-open.txt"]').click();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Z');
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: /^two$/ }).first().waitFor({ timeout: 10_000 });
  await page.locator('.tab.dirty[aria-label^="latin1-open.txt"]').waitFor({ timeout: 10_000 });
  await page.screenshot({ path: path.join(out, '05-undone.png') });
});
