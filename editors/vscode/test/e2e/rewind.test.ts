// Issue 20's rewind end to end in a real VS Code (code-server in Debian's
// Chromium, the packaged .vsix, the real agentls binary, the scripted model of
// fixtures/rewind.yaml): three BUILD turns create, edit, delete and rename
// files (one change made by `run`); the user edits the file the agent created
// through the editor; "Restore" on the first user message brings every other
// path back byte for byte through the editor, reports the user's file as a
// conflict and leaves it alone, never touches .git (index, refs, objects).
// Then one Ctrl+Z in an editor brings the whole rewound state back; and for a
// fourth turn's rewind whose only text edit is a closed file, opening that file
// and one Ctrl+Z there does; and the notification after a fifth turn's Restore
// undoes it with its Undo button.
// Screenshots of each moment go to the test output folder (rewind/).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { chatFrame, type CodeServer, codeServerBinary, openWorkbench, outputDir, startCodeServer, testFolder, until } from './harness';

const out = outputDir('rewind');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
let server: CodeServer;
let browser: Browser;
let page: Page;
let workspace: string;
let shot = 0;

/** The workspace before turn 1. */
const seed: Record<string, string> = {
  'main.txt': 'hello\n',
  'util.txt': 'a helper\n',
  'old_name.txt': 'renamed by turn two\n',
  'notes.txt': 'notes\n',
  'template.txt': 'made by run\n',
};

async function screenshot(name: string): Promise<void> {
  shot++;
  await page.screenshot({ path: path.join(out, `${String(shot).padStart(2, '0')}-${name}.png`) });
}

const chat = (): FrameLocator => chatFrame(page);

/** Each file under dir (paths with /, relative) and its sha256; the skipped top-level folders left out. */
function digests(dir: string, ...skip: string[]): Record<string, string> {
  const outMap: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && skip.includes(e.name)) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p, r);
      else if (e.isFile()) outMap[r] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir, '');
  return outMap;
}

/** Waits (bounded) until the workspace's files (.git and .agentls aside) are want: the editor saves on its own schedule. */
async function workspaceBecomes(wanted: Record<string, string | undefined>, what: string): Promise<void> {
  const want = canonical(wanted);
  let got: Record<string, string> = {};
  const same = () => {
    got = canonical(digests(workspace, '.git', '.agentls'));
    return JSON.stringify(got) === JSON.stringify(want);
  };
  if (await until(page, 30_000, same, 200)) return;
  assert.deepEqual(got, want, what);
}

/** m with its keys sorted, those without a value (a path that must not exist) left out. */
function canonical(m: Record<string, string | undefined>): Record<string, string> {
  const outMap: Record<string, string> = {};
  for (const k of Object.keys(m).sort()) if (m[k] !== undefined) outMap[k] = m[k]!;
  return outMap;
}

/** What the user's .git is made of: every file's digest, the index, the refs and the number of objects. */
function gitState(): { files: Record<string, string>; index: string; refs: string; objects: string } {
  const git = (...args: string[]) => execFileSync('git', ['-C', workspace, ...args], { encoding: 'utf8' });
  return { files: digests(path.join(workspace, '.git')), index: git('ls-files', '--stage'), refs: git('show-ref'), objects: git('count-objects', '-v') };
}

/** Opens a workspace file in an editor through Quick Open. */
async function openFile(rel: string): Promise<void> {
  await page.keyboard.press('Control+p');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(rel);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(rel) }).first().waitFor();
  await input.press('Enter');
  await page.locator(`.tab[aria-label^="${path.basename(rel)}"]`).waitFor();
}

/** Sends a prompt from the chat and waits for the agent's answer. */
async function turn(text: string, answer: string): Promise<void> {
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill(text);
  await prompt.press('Enter');
  await chat().locator('.msg.assistant', { hasText: answer }).waitFor();
}

/** Presses Restore on the user message with this text and returns its dialog, once shown. */
async function restoreDialog(text: string): Promise<Locator> {
  await chat().locator('.msg.user', { hasText: text }).first().locator('button.restore').click();
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'Restore the files and the conversation' });
  await dialog.waitFor();
  return dialog;
}

/** Runs a command of the command palette by its title. */
async function runCommand(title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^.*: /, '') }).first().waitFor();
  await page.locator('.quick-input-widget input').press('Enter');
}

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const bin = codeServerBinary();
  const data = testFolder('agentls-vscode-rewind-');
  workspace = path.join(data, 'project');
  const script = path.join(data, 'rewind.yaml');
  fs.copyFileSync(path.resolve('test', 'e2e', 'fixtures', 'rewind.yaml'), script);
  fs.mkdirSync(workspace);
  for (const [name, text] of Object.entries(seed)) fs.writeFileSync(path.join(workspace, name), text);
  // The user's repository: a commit of the seed (agentls must never touch it).
  const git = (...args: string[]) => execFileSync('git', ['-C', workspace, ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'seed');
  server = await startCodeServer(
    bin,
    vsix,
    data,
    {
      'agentls.model.provider': 'scripted',
      'agentls.model.script': script,
      'agentls.serverArgs': ['--log-file', path.join(out, 'agentls.log')],
      'agentls.planMode.defaultActive': false,
      'agentls.run.allow': ['cp *'],
      'files.autoSave': 'off',
      // VS Code's own git support refreshes the index on its own: off, so that .git changes only if agentls changed it.
      'git.enabled': false,
      'git.autoRepositoryDetection': false,
    },
    path.join(out, 'code-server.log'),
  );
  ({ browser, page } = await openWorkbench(server, workspace));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The workspace's files just before the Restore, and the user's .git before turn 1 (for the Undo test). */
let beforeRewind: Record<string, string> = {};
let gitBefore: ReturnType<typeof gitState>;

test('three BUILD turns, then Restore to before turn 1: every path as it was, the user\'s file a conflict left alone, .git untouched', async () => {
  const before = digests(workspace, '.git', '.agentls');
  gitBefore = gitState();

  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  if ((await chat().locator('.mode-tab.build[aria-selected="true"]').count()) === 0) await chat().locator('.mode-tab.build').click();
  await chat().locator('.mode-tab.build[aria-selected="true"]').waitFor();
  for (const [text, done] of [['turn one', 'Turn one done.'], ['turn two', 'Turn two done.'], ['turn three', 'Turn three done.']]) {
    await turn(text, done);
    await screenshot(text.replace(' ', '-'));
  }
  // The three turns' work, on disk (the extension saves what it applied).
  await workspaceBecomes(
    {
      ...before,
      'main.txt': sha('hello, turn three\n'),
      'pkg/created.txt': sha('created in turn two\n'),
      'new_name.txt': before['old_name.txt'],
      'made_by_run.txt': before['template.txt'],
      'util.txt': undefined,
      'old_name.txt': undefined,
    },
    'the three turns created, edited, deleted and renamed',
  );

  // The user edits the file the agent created, through the editor, and saves it.
  await openFile('pkg/created.txt');
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('mine: ');
  await page.keyboard.press('Control+s');
  const created = path.join(workspace, 'pkg', 'created.txt');
  await until(page, 20_000, () => fs.readFileSync(created, 'utf8').startsWith('mine: '));
  const mine = fs.readFileSync(created, 'utf8');
  assert.equal(mine, 'mine: created in turn two\n', "the user's edit is saved");
  await screenshot('user-edit');
  beforeRewind = digests(workspace, '.git', '.agentls');
  // main.txt open in an editor, as a user watching the agent has it: the rewind's edit of it is on its undo stack.
  await openFile('main.txt');

  // Restore on the first user message (the chat is still in the side bar: a click on its icon would hide it).
  const sidebarTitle = page.locator('.part.sidebar .composite.title h2').first();
  if (!/agentls/i.test(await sidebarTitle.innerText())) await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const dialog = await restoreDialog('turn one');
  await screenshot('restore-dialog');
  await dialog.locator('.monaco-button', { hasText: /^Restore$/ }).click();

  // The user's file: a conflict, shown, and left as the user wrote it.
  const conflict = page.locator('.notification-toast', { hasText: 'changed by someone else' });
  await conflict.waitFor();
  assert.match(await conflict.innerText(), /pkg\/created\.txt/);
  await screenshot('restored-conflict');
  // Every other path as before turn 1, byte for byte.
  await workspaceBecomes({ ...before, 'pkg/created.txt': sha(mine) }, 'after the rewind every path but the conflict is as before turn 1');
  assert.equal(fs.readFileSync(created, 'utf8'), mine, "the user's file is untouched");
  assert.deepEqual(gitState(), gitBefore, '.git (index, refs, objects, every file) is unchanged');

});

// The rewind is one workspace/applyEdit (server/rewind_test.go proves it on the wire): its file
// operations first, then every text edit in one run. VS Code applies an edit as runs of one kind,
// each run one undo element of the edit's undo group; one run of text edits over several files is
// one multi-file element, which VS Code reopens closed files for on Undo. (Text edits split by file
// operations were one element per file, and that of a closed file — util.txt, re-created and saved —
// is dropped once its model is disposed: Ctrl+Z then stopped there and undid nothing.)
test('one Undo in the editor brings the rewound state back', async () => {
  assert.ok(Object.keys(beforeRewind).length > 0, 'the rewind test ran first');
  // Ctrl+Z in main.txt (open in an editor before the Restore) undoes the whole rewind: its text,
  // the re-created, deleted and renamed-back files. No dialog: the edit is one undo group.
  await page.locator('.tab[aria-label^="main.txt"]').click();
  await page.locator('.monaco-editor .view-line', { hasText: /^hello$/ }).first().waitFor();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+z');
  await page.locator('.monaco-editor .view-line', { hasText: /^hello,\sturn\sthree$/ }).first().waitFor();
  await workspaceBecomes({ ...beforeRewind, 'main.txt': sha('hello\n') }, 'one Undo brought the files back (main.txt is not saved yet)');
  await screenshot('undone-by-ctrl-z');
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'the Undo asked nothing');
  // The undone text is in the editor, not yet saved, as after any Undo: the user saves.
  await runCommand('File: Save All Files');
  await workspaceBecomes(beforeRewind, 'one Undo brought the rewound state back');
  assert.deepEqual(gitState(), gitBefore, '.git is still unchanged');
  await screenshot('undone-saved');
});

// A rewind whose only text edit is a file not open in an editor (plus a file operation): VS Code
// drops that file's single-file undo element once the file is saved and closed, and revalidates it
// when the file is opened again with the same content (docs/rewind.md, "Undo"). Opening the file
// and pressing Ctrl+Z there undoes the whole rewind.
test('a rewind whose only text edit is a closed file: open it, then one Undo brings the rewound state back', async () => {
  const start = digests(workspace, '.git', '.agentls');
  await turn('turn four', 'Turn four done.');
  const turnFour = { ...start, 'notes.txt': sha('notes, turn four\n'), 'extra.txt': sha('extra\n') };
  await workspaceBecomes(turnFour, 'turn four edited notes.txt and created extra.txt');
  assert.equal(await page.locator('.tab[aria-label^="notes.txt"]').count(), 0, 'notes.txt is not open in an editor');

  await (await restoreDialog('turn four')).locator('.monaco-button', { hasText: /^Restore$/ }).click();
  await workspaceBecomes(start, 'the rewind brought notes.txt back and deleted extra.txt');
  await screenshot('closed-file-rewound');

  await openFile('notes.txt');
  await page.locator('.monaco-editor .view-line', { hasText: /^notes$/ }).first().waitFor();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+z');
  await page.locator('.monaco-editor .view-line', { hasText: /^notes,\sturn\sfour$/ }).first().waitFor();
  await workspaceBecomes({ ...turnFour, 'notes.txt': sha('notes\n') }, 'one Undo re-created extra.txt (notes.txt is not saved yet)');
  await screenshot('closed-file-undone');
  await page.keyboard.press('Control+s');
  await workspaceBecomes(turnFour, 'one Undo brought the rewound state back');
  assert.deepEqual(gitState(), gitBefore, '.git is still unchanged');
});

// After a Restore a notification says what came back, with "Undo": a code rewind to the
// checkpoint taken just before it (its undoMessageId), for a user who did not press Ctrl+Z in time.
test('"Undo" in the notification after a Restore puts the files back', async () => {
  const start = digests(workspace, '.git', '.agentls');
  // The earlier Restores' notifications away, so that the one looked for is this Restore's.
  await runCommand('Notifications: Clear All Notifications');
  await page.locator('.notification-toast').first().waitFor({ state: 'detached' });

  await turn('turn five', 'Turn five done.');
  const turnFive = { ...start, 'notes.txt': sha('notes, turn five\n'), 'five.txt': sha('five\n') };
  await workspaceBecomes(turnFive, 'turn five edited notes.txt and created five.txt');

  await (await restoreDialog('turn five')).locator('.monaco-button', { hasText: /^Restore$/ }).click();
  await workspaceBecomes(start, 'the Restore brought notes.txt back and deleted five.txt');
  const toast = page.locator('.notification-toast', { hasText: '2 files restored' });
  await toast.waitFor();
  assert.match(await toast.innerText(), /Undo puts the files back; the conversation stays\./);
  const undo = toast.locator('.monaco-button', { hasText: /^Undo$/ });
  await undo.waitFor();
  assert.ok(await undo.isVisible(), 'the Undo button is in view');
  await screenshot('undo-rewind-offered');

  await undo.click();
  await workspaceBecomes(turnFive, 'the button put the files back as they were before the Restore');
  assert.deepEqual(gitState(), gitBefore, '.git is still unchanged');
  await screenshot('undo-rewind-done');
});

function sha(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}
