// End to end in a real VS Code (code-server in Debian's Chromium): while a
// `run` command runs, its newest output line shows in the chat under the
// running call's row (tool_call_update in_progress, which the extension asks
// for with experimental.agent.toolCallProgress), replaced by the next line —
// shown as text even when it looks like HTML or markdown — and gone when the
// call ends, whose row then reads as its summary. The command waits on files
// the test makes once it saw each line, not on a clock. A screenshot per
// moment goes to the test output folder (e2e-live-output).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { chatFrame, outputDir } from './harness';
import { startProject, type Project } from './project';

const out = outputDir('e2e-live-output');
const hostile = '<img src=x onerror=alert(1)> **bold** [link](http://x)';
// Each wait gives up after two minutes, so a failed test leaves no command behind.
const build = `echo compiling
i=0; while [ ! -e go1 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
echo '${hostile}'
i=0; while [ ! -e go2 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
echo done
`;
let project: Project;
let page: Page;

const chat = (): FrameLocator => chatFrame(page);

before(async () => {
  project = await startProject('live-output', 'live-output.yaml', out, { 'build.sh': build }, { 'agentls.run.allow': ['sh build.sh'] });
  ({ page } = project);
});

after(async () => {
  await project?.stop();
});

async function screenshot(name: string): Promise<void> {
  await page.mouse.move(700, 450); // away from hovers
  await page.screenshot({ path: path.join(out, `${name}.png`) });
}

test("a running command's newest output line shows under its row, as text, until the call ends", async () => {
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  await chat().locator('.mode-tab.build').click();
  await chat().locator('.mode-tab.build[aria-selected="true"]').waitFor();
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill('Build it.');
  await prompt.press('Enter');

  const row = chat().locator('details.tool[data-tool-id="r1"]');
  const line = chat().locator('.tool-row:has(details.tool[data-tool-id="r1"]) > .tool-progress');
  await line.filter({ hasText: 'compiling' }).waitFor({ timeout: 60_000 });
  assert.match(await row.getAttribute('class') ?? '', /status-in_progress/, 'the call still runs');
  assert.equal(await line.isVisible(), true);
  await screenshot('01-running-first-line');

  // The next line replaces it, literally: no markup made of it.
  fs.writeFileSync(path.join(project.workspace, 'go1'), '');
  await line.filter({ hasText: '**bold**' }).waitFor({ timeout: 60_000 });
  assert.equal(await line.count(), 1);
  assert.equal(await line.evaluate((e) => e.textContent), hostile);
  assert.equal(await line.evaluate((e) => e.childElementCount), 0, 'a text node only');
  assert.equal(await chat().locator('main.messages img, main.messages strong').count(), 0);
  assert.equal(await line.isVisible(), true);
  assert.ok(await line.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const s = document.querySelector('main.messages')!.getBoundingClientRect();
    return r.bottom <= s.bottom + 1 && r.top >= s.top;
  }), 'the newest line is in view');
  await screenshot('02-running-hostile-line');

  // The end: the line goes, the row reads as its summary.
  fs.writeFileSync(path.join(project.workspace, 'go2'), '');
  const answer = chat().locator('.msg.assistant', { hasText: 'Built.' });
  const failed = chat().locator('.notice.error');
  await answer.or(failed).first().waitFor({ timeout: 60_000 });
  assert.equal(await failed.count(), 0, 'the scripted model saw the command end well');
  assert.equal(await chat().locator('main.messages .tool-progress').count(), 0);
  assert.equal((await row.locator(':scope > summary .tool-title').innerText()).replace(/\s+/g, ' ').trim(), 'Ran sh build.sh ✓ (exit 0)');
  await screenshot('03-ended');
});
