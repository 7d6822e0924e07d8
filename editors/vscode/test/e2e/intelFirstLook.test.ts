// The first look of a language support, end to end in a real VS Code
// (code-server in Debian's Chromium; docs/language-intel.md "VS Code"): a
// document the agent opens without showing it has no problems until its
// language support first looks at it, so the extension reports the version
// before its text until its problems first change (or 3 s passed), and the
// server waits. The language support is a real extension installed beside
// agentls (test/e2e/fixtures/slow-go-checker: a Go document's problems come
// 1.5 s after it is opened, 0.6 s after a change, as from gopls starting in a
// large module; code-server ships no Go checker). notes.go has a problem on
// line 4 before any edit; the agent's edit adds one on line 5: exactly that one
// is new. Without the rule the empty list before the first look was the
// baseline, and both came back as new.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { chatFrame, outputDir } from './harness';
import { packageFixtureExtension, promptAndBuild, startProject, tabLabels, type Project } from './project';

const out = outputDir('e2e-intel-first-look');
let project: Project;
let page: Page;
let workspace: string;

const chat = (): FrameLocator => chatFrame(page);

before(async () => {
  const checker = packageFixtureExtension('slow-go-checker', out);
  project = await startProject('intel-first-look', 'intel-first-look.yaml', out, { 'notes.go': 'package notes\n\nvar first = 1\nvar second = BAD\nvar third = 3\n' }, {}, [checker]);
  ({ page, workspace } = project);
});

after(async () => {
  await project?.stop();
});

test("a slow language support's first look: the edit's one new problem, the old one not new, no tab opened", async () => {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes.go' }).waitFor();
  assert.deepEqual((await tabLabels(page)).filter((l) => l.startsWith('notes.go')), []);

  // The scripted model's expectation (the edit's result holds the new problem, settled) fails the turn with a notice.
  await promptAndBuild(page, out, 'Use BAD for third.', 'Done: third uses BAD');

  const block = chat().locator('.tool-row:has(details.tool[data-tool-id="e1"]) .problems');
  await block.waitFor();
  await block.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(out, 'edit-problems.png') });
  assert.equal(await block.locator('.problems-heading').innerText(), '1 new problem');
  const rows = block.locator('.problem');
  assert.equal(await rows.count(), 1, 'line 4 had its problem before the edit: not new');
  assert.match(await rows.first().innerText(), /notes\.go:5 undefined: BAD \(slowcheck SC1\)/);
  const edit = (await chat().locator('details.tool[data-tool-id="e1"] pre.tool-io').last().textContent()) ?? '';
  assert.doesNotMatch(edit, /"line":4\b/, `the old problem is not in the edit's result: ${edit}`);
  assert.match(fs.readFileSync(path.join(workspace, 'notes.go'), 'utf8'), /third = BAD/);

  // The user's layout is untouched: notes.go was read and edited without a tab.
  const tabs = await tabLabels(page);
  assert.deepEqual(tabs.filter((l) => l.startsWith('notes.go')), [], `no tab for notes.go: ${JSON.stringify(tabs)}`);
});
