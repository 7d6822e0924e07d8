// End to end in a real VS Code (code-server in Debian's Chromium), issue 21:
// tool rows read as summaries ("Read main.go", "Edit main.go" refused with its
// reason, "Asked: Branch name?" with the answer as text, "Edited main.go
// +2 −1", "Ran `echo built` ✓ (exit 0)"), the form marks its fields and says
// what a pattern wants, two @-mentions and @selection ride as chips and reach
// the model (the scripted model's last_message_contains checks it), and after
// a window reload (a new extension host and server) the rows, the refusal,
// the answers and the session title come back the same from agent/loadSession.
// A screenshot per moment goes to the test output folder (e2e-rows).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { chatFrame, type CodeServer, codeServerBinary, openWorkbench, outputDir, showChat, startCodeServer, testFolder } from './harness';

const out = outputDir('e2e-rows');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
let server: CodeServer;
let browser: Browser;
let page: Page;
let shot = 0;

const firstPrompt = 'Look at main.go and ask me for a branch.';
const wantRows = ['Read main.go', 'Edit main.go', 'Asked: Branch name? (+1 more)', 'Edited main.go +2 \u22121', 'Ran echo built ✓ (exit 0)', 'Ran false ✗ (exit 1)'];

async function screenshot(name: string): Promise<void> {
  shot++;
  await page.mouse.move(700, 450); // away from hovers
  await page.screenshot({ path: path.join(out, `${String(shot).padStart(2, '0')}-${name}.png`) });
}

const chat = (): FrameLocator => chatFrame(page);

/** What the tool rows say, top-level rows in order (the code of a command without its backticks). */
async function rowTexts(): Promise<string[]> {
  return chat().locator('main.messages details.tool > summary .tool-title').evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));
}

/** Everything a row shows that the user would compare after a reload. */
async function rowsState(): Promise<unknown> {
  return {
    rows: await rowTexts(),
    refused: await chat().locator('main.messages details.tool.refused').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.toolId)),
    refusal: (await chat().locator('.tool-row .refusal-hint').innerText()).trim(),
    answers: (await chat().locator('.tool-row .tool-answers').innerText()).replace(/\s+/g, ' ').trim(),
    title: await chat().locator('select.sessions option:checked').innerText(),
  };
}

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const data = testFolder('agentls-vscode-e2e-rows-');
  const workspace = path.join(data, 'project');
  fs.mkdirSync(path.join(workspace, '.agentls', 'chats'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'main.go'), 'package main\n\nfunc main() {\n\told()\n}\n');
  fs.writeFileSync(path.join(workspace, 'util.go'), 'package main\n\nfunc old() {}\n');
  fs.writeFileSync(path.join(workspace, 'notes.md'), '# Notes\n');
  // An internal the @ picker must not list.
  fs.writeFileSync(path.join(workspace, '.agentls', 'chats', 'stale-chat.json'), '{}\n');
  server = await startCodeServer(
    codeServerBinary(),
    vsix,
    data,
    {
      'agentls.model.provider': 'scripted',
      'agentls.model.script': path.resolve('test', 'e2e', 'fixtures', 'rows.yaml'),
      'agentls.serverArgs': ['--log-file', path.join(out, 'agentls.log')],
      'agentls.run.allow': ['echo *', 'false'],
      'files.autoSave': 'off',
    },
    path.join(out, 'code-server.log'),
  );
  ({ browser, page } = await openWorkbench(server, workspace));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('PLAN: a read, a refused edit and a form with a pattern field, answered; the rows read as summaries', async () => {
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill(firstPrompt);
  await prompt.press('Enter');

  // The form: the required field marked *, the optional one "(optional)"; the hint leads with the description.
  const bar = chat().locator('form.question-bar');
  await bar.waitFor();
  assert.match(await bar.locator('[data-field="branch"] > .field-label').innerText(), /^Branch name\? \*$/);
  assert.match(await bar.locator('[data-field="note"] > .field-label').innerText(), /^Anything else\? \(optional\)$/);
  assert.equal(await bar.locator('[data-field="branch"] .field-hint').innerText(), 'lowercase letters, digits and dashes · format ^[a-z0-9-]+$');
  await bar.locator('[data-field="branch"] input').fill('Fix Main');
  await bar.locator('button.submit').click();
  const error = bar.locator('[data-field="branch"] .field-error');
  await error.waitFor();
  assert.equal(await error.innerText(), 'lowercase letters, digits and dashes (format: ^[a-z0-9-]+$)');
  await screenshot('form-pattern-error');
  await bar.locator('[data-field="branch"] input').fill('fix-main');
  await bar.locator('button.submit').click();
  await chat().locator('.msg.assistant', { hasText: 'Noted: branch fix-main.' }).waitFor();
  await bar.waitFor({ state: 'detached' });

  assert.deepEqual(await rowTexts(), wantRows.slice(0, 3));
  const refused = chat().locator('main.messages details.tool.refused');
  assert.equal(await refused.count(), 1);
  assert.match(await refused.locator(':scope > summary').innerText(), /Edit main\.go\s*refused in PLAN mode/);
  assert.match(await chat().locator('.tool-row .refusal-hint').innerText(), /^\s*Refused: .+/);
  // The answer as text, in view; no JSON in the transcript.
  assert.equal((await chat().locator('.tool-row .tool-answers').innerText()).replace(/\s+/g, ' ').trim(), 'Branch name? fix-main');
  assert.doesNotMatch(await chat().locator('main.messages').innerText(), /"branch"|\{"/);
  // The session is titled from the first prompt (session_info_update).
  await chat().locator('select.sessions option:checked', { hasText: firstPrompt }).waitFor({ state: 'attached' });
  await screenshot('plan-rows');
});

test('BUILD: two @-mentions and @selection as chips reach the model; an edit and two runs read as summaries', async () => {
  // A selection in main.go (lines 3-4) for @selection, opened from the Explorer.
  await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'main.go' }).dblclick();
  await page.locator('.tab[aria-label^="main.go"]').waitFor();
  await page.locator('.editor-instance .monaco-editor .view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+End');

  // Back to the chat (the editor stays the active one); BUILD from the chat's toggle.
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  await chat().locator('.mode-tab.build').click();
  await chat().locator('.mode-tab.build[aria-selected="true"]').waitFor();

  const prompt = chat().locator('textarea.prompt');
  const picker = page.locator('.quick-input-widget');
  const pick = async (filter: string, row: string) => {
    await prompt.click();
    await prompt.press('End');
    await prompt.pressSequentially('@');
    await picker.waitFor({ state: 'visible' });
    await page.keyboard.type(filter);
    await picker.locator('.monaco-list-row', { hasText: row }).first().waitFor();
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'hidden' });
  };
  await prompt.click();
  await prompt.pressSequentially('Use these. ');
  await pick('util.go', 'util.go');
  await chat().locator('.mention-chip', { hasText: 'util.go' }).waitFor();
  // The picker hides agentls's internals.
  await prompt.click();
  await prompt.press('End');
  await prompt.pressSequentially('@');
  await picker.waitFor({ state: 'visible' });
  await page.keyboard.type('stale-chat');
  await screenshot('picker-hides-internals');
  assert.equal(await picker.locator('.monaco-list-row', { hasText: 'stale-chat' }).count(), 0, 'no .agentls/chats file in the picker');
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'hidden' });
  assert.equal(await prompt.inputValue(), 'Use these. @', 'a cancelled pick leaves the @ as text');
  await prompt.press('Backspace');
  // A second file: it adds a chip, never replaces the first.
  await pick('notes.md', 'notes.md');
  await pick('@selection', '@selection');
  const chips = chat().locator('.mention-chips .mention-chip');
  await chips.nth(2).waitFor();
  assert.deepEqual(await chips.allInnerTexts(), ['util.go', 'notes.md', 'main.go:3-4']);
  assert.equal(await prompt.inputValue(), 'Use these. ', 'each typed @ gave way to its chip');
  await screenshot('chips');
  await prompt.press('Enter');

  // The script's step checks the model got the mentions; a miss ends the turn with an error instead.
  await chat().locator('.msg.assistant', { hasText: 'All done.' }).waitFor();
  assert.equal(await chips.count(), 0, 'the chips went with the prompt');
  assert.deepEqual(await rowTexts(), wantRows);
  assert.equal(await chat().locator('.notice.error').count(), 0);
  await screenshot('build-rows');
});

test('after a window reload (new extension host and server) the rows, the refusal, the answer and the title are the same', async () => {
  const before = await rowsState();
  assert.deepEqual((before as { rows: string[] }).rows, wantRows);
  await page.reload();
  await showChat(page, () => screenshot('chat-not-restored'));
  await chat().locator('.msg.assistant', { hasText: 'All done.' }).waitFor();
  await chat().locator('details.tool[data-tool-id="c_fail"]').waitFor();
  assert.deepEqual(await rowsState(), before);
  // The user's message as the server keeps it: the mentions named, the selection quoted.
  const user = await chat().locator('.msg.user', { hasText: 'Use these.' }).innerText();
  assert.match(user, /Attached by the user:\n- @util\.go\n- @notes\.md/);
  assert.match(user, /Selected in main\.go, lines 3-4/);
  await screenshot('reloaded');
});
