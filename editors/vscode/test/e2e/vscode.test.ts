// End to end in a real VS Code (code-server 4.100.3 in Debian's Chromium): the
// packaged .vsix, the real agentls binary (bundled in the .vsix) and the
// scripted model. PLAN in the status bar → a prompt streams text → an
// ask_user form is answered → the plan is approved in the question bar →
// BUILD (colour checked) → the edit is in the editor and saved → the plan's
// step is ticked; the chat survives the view hidden and the window reloaded;
// BUILD → PLAN asks first. Screenshots of each step go to the test output folder.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { chatFrame, clickAsAPerson, type CodeServer, codeServerBinary, openWorkbench, outputDir, showChat, startCodeServer, testFolder, until } from './harness';

const out = outputDir('e2e');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
let server: CodeServer;
let browser: Browser;
let page: Page;
let workspace: string;
/** The scripted model's script: a copy of fixtures/script.yaml, replaced by a later test. */
let script: string;
let shot = 0;

// Default Dark Modern theme values of the contributed colours (package.json).
const planColour = 'rgb(79, 193, 255)'; // #4FC1FF
const buildColour = 'rgb(137, 209, 133)'; // #89D185

/** Waits (bounded) until the file holds want: the editor saves on its own schedule. */
async function fileBecomes(file: string, want: string, what: string): Promise<void> {
  let got = '';
  const same = () => {
    got = fs.readFileSync(file, 'utf8');
    return got === want;
  };
  if (await until(page, 20_000, same)) return;
  assert.equal(got, want, what);
}

async function screenshot(name: string): Promise<void> {
  shot++;
  await page.screenshot({ path: path.join(out, `${String(shot).padStart(2, '0')}-${name}.png`) });
}

const chat = (): FrameLocator => chatFrame(page);

const modeItem = () => page.locator('footer[role="status"] .statusbar-item[aria-label^="agentls mode"]');

async function modeColour(): Promise<string> {
  return modeItem().locator('a').first().evaluate((el) => getComputedStyle(el).color);
}

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const bin = codeServerBinary();
  const data = testFolder('agentls-vscode-e2e-');
  workspace = path.join(data, 'project');
  script = path.join(data, 'script.yaml');
  fs.copyFileSync(path.resolve('test', 'e2e', 'fixtures', 'script.yaml'), script);
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'app.txt'), 'alpha\n');
  fs.writeFileSync(path.join(workspace, 'two.txt'), 'x\nkeep\nx\n');
  fs.mkdirSync(path.join(workspace, '.agentls', 'commands'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.agentls', 'commands', 'review.md'), '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS.\n');
  server = await startCodeServer(
    bin,
    vsix,
    data,
    {
      'agentls.model.provider': 'scripted',
      'agentls.model.script': script,
      'agentls.serverArgs': ['--log-file', path.join(out, 'agentls.log')],
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

test('plan → question → approval → build in a real VS Code', async () => {
  // The indicator is there on startup, in PLAN's colour.
  await modeItem().waitFor();
  assert.match((await modeItem().getAttribute('aria-label')) ?? '', /PLAN/);
  assert.match(await modeItem().innerText(), /PLAN/);
  assert.equal(await modeColour(), planColour);
  await screenshot('status-plan');

  // Open app.txt so the agent's edit shows in an editor.
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'app.txt' }).dblclick();
  await page.locator('.tab[aria-label^="app.txt"]').waitFor();

  // The chat view, from its activity-bar container.
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill('Make alpha louder.');
  await prompt.press('Enter');
  await chat().locator('.msg.assistant', { hasText: 'Let me look at the project first.' }).waitFor();
  await chat().locator('.tool', { hasText: 'app.txt' }).first().waitFor();
  await screenshot('streamed');

  // The ask_user form: invalid input is blocked, then answered.
  const bar = chat().locator('form.question-bar');
  await bar.waitFor();
  await bar.locator('label.radio', { hasText: 'upper' }).click();
  await bar.locator('[data-field="branch"] input').fill('No Spaces');
  await bar.locator('button.submit').click();
  await bar.locator('[data-field="branch"] .field-error').waitFor();
  assert.match(await bar.locator('[data-field="branch"] .field-error').innerText(), /\(format: \^\[a-z0-9-\]\+\$\)$/);
  await screenshot('question-invalid');
  await bar.locator('[data-field="branch"] input').fill('shout-alpha');
  await bar.locator('button.submit').click();

  // The plan approval in the question bar, with the plan's steps and the command it grants.
  const approval = chat().locator('form.question-bar.approval');
  await approval.waitFor();
  await approval.locator('.approval-plan li', { hasText: 'Replace alpha with ALPHA' }).waitFor();
  await approval.locator('.permission-grants li', { hasText: 'git diff *' }).waitFor();
  await page.locator('.tab[aria-label^="shout.plan"]').waitFor(); // the server opened the plan
  await screenshot('approval');
  await clickAsAPerson(approval.locator('button', { hasText: 'Accept & Build' }));

  // BUILD, in BUILD's colour.
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: BUILD"]').waitFor();
  assert.match(await modeItem().innerText(), /BUILD/);
  assert.equal(await modeColour(), buildColour);
  await chat().locator('.mode-tab.build[aria-selected="true"]').waitFor();

  // The edit: in the editor, saved to disk; the plan's step ticked.
  await chat().locator('.msg.assistant', { hasText: 'Done: app.txt now says ALPHA' }).waitFor();
  await chat().locator('.plan-steps .step.completed', { hasText: 'Replace alpha with ALPHA' }).waitFor();
  assert.equal(fs.readFileSync(path.join(workspace, 'app.txt'), 'utf8'), 'ALPHA\n');
  assert.match(fs.readFileSync(path.join(workspace, 'plans', 'shout.plan'), 'utf8'), /- \[x\] Replace alpha with ALPHA/);
  await page.locator('.tab[aria-label^="app.txt"]').click();
  await page.locator('.monaco-editor .view-line', { hasText: 'ALPHA' }).first().waitFor();
  // The extension saves each applied edit right after VS Code applied it (the
  // plan's last status write may have just arrived): wait for the saves, then
  // check that none is left (a timeout leaves the assertion to fail).
  await page.waitForFunction(() => document.querySelectorAll('.tab.dirty').length === 0, undefined, { timeout: 10_000 }).catch(() => undefined);
  assert.equal(await page.locator('.tab.dirty').count(), 0, 'no editor is left unsaved');
  await screenshot('build-done');
});

// Runs on the first server, right after the build: the scripted model's next steps are
// this test's (a reload starts the script again).
test('review: one of two changes unchecked in the Refactor Preview is not applied; Restore is undone by one Undo', async () => {
  const two = path.join(workspace, 'two.txt');
  // Review edits on (the header's toggle: agent/setReview).
  const toggle = chat().locator('button.review-toggle');
  await toggle.click();
  await chat().locator('button.review-toggle[aria-pressed="true"]').waitFor();
  // two.txt open in an editor (from the Explorer), then back to the chat.
  await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'two.txt' }).dblclick();
  await page.locator('.tab[aria-label^="two.txt"]').waitFor();
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  await toggle.waitFor();
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill('Tidy two.txt.');
  await prompt.press('Enter');
  // The edit's two changes in the Refactor Preview, one checkbox each, unchecked (needsConfirmation):
  // the first is checked, the second left out.
  const preview = page.locator('.bulk-edit-panel');
  await preview.waitFor();
  const checkboxes = preview.locator('input.edit-checkbox');
  await checkboxes.nth(2).waitFor(); // the file's, and one per change
  const n = await checkboxes.count();
  assert.equal(n, 3, 'the file and its two changes');
  await screenshot('refactor-preview');
  await checkboxes.nth(1).click(); // the first change
  assert.equal(await checkboxes.nth(1).isChecked(), true);
  assert.equal(await checkboxes.nth(2).isChecked(), false);
  await screenshot('refactor-preview-one-checked');
  await preview.locator('.buttons .monaco-button').first().click(); // Apply
  await chat().locator('.msg.assistant', { hasText: 'Kept what you chose in two.txt.' }).waitFor();
  await fileBecomes(two, 'y\nkeep\nx\n', 'exactly one of the two changes is applied (and saved)');
  // The turn's changes, read as an edit, with Diff / Keep / Undo.
  await chat().locator('.changes .change-label', { hasText: 'Edited two.txt +1 −1' }).waitFor();
  await screenshot('turn-changes');

  // Restore on the message: the code as before it, through the editor as one edit…
  await chat().locator('.msg.user', { hasText: 'Tidy two.txt.' }).locator('button.restore').click();
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'Restore the files and the conversation' });
  await dialog.waitFor();
  await dialog.locator('.monaco-button', { hasText: /^Restore$/ }).click();
  await fileBecomes(two, 'x\nkeep\nx\n', 'the rewind restored two.txt');
  await screenshot('restored');
  // …so one Undo in the editor brings the rewound state back (saved to see it on disk).
  await page.locator('.tab[aria-label^="two.txt"]').click();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+z');
  await page.locator('.tab.dirty[aria-label^="two.txt"]').waitFor();
  await page.keyboard.press('Control+s');
  await fileBecomes(two, 'y\nkeep\nx\n', 'one Undo brought the rewound state back');
  await screenshot('undone');
});

test('the chat survives the view being hidden and the window reloading', async () => {
  const activity = page.locator('.activitybar [aria-label^="agentls"]').first();
  const done = () => chat().locator('.msg.assistant', { hasText: 'Done: app.txt now says ALPHA' });
  // Hidden behind the Explorer, then shown again.
  await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
  await page.locator('.explorer-folders-view').waitFor();
  await activity.click();
  await done().waitFor();
  // A window reload: a new extension host and server; the chat comes back
  // from agent/listSessions and agent/loadSession.
  await page.reload();
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: BUILD"]').waitFor();
  // The sidebar comes back with the container last open; a click on an open
  // container's icon would close it.
  await showChat(page, () => screenshot('chat-not-restored'));
  await done().waitFor();
  await chat().locator('.msg.user', { hasText: 'Make alpha louder.' }).waitFor();
  await chat().locator('.mode-tab.build[aria-selected="true"]').waitFor();
  assert.match(await chat().locator('select.sessions option:checked').innerText(), /^BUILD · /);
  // The plan's checklist comes back too (agent/loadSession sends the plan update).
  await chat().locator('.plan-steps .step.completed', { hasText: 'Replace alpha with ALPHA' }).waitFor();
  await screenshot('reloaded');
});

test('BUILD → PLAN asks first, from the chat toggle and from the status bar', async () => {
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'Switch to PLAN mode? The agent may then change' });
  // The toggle: cancelled, the chat stays in BUILD.
  await chat().locator('.mode-tab.plan').click();
  await dialog.waitFor();
  await screenshot('confirm-plan');
  await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.match((await modeItem().getAttribute('aria-label')) ?? '', /BUILD/);
  // The status bar: confirmed, PLAN in PLAN's colour.
  await modeItem().click();
  await dialog.waitFor();
  await dialog.locator('.monaco-button', { hasText: 'Switch to PLAN' }).click();
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: PLAN"]').waitFor();
  assert.equal(await modeColour(), planColour);
  await chat().locator('.mode-tab.plan[aria-selected="true"]').waitFor();
});

test('slash commands: "/" completes from the server (built-ins and .agentls/commands); /plans and /build run', async () => {
  const prompt = chat().locator('textarea.prompt');
  const menu = chat().locator('ul.slash-menu');
  await page.mouse.move(0, 0); // away from the status bar item's hover
  await prompt.focus();
  await prompt.fill('/');
  await menu.locator('[data-command="review"]').waitFor();
  assert.match(await menu.locator('[data-command="review"]').innerText(), /<file>.*Review a file \(project\)/);
  await prompt.fill('/pl');
  await menu.locator('[data-command="plans"]').waitFor();
  assert.deepEqual(await menu.locator('.slash-name').allInnerTexts(), ['/plan', '/plans']);
  await screenshot('slash-menu');
  await prompt.press('ArrowDown');
  await prompt.press('Tab');
  assert.equal(await prompt.inputValue(), '/plans ');
  await prompt.press('Enter');
  await chat().locator('.msg.assistant', { hasText: 'plans/shout.plan — Shout' }).waitFor();
  await prompt.fill('/build ');
  await prompt.press('Enter');
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: BUILD"]').waitFor();
  await chat().locator('.mode-tab.build[aria-selected="true"]').waitFor();
  await screenshot('slash-build');
  // The plan's every step is ticked: back in BUILD it stays implemented (a mode switch does
  // not reopen a finished plan), in the buffer and on disk, with nothing left unsaved.
  const planFile = path.join(workspace, 'plans', 'shout.plan');
  assert.match(fs.readFileSync(planFile, 'utf8'), /^status: implemented$/m, 'the finished plan is implemented');
  await page.waitForFunction(() => document.querySelectorAll('.tab.dirty').length === 0, undefined, { timeout: 10_000 }).catch(() => undefined);
  assert.equal(await page.locator('.tab.dirty').count(), 0, 'no editor is left unsaved');
  assert.match(fs.readFileSync(planFile, 'utf8'), /^status: implemented$/m, 'still implemented');
});

// Last: it replaces the script and reloads the window (a fresh server replays it from its start).
test('plan comments: approval refused while two are open; the lens and the approval bar offer "Request changes (2 comments)", which sends them; the revision resolving both is approved', async () => {
  fs.copyFileSync(path.resolve('test', 'e2e', 'fixtures', 'plan-comments.yaml'), script);
  await page.reload();
  await modeItem().waitFor();
  await showChat(page, () => screenshot('chat-not-restored'));
  await chat().locator('button.new-chat').click();
  await chat().locator('.mode-tab.plan[aria-selected="true"]').waitFor();
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill('Plan a greeting.');
  await prompt.press('Enter');

  // The approval waits in the question bar; the server opened the plan.
  const approval = chat().locator('form.question-bar.approval');
  await approval.waitFor();
  const tab = page.locator('.tab[aria-label^="greet.plan"]');
  await tab.waitFor();
  await tab.click();
  // The user's two comments, typed under their steps (not saved: the server reads the editor's text).
  // The cursor goes to each step by Go to Line (Ctrl+G), not by a click on the line: the server's
  // code lenses arrive meanwhile and move the lines (CI stop 41 typed a comment into the front matter).
  const line = (text: string) => page.locator('.editor-instance .monaco-editor .view-line', { hasText: text });
  const planLines = fs.readFileSync(path.join(workspace, 'plans', 'greet.plan'), 'utf8').split('\n');
  let typed = 0;
  for (const [step, comment] of [['- [ ] Write hello.txt', '> review: name it greeting.txt'], ['- [ ] Test it', '> review: test the accent']]) {
    const n = planLines.indexOf(step) + 1 + typed;
    assert.ok(n > typed, `${step} in the plan on disk:\n${planLines.join('\n')}`);
    await line(step).waitFor();
    await page.keyboard.press('Control+g');
    const goTo = page.locator('.quick-input-widget input');
    await goTo.waitFor();
    await goTo.fill(`:${n}`);
    await goTo.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await page.locator('footer[role="status"] .statusbar-item', { hasText: `Ln ${n},` }).waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(comment);
    await line(comment).waitFor();
    typed++;
  }
  // Each step is still there, its comment on the line below.
  const lines = await page.locator('.editor-instance .monaco-editor .view-line').evaluateAll((els) =>
    els.map((e) => ({ top: parseFloat((e as HTMLElement).style.top), text: (e.textContent ?? '').replace(/\u00a0/g, ' ') })).sort((a, b) => a.top - b.top).map((l) => l.text),
  );
  const at = (text: string) => lines.indexOf(text);
  assert.ok(at('- [ ] Write hello.txt') >= 0 && at('> review: name it greeting.txt') === at('- [ ] Write hello.txt') + 1, lines.join('\n'));
  assert.ok(at('- [ ] Test it') >= 0 && at('> review: test the accent') === at('- [ ] Test it') + 1, lines.join('\n'));

  // The server's lenses for the plan awaiting approval: Request changes counts the open comments.
  const lens = (title: RegExp | string) => page.locator('.monaco-editor .codelens-decoration a', { hasText: title });
  await lens('Request changes (2 comments)').waitFor();
  await screenshot('plan-comments-lenses');
  // Approval is refused while a comment is open, with the reason.
  await clickAsAPerson(lens(/^Approve & Build$/));
  await page.locator('.notifications-toasts', { hasText: 'open review comment' }).waitFor();
  await screenshot('plan-comments-approval-refused');
  assert.match((await modeItem().getAttribute('aria-label')) ?? '', /PLAN/, 'still planning');

  // The approval bar counts them too (the extension reads the plan linter's diagnostics).
  const request = approval.locator('.open-comments button.request-changes', { hasText: 'Request changes (2 comments)' });
  await request.waitFor();
  // Request changes (the bar's button runs the lens's command): the comments go back as the reason
  // (the scripted model checks it), the question bar goes, and the revision that resolves both is
  // asked for again, saying so.
  await request.click();
  const resolved = chat().locator('form.question-bar.approval', { hasText: '2 review comments were resolved.' });
  await resolved.waitFor();
  await screenshot('plan-comments-resolved');
  await clickAsAPerson(resolved.locator('button', { hasText: 'Accept & Build' }));
  await chat().locator('.msg.assistant', { hasText: 'Approved with your changes. Building the greeting.' }).waitFor();
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: BUILD"]').waitFor();
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: '> resolved: the test says héllo' }).waitFor();
});
