// The run sentinel's long question end to end in a real VS Code (code-server in
// Debian's Chromium, the packaged .vsix, the real agentls binary, the scripted
// model of fixtures/autorun-document.yaml): an approved command makes a new
// repository with 30 hooks, too many for the question to list itself
// (permission.DocLines). The chat's question bar asks "Keep what `…` did
// (created …, …, … and N more)?" and says where the whole list is; that
// generated document (questions/autorun-<hash>.md in the state folder) is open
// in an editor tab at the same time, every change in it (its first and its
// last line on screen). Remove (restore) takes the hooks away; in a second
// turn Keep keeps them. A screenshot per moment goes to the test output folder
// (e2e-autorun-document).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { answered, chatFrame, outputDir } from './harness';
import { type Project, startBuildProject } from './project';

const out = outputDir('e2e-autorun-document');
const hooks = 30;
let project: Project;
let page: Page;
let workspace: string;

const chat = (): FrameLocator => chatFrame(page);
const hook = (repo: string, i: number): string => path.join(workspace, repo, '.git', 'hooks', `h${i}`);
/** How many of the command's hooks are on disk in repository `repo`. */
const hooksOnDisk = (repo: string): number => Array.from({ length: hooks }, (_, i) => hook(repo, i + 1)).filter((f) => fs.existsSync(f)).length;

async function screenshot(name: string): Promise<void> {
  await page.mouse.move(700, 450); // away from hovers
  await page.screenshot({ path: path.join(out, `${name}.png`) });
}

/** The text the editor of the document tab shows now (Monaco draws only the lines in view). */
async function editorText(): Promise<string> {
  return page.locator('.editor-group-container.active .monaco-editor .view-lines').innerText();
}

/** Waits until the active editor shows the line `want` (Monaco draws spaces as no-break spaces). */
async function shown(want: string): Promise<void> {
  await page.waitForFunction(
    (w) => Array.from(document.querySelectorAll('.editor-group-container.active .view-lines')).some((el) => (el as HTMLElement).innerText.replace(/\u00a0/g, ' ').split('\n').includes(w)),
    want,
    { timeout: 20_000 },
  );
}

/**
 * Sends prompt, allows the command when asked, and checks what a person sees
 * after it ran: the question bar (title with three changes "and 27 more", the
 * document named, both buttons) and, at the same time, the document in an
 * editor tab listing every hook. Returns the question bar.
 */
async function commandThenQuestion(prompt: string, repo: string, name: string): Promise<Locator> {
  const box = chat().locator('textarea.prompt');
  await box.fill(prompt);
  await box.press('Enter');
  const run = chat().locator('form.question-bar', { hasText: `git init -q ${repo} ` });
  await run.waitFor({ timeout: 120_000 });
  await run.locator('button', { hasText: /^Run$/ }).click();
  const bar = chat().locator('form.question-bar', { hasText: 'Keep what' });
  await bar.waitFor({ timeout: 120_000 });
  const said = (await bar.innerText()).replace(/\s+/g, ' ');
  // The title: three changes, then how many more.
  const h = (i: number): string => `created ${repo}/.git/hooks/h${i}`;
  assert.ok(said.includes(`${h(1)}, ${h(10)}, ${h(11)} and 27 more`), `the title names three changes and how many more: ${said}`);
  assert.ok(said.includes(`Keep what the command git init -q ${repo} && `) && said.includes(' did to files your editor or shell runs by itself?'), said);
  const doc = /in full in (\S+\/questions\/autorun-[0-9a-f]+\.md) \(opened beside this question\)/.exec(said)?.[1];
  assert.ok(doc, `the question says where the whole list is: ${said}`);
  assert.ok(!said.includes(`${repo}/.git/hooks/h17`), `the question lists the hooks itself: ${said}`);
  await bar.locator('button', { hasText: 'Remove (restore)' }).waitFor();
  await bar.locator('button', { hasText: /^Keep$/ }).waitFor();
  // In the side bar the question opens at its start: the head, the changes' line (its
  // permission box, which scrolls inside itself when the room is short) and the question's first
  // line under it, nothing scrolled, and its buttons in view at the bottom.
  const fit = await bar.evaluate((el) => {
    const rect = (sel: string): DOMRect => el.querySelector(sel)!.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return {
      scrollTop: el.scrollTop, permissionScrollTop: el.querySelector('.permission')!.scrollTop,
      barTop: r.top, barBottom: r.bottom, headBottom: rect('.bar-head').bottom,
      whatTop: rect('.permission-what').top, textTop: rect('.question-text').top,
      buttonsTop: rect('.buttons').top, buttonsBottom: rect('.buttons').bottom,
      textCut: Math.max(...Array.from(el.querySelectorAll('.question-text, .question-text *'), (n) => (n as HTMLElement).scrollWidth - (n as HTMLElement).clientWidth)),
    };
  });
  assert.ok(fit.scrollTop === 0 && fit.permissionScrollTop === 0, `the question opens at its start, nothing scrolled: ${JSON.stringify(fit)}`);
  for (const [part, top] of [['the changes', fit.whatTop], ["the question's first line", fit.textTop]] as const) {
    assert.ok(top >= fit.headBottom - 1 && top < fit.buttonsTop, `${part} under the head, above the buttons: ${JSON.stringify(fit)}`);
  }
  assert.ok(fit.buttonsTop >= fit.barTop && fit.buttonsBottom <= fit.barBottom + 1, `the buttons are in view: ${JSON.stringify(fit)}`);
  assert.ok(fit.textCut <= 1, `the question's text wraps inside the card (the document's path ran past its edge): ${JSON.stringify(fit)}`);

  // The document, opened beside the question while it is asked: its tab active, its text on screen.
  const tab = page.locator(`.tabs-container .tab.active[aria-label^="${path.basename(doc)}"]`);
  await tab.waitFor({ timeout: 20_000 }).catch(async (err: unknown) => {
    await screenshot(`${name}-no-document`);
    throw err;
  });
  const body = fs.readFileSync(doc, 'utf8');
  const listed = body.split('\n').filter((l) => l.startsWith(`- \`${repo}/.git/hooks/h`));
  assert.equal(listed.length, hooks, `the document lists every hook:\n${body}`);
  for (let i = 1; i <= hooks; i++) assert.ok(body.includes(`- \`${repo}/.git/hooks/h${i}\`: created`), `the document lacks h${i}:\n${body}`);
  const [first, last] = [listed[0], listed[listed.length - 1]];
  await shown(first).catch(async (err: unknown) => {
    await screenshot(`${name}-start-failed`);
    throw new Error(`the document does not show ${first}: ${await editorText()} (${String(err)})`);
  });
  // Side by side: the question bar in the chat, left of the document's editor, neither over the other.
  const [q, ed] = [await bar.boundingBox(), await page.locator('.editor-group-container.active .monaco-editor').boundingBox()];
  assert.ok(q && ed && q.width > 0 && ed.width > 0, 'the question and the document are both on screen');
  assert.ok(q.x + q.width <= ed.x + 1, `the question (${JSON.stringify(q)}) is beside the document (${JSON.stringify(ed)}), not under it`);
  await screenshot(name);
  // The last change: at the document's end (Ctrl+End in its editor).
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
  await page.keyboard.press('Control+End');
  await shown(last).catch(async (err: unknown) => {
    await screenshot(`${name}-end-failed`);
    throw new Error(`the document's end does not show ${last}: ${await editorText()} (${String(err)})`);
  });
  assert.ok(await bar.isVisible(), 'the question is still shown after scrolling the document');
  await screenshot(`${name}-end`);
  assert.equal(hooksOnDisk(repo), hooks, 'the command ran before the question');
  return bar;
}

/** Closes every editor tab (Close All Editors), so the next question must open the document again. */
async function closeEditors(): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill('>View: Close All Editors');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Close All Editors' }).first().waitFor();
  await input.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('.tabs-container .tab').length === 0, undefined, { timeout: 10_000 });
}

before(async () => {
  project = await startBuildProject('autorun-document', 'autorun-document.yaml', out, { 'app.txt': 'alpha\n' });
  ({ workspace, page } = project);
});

after(async () => {
  await project?.stop();
});

test('a command that made 30 hooks: the question names three "and 27 more", the document beside it lists all 30; Remove (restore) takes them away', async () => {
  const bar = await commandThenQuestion('Add hooks.', 'sub', '01-asked');
  await bar.locator('button', { hasText: 'Remove (restore)' }).click();
  await answered(page, 'Turn one: the hooks are gone.', () => screenshot('02-removed-failed'));
  await screenshot('02-removed');
  assert.equal(hooksOnDisk('sub'), 0, 'Remove took the hooks away');
});

test('the same in a second repository: its document opens beside the question; Keep leaves the hooks', async () => {
  await closeEditors();
  const bar = await commandThenQuestion('Once more.', 'sub2', '03-asked-again');
  await bar.locator('button', { hasText: /^Keep$/ }).click();
  await answered(page, 'Turn two: the hooks stay.', () => screenshot('04-kept-failed'));
  await screenshot('04-kept');
  assert.equal(hooksOnDisk('sub2'), hooks, 'Keep kept every hook');
  assert.equal(fs.readFileSync(hook('sub2', hooks), 'utf8'), 'x\n');
});
