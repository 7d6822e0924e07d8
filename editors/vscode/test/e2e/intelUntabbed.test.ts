// TypeScript's problems of a file the user never opened, end to end in a real
// VS Code (code-server in Debian's Chromium; docs/language-intel.md). VS
// Code's TypeScript support checks only the documents shown in a tab
// (bufferSyncSupport.ts shouldValidate), so getDiagnostics of main.ts, edited
// by the agent without a tab, never holds TypeScript's problems: the
// extension asks tsserver itself through typescript.tsserverRequest. The
// edit's type error comes back as the one new problem (main.ts's error of
// line 3 was there before: in the baseline, not new), the tick is refused
// until the model fixed it, and no tab was opened for main.ts. The extension
// host is held busy at each change of main.ts (fixtures/busy-host, as on CI's
// two loaded cores): the edit's save then reaches VS Code after its 800 ms
// check for unsaved files without an editor, which opens one for main.ts
// (src/selfOpenedTabs.ts closes it).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { chatFrame, outputDir } from './harness';
import { expectOneNewTypeError, greetAndBuild, packageFixtureExtension, startTypeScriptProject, tabLabels as tabsOf, type Project } from './project';

const out = outputDir('e2e-intel-untabbed');
let project: Project;
let page: Page;
let workspace: string;

const chat = (): FrameLocator => chatFrame(page);
const tabLabels = () => tabsOf(page);

before(async () => {
  project = await startTypeScriptProject('intel-untabbed', 'intel-untabbed.yaml', out, {}, [packageFixtureExtension('busy-host', out)]);
  ({ page, workspace } = project);
});

after(async () => {
  await project?.stop();
});

test("TypeScript's problems of a file in no tab: the edit's type error is new, the old one is not, the tick refused until fixed, no tab opened", async () => {
  // No file open: TypeScript has checked nothing (and may not even have started).
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'main.ts' }).waitFor();
  assert.deepEqual((await tabLabels()).filter((l) => l.startsWith('main.ts')), []);

  // The scripted model's expectations fail the turn with a notice (e.g. an edit result without the error).
  await greetAndBuild(page, out);

  // The breaking edit's row: exactly one new problem, TypeScript's error of line 4 (line 3's was there before).
  const { block } = await expectOneNewTypeError(chat());
  const edit = (await chat().locator('details.tool[data-tool-id="e1"] pre.tool-io').last().textContent()) ?? '';
  assert.doesNotMatch(edit, /Type 'string' is not assignable to type 'number'/, `the old error is not in the edit's result: ${edit}`);
  await block.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(out, 'edit-problems.png') });

  // The tick was refused naming it; the fix had none new; the second tick went through.
  assert.equal(await chat().locator('details.tool.status-failed[data-tool-id="t1"]').count(), 1, 'the first tick refused');
  const refusal = (await chat().locator('details.tool[data-tool-id="t1"] pre.tool-io').last().textContent()) ?? '';
  assert.match(refusal, /main\.ts:4: error/);
  assert.doesNotMatch(refusal, /main\.ts:3/, 'the old error does not block the tick');
  assert.equal(await chat().locator('.tool-row:has(details.tool[data-tool-id="e2"]) .problems').count(), 0, 'the fix: no problems block');
  assert.match(fs.readFileSync(path.join(workspace, 'plans', 'greet.plan'), 'utf8'), /- \[x\] Change the greeting/);
  assert.match(fs.readFileSync(path.join(workspace, 'main.ts'), 'utf8'), /greet\('y'\)/);

  // The user's layout is untouched: main.ts was read and edited without a tab.
  const tabs = await tabLabels();
  assert.deepEqual(tabs.filter((l) => l.startsWith('main.ts')), [], `no tab for main.ts: ${JSON.stringify(tabs)}`);
});
