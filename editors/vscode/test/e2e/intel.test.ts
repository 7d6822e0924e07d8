// The editor's truth end to end in a real VS Code (code-server in Debian's
// Chromium; docs/language-intel.md): a TypeScript workspace served by
// code-server's built-in TypeScript support, no extension to install. The
// extension declares experimental.agent.languageIntel and answers the
// server's agent/diagnostics and agent/navigate: the plan is built on
// TypeScript's definition, the edit's type error comes back in the same tool
// result (and under its tool row, linked), the tick is refused until the
// model fixed it; the error that was there before is never reported as new.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { chatFrame, clickAsAPerson, type CodeServer, codeServerBinary, openWorkbench, outputDir, startCodeServer, testFolder } from './harness';
import { expectOneNewTypeError } from './project';

const out = outputDir('e2e-intel');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
let server: CodeServer;
let browser: Browser;
let page: Page;
let workspace: string;

const chat = (): FrameLocator => chatFrame(page);

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const bin = codeServerBinary();
  const data = testFolder('agentls-vscode-intel-');
  workspace = path.join(data, 'project');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'commonjs' } }, null, 2));
  fs.writeFileSync(path.join(workspace, 'greet.ts'), "export function greet(name: string): string {\n  return 'hello ' + name;\n}\n");
  // Line 3's error is there before any edit: never reported as new.
  fs.writeFileSync(path.join(workspace, 'main.ts'), "import { greet } from './greet';\n\nconst count: number = 'many';\nconsole.log(greet('x'), count);\n");
  server = await startCodeServer(
    bin,
    vsix,
    data,
    {
      'agentls.model.provider': 'scripted',
      'agentls.model.script': path.resolve('test', 'e2e', 'fixtures', 'intel.yaml'),
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

test("TypeScript's problems through the extension: the edit's type error in its result and under its row, tick refused until fixed", async () => {
  // main.ts open, with TypeScript's error of line 3 drawn (the user's state before the agent).
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'main.ts' }).dblclick();
  await page.locator('.tab[aria-label^="main.ts"]').waitFor();
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 120_000 });

  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill('Greet someone else.');
  await prompt.press('Enter');

  // Planned on TypeScript's definition (the code tool, answered by agent/navigate).
  const approval = chat().locator('form.question-bar.approval');
  await approval.waitFor({ timeout: 120_000 });
  const definition = (await chat().locator('details.tool[data-tool-id="d1"] pre.tool-io').last().textContent()) ?? '';
  assert.match(definition, /"path":\s*"greet\.ts"/, `the definition: ${definition}`);
  assert.match(definition, /"line":\s*1\b/, `the definition: ${definition}`);
  await clickAsAPerson(approval.locator('button', { hasText: 'Accept & Build' }));

  await chat().locator('.msg.assistant', { hasText: 'Done: the greeting changed' }).waitFor({ timeout: 120_000 });

  // The breaking edit's row: one new problem, VS Code's TypeScript error of line 4, linked.
  const { block, row } = await expectOneNewTypeError(chat());
  await block.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(out, 'edit-problems.png') });

  // The tick was refused naming it; the fix had none new; the second tick went through.
  assert.equal(await chat().locator('details.tool.status-failed[data-tool-id="t1"]').count(), 1, 'the first tick refused');
  const refusal = (await chat().locator('details.tool[data-tool-id="t1"] pre.tool-io').last().textContent()) ?? '';
  assert.match(refusal, /main\.ts:4: error/);
  // Why, under the refused tick's row (from the plan update sent with the refusal; the plan panel
  // showed it under the step until the next tick).
  const why = chat().locator('.tool-row:has(details.tool[data-tool-id="t1"]) .tick-refused');
  assert.equal((await why.locator('.problems-heading').innerText()).trim(), 'Not ticked: 1 new error');
  assert.match(await why.locator('.problem').innerText(), /main\.ts:4 Argument of type 'number'/);
  assert.equal(await chat().locator('.plan-panel .tick-refused').count(), 0, 'the accepted tick cleared the plan panel');
  assert.equal(await chat().locator('.tool-row:has(details.tool[data-tool-id="e2"])').count(), 0, 'the fix: no problems block');
  assert.match(fs.readFileSync(path.join(workspace, 'plans', 'greet.plan'), 'utf8'), /- \[x\] Change the greeting/);
  assert.match(fs.readFileSync(path.join(workspace, 'main.ts'), 'utf8'), /greet\('y'\)/);

  // The link opens the problem's line.
  await row.locator('a.problem-link').click();
  await page.locator('.tab.active[aria-label^="main.ts"]').waitFor();
  await page.screenshot({ path: path.join(out, 'problem-opened.png') });
});
