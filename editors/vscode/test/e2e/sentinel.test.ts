// The run sentinel end to end in a real VS Code (code-server in Debian's
// Chromium, the packaged .vsix, the real agentls binary, the scripted model of
// fixtures/sentinel.yaml): an approved command writes .envrc, which the
// sandbox cannot keep read-only since it did not exist. After the command the
// chat's question bar asks "Keep what `…` did (created .envrc)?", naming the
// file in a code span and why; Remove (restore) takes the file away, Keep
// leaves it. A screenshot per moment goes to the test output folder
// (e2e-sentinel).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { answered, chatFrame, outputDir } from './harness';
import { type Project, startBuildProject } from './project';

const out = outputDir('e2e-sentinel');
let project: Project;
let page: Page;
let workspace: string;

const chat = (): FrameLocator => chatFrame(page);
const envrc = (): string => path.join(workspace, '.envrc');

async function screenshot(name: string): Promise<void> {
  await page.mouse.move(700, 450); // away from hovers
  await page.screenshot({ path: path.join(out, `${name}.png`) });
}

/** Sends prompt, allows the command when asked, and returns the question asked after it ran. */
async function commandThenQuestion(prompt: string, name: string): Promise<Locator> {
  const box = chat().locator('textarea.prompt');
  await box.fill(prompt);
  await box.press('Enter');
  const run = chat().locator('form.question-bar', { hasText: "printf 'export X=1" });
  await run.waitFor({ timeout: 120_000 });
  await run.locator('button', { hasText: /^Run$/ }).click();
  const bar = chat().locator('form.question-bar', { hasText: 'Keep what' });
  await bar.waitFor({ timeout: 120_000 });
  await screenshot(name);
  const said = (await bar.innerText()).replace(/\s+/g, ' ');
  assert.match(said, /Keep what .*printf 'export X=1\\n' > \.envrc.* did/, said);
  assert.ok(said.includes('.envrc: created') || said.includes('.envrc : created'), `the question names the file: ${said}`);
  assert.ok(said.includes("outside agentls's sandbox"), `the question says why: ${said}`);
  assert.equal(await bar.locator('code', { hasText: '.envrc' }).count() > 0, true, 'the file is in a code span');
  assert.ok(await bar.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight + 1;
  }), 'the whole question is in view');
  assert.equal(fs.existsSync(envrc()), true, 'the command ran before the question');
  return bar;
}

before(async () => {
  project = await startBuildProject('sentinel', 'sentinel.yaml', out, { 'app.txt': 'alpha\n' });
  ({ workspace, page } = project);
});

after(async () => {
  await project?.stop();
});

test("after a command that wrote .envrc, the question bar asks whether to keep it; Remove (restore) takes it away", async () => {
  const bar = await commandThenQuestion('Set up direnv.', '01-asked');
  await bar.locator('button', { hasText: 'Remove (restore)' }).click();
  await answered(page, 'Turn one: the .envrc is gone.', () => screenshot('02-removed-failed'));
  await screenshot('02-removed');
  assert.equal(fs.existsSync(envrc()), false, 'Remove took the file away');
});

test('the same command again: Keep leaves the file as the command wrote it', async () => {
  const bar = await commandThenQuestion('Once more.', '03-asked-again');
  await bar.locator('button', { hasText: /^Keep$/ }).click();
  await answered(page, 'Turn two: the .envrc stays.', () => screenshot('04-kept-failed'));
  await screenshot('04-kept');
  assert.equal(fs.readFileSync(envrc(), 'utf8'), 'export X=1\n');
});
