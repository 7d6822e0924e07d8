// The honest fallback, end to end in a real code-server (docs/language-intel.md):
// when tsserver does not answer the extension's typescript.tsserverRequest for
// a TypeScript file in no tab (here TypeScript runs syntax-only,
// typescript.tsserver.useSyntaxServer "always", and refuses the semantic
// request), the extension answers VS Code's list for the version before the
// current one: the edit's result and its block say the diagnostics did not
// settle, where main's extension called the broken file clean.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { chatFrame, outputDir } from './harness';
import { greetAndBuild, startTypeScriptProject, tabLabels, type Project } from './project';

const out = outputDir('e2e-intel-fallback');
let project: Project;
let page: Page;

const chat = (): FrameLocator => chatFrame(page);

before(async () => {
  project = await startTypeScriptProject('intel-fallback', 'intel-fallback.yaml', out, { 'typescript.tsserver.useSyntaxServer': 'always' });
  ({ page } = project);
});

after(async () => {
  await project?.stop();
});

test('tsserver cannot answer for a file in no tab: the edit is not called clean, its problems not settled', async () => {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'main.ts' }).waitFor();
  // The scripted model's expectation (the edit's result not settled) fails the turn with a notice.
  await greetAndBuild(page, out);

  const block = chat().locator('.tool-row:has(details.tool[data-tool-id="e1"]) .problems');
  await block.waitFor();
  assert.equal(await block.locator('.problems-heading').innerText(), 'No new problems');
  assert.match(await block.locator('.problems-note').innerText(), /had not settled in time/);
  await block.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(out, 'edit-not-settled.png') });
  const tabs = await tabLabels(page);
  assert.deepEqual(tabs.filter((l) => l.startsWith('main.ts')), [], `no tab for main.ts: ${JSON.stringify(tabs)}`);
});
