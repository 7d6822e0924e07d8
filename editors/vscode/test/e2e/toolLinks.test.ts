// A tool row's file link in a real VS Code: code-server, the packaged
// .vsix, the real server and a scripted model written for this workspace (its
// absolute path is only known at run time). The server takes a path the model
// gives as workspace-relative or absolute (workspace.Resolve); the row shows it
// as the model wrote it, "Read /…/project/notes.txt", and its name is a link
// that opens the file. The extension joined the path to the first workspace
// folder whatever it was, so a click on an absolute path opened
// /…/project/…/project/notes.txt, which does not exist: an error, no editor.
// Now an absolute path opens as itself (src/filePaths.ts).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chatFrame, type CodeServer, codeServerBinary, openWorkbench, outputDir, startCodeServer, testFolder } from './harness';

const out = outputDir('e2e-tool-links');
let server: CodeServer;
let browser: Browser;
let page: Page;
let workspace: string;

before(async () => {
  const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const data = testFolder('agentls-vscode-links-');
  workspace = path.join(data, 'project');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'the notes\n');
  const script = path.join(data, 'links.yaml');
  fs.writeFileSync(script, [
    'name: tool-links',
    'steps:',
    '  - text: "Reading the notes by their full path."',
    '    tool_calls:',
    `      - {id: r_abs, name: read, args: {path: ${JSON.stringify(path.join(workspace, 'notes.txt'))}}}`,
    '  - text: "READ-DONE: the notes say hello."',
    '    expect:',
    '      tool_result_contains: {r_abs: ["the notes"]}',
    '',
  ].join('\n'));
  server = await startCodeServer(codeServerBinary(), vsix, data, {
    'agentls.model.provider': 'scripted',
    'agentls.model.script': script,
    'agentls.serverArgs': ['--log-file', path.join(out, 'agentls.log')],
  }, path.join(out, 'code-server.log'));
  ({ browser, page } = await openWorkbench(server, workspace));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a read of an absolute path: its row\'s file link opens the file', async () => {
  const chat = chatFrame(page);
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat.locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill('Read the notes.');
  await prompt.press('Enter');
  await chat.locator('.msg.assistant', { hasText: 'READ-DONE' }).or(chat.locator('.notice.error')).first().waitFor({ timeout: 120_000 });
  assert.equal(await chat.locator('.notice.error').count(), 0, `the turn failed: ${await chat.locator('.notice.error').allInnerTexts()}`);
  const link = chat.locator('details.tool[data-tool-id="r_abs"] a.tool-file');
  assert.equal(await link.innerText(), path.join(workspace, 'notes.txt'), 'the row names the file as the model wrote it');
  await link.click();
  const tab = page.locator('.tab[aria-label^="notes.txt"]');
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /agentls:/ });
  await tab.or(toast).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(out, '01-after-the-click.png') });
  const error = (await toast.count()) ? await toast.first().innerText() : '';
  assert.ok((await tab.count()) === 1 && !error, `the link did not open ${path.join(workspace, 'notes.txt')}: ${error.replace(/\s+/g, ' ') || 'no tab'}`);
});
