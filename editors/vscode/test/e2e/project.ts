// A project in a real code-server for the editor's-truth tests: the
// TypeScript one (intelUntabbed.test.ts, intelFallback.test.ts): greet.ts, and
// main.ts with a type error on line 3 from before any edit (never to be
// reported as new), served by code-server's built-in TypeScript support; and
// any other files with more extensions (intelFirstLook.test.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before } from 'node:test';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { chatFrame, clickAsAPerson, type CodeServer, codeServerBinary, openWorkbench, smallWindowChat, startCodeServer, testFolder } from './harness';

/** The running project: its folder, code-server and the workbench page. */
export interface Project {
  workspace: string;
  server: CodeServer;
  browser: Browser;
  page: Page;
  stop(): Promise<void>;
}

/** Writes the TypeScript project, starts code-server with the scripted model `fixture` (test/e2e/fixtures), `settings` and `moreVsix`, and opens it. */
export async function startTypeScriptProject(name: string, fixture: string, out: string, settings: Record<string, unknown> = {}, moreVsix: string[] = []): Promise<Project> {
  return startProject(name, fixture, out, {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'commonjs' } }, null, 2),
    'greet.ts': "export function greet(name: string): string {\n  return 'hello ' + name;\n}\n",
    // Line 3's error is there before any edit: never reported as new.
    'main.ts': "import { greet } from './greet';\n\nconst count: number = 'many';\nconsole.log(greet('x'), count);\n",
  }, settings, moreVsix);
}

/**
 * Writes `files` (name → text or bytes) into a new project folder, starts code-server
 * with agentls's .vsix and `moreVsix`, the scripted model `fixture`
 * (test/e2e/fixtures; null: no scripted model, `settings` name one) and `settings`, and opens the folder.
 */
export async function startProject(name: string, fixture: string | null, out: string, files: Record<string, string | Buffer>, settings: Record<string, unknown> = {}, moreVsix: string[] = []): Promise<Project> {
  const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const bin = codeServerBinary();
  const data = testFolder(`agentls-vscode-${name}-`);
  const workspace = path.join(data, 'project');
  fs.mkdirSync(workspace);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(workspace, file), text);
  const server = await startCodeServer(
    bin,
    vsix,
    data,
    {
      ...(fixture === null ? {} : { 'agentls.model.provider': 'scripted', 'agentls.model.script': path.resolve('test', 'e2e', 'fixtures', fixture) }),
      'agentls.serverArgs': ['--log-file', path.join(out, 'agentls.log')],
      'files.autoSave': 'off',
      ...settings,
    },
    path.join(out, 'code-server.log'),
    moreVsix,
  );
  let opened: { browser: Browser; page: Page };
  try {
    opened = await openWorkbench(server, workspace);
  } catch (err) {
    await server.stop();
    throw err;
  }
  const { browser, page } = opened;
  return {
    workspace,
    server,
    browser,
    page,
    stop: async () => {
      await browser.close();
      await server.stop();
    },
  };
}

/** startProject, then the agentls chat shown and switched to BUILD mode (the run sentinel's tests). */
export async function startBuildProject(name: string, fixture: string, out: string, files: Record<string, string | Buffer>): Promise<Project> {
  const project = await startProject(name, fixture, out, files);
  try {
    const chat = chatFrame(project.page);
    await project.page.locator('.activitybar [aria-label^="agentls"]').first().click();
    await chat.locator('.mode-tab.build').click();
    await chat.locator('.mode-tab.build[aria-selected="true"]').waitFor();
  } catch (err) {
    await project.stop();
    throw err;
  }
  return project;
}

/**
 * The project of a test file in a small window: startProject with app.txt and the scripted model
 * `fixture`, started before the file's tests and stopped after them. The function returned shows
 * its chat as smallWindowChat does (1024×640, a 300 px side bar) and gives the page, the chat's
 * frame and its composer.
 */
export function smallWindowProject(name: string, fixture: string, out: string): () => Promise<{ page: Page; chat: FrameLocator; prompt: Locator }> {
  let project: Project | undefined;
  before(async () => {
    project = await startProject(name, fixture, out, { 'app.txt': 'alpha\n' });
  });
  after(async () => {
    await project?.stop();
  });
  return async () => {
    const { page } = project!;
    return { page, ...(await smallWindowChat(page)) };
  };
}

/** Packages the extension in test/e2e/fixtures/`name` with vsce into `out`; returns the .vsix. */
export function packageFixtureExtension(name: string, out: string): string {
  const vsix = path.join(out, `${name}.vsix`);
  const vsce = path.resolve('node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix], {
    cwd: path.resolve('test', 'e2e', 'fixtures', name),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return vsix;
}

/** Opens a workspace file in an editor through Quick Open. */
export async function openFile(page: Page, rel: string): Promise<void> {
  await page.keyboard.press('Control+p');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(rel);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: rel }).first().waitFor();
  await input.press('Enter');
  await page.locator(`.tab[aria-label^="${rel}"]`).waitFor();
}

/** Bytes as text a person can read in a failure: \r, \n and bytes above 0x7e escaped. */
export function shownBytes(b: Buffer | undefined): string {
  if (!b) return '(no file)';
  return Array.from(b, (c) => (c === 0x0d ? '\\r' : c === 0x0a ? '\\n' : c < 0x20 || c > 0x7e ? `\\x${c.toString(16).padStart(2, '0')}` : String.fromCharCode(c))).join('');
}

/** The labels of the editor tabs showing. */
export async function tabLabels(page: Page): Promise<string[]> {
  return page.locator('.tabs-container .tab').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('aria-label') ?? ''));
}

/**
 * Asks the agent to greet someone else from the chat, accepts the plan and
 * waits for the turn's end ("Done: the greeting changed"); a turn the scripted
 * model's expectations stopped fails the test with its notice (and out/failed.png).
 */
export function greetAndBuild(page: Page, out: string): Promise<void> {
  return promptAndBuild(page, out, 'Greet someone else.', 'Done: the greeting changed');
}

/**
 * Sends `text` from the chat, accepts the plan and waits for the turn's end
 * (an answer holding `done`); a turn the scripted model's expectations stopped
 * fails the test with its notice (and out/failed.png).
 */
export async function promptAndBuild(page: Page, out: string, text: string, done: string): Promise<void> {
  const chat = chatFrame(page);
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat.locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill(text);
  await prompt.press('Enter');

  const approval = chat.locator('form.question-bar.approval');
  await approval.waitFor({ timeout: 120_000 });
  await clickAsAPerson(approval.locator('button', { hasText: 'Accept & Build' }));

  const answer = chat.locator('.msg.assistant', { hasText: done });
  const failed = chat.locator('.notice.error');
  await answer.or(failed).first().waitFor({ timeout: 120_000 });
  if (await failed.count()) {
    await page.screenshot({ path: path.join(out, 'failed.png') });
    assert.fail(`the turn stopped: ${await failed.first().innerText()}`);
  }
}

/**
 * The breaking edit's (tool call e1) problems block in the chat: exactly one
 * new problem, TypeScript's error of main.ts line 4, drawn as an error (line
 * 3's was there before: never new). Returns the block and its one row.
 */
export async function expectOneNewTypeError(chat: FrameLocator): Promise<{ block: Locator; row: Locator }> {
  const block = chat.locator('.tool-row:has(details.tool[data-tool-id="e1"]) .problems');
  await block.waitFor();
  assert.equal(await block.locator('.problems-heading').innerText(), '1 new problem');
  const row = block.locator('.problem');
  assert.equal(await row.count(), 1, 'the error of line 3 was there before: not new');
  assert.match(await row.innerText(), /main\.ts:4 Argument of type 'number' is not assignable to parameter of type 'string'\. \(ts 2345\)/);
  assert.equal(await row.locator('.codicon-error').count(), 1);
  return { block, row };
}
