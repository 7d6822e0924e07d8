// The chat's layout in a real VS Code (code-server in Debian's Chromium, a
// 1400×900 window), with the packaged extension, the real server and the
// scripted model (fixtures/layout.yaml). It measures, not only finds: at each
// question, at approval and at the end of the turn the newest transcript line
// (and the agent's lead-in) is inside the transcript's visible box; at approval
// the transcript keeps ≥ 40 % of the chat's height; neither the workbench nor
// the chat overflows; scrolled up, new text leaves the transcript where it is
// and "Jump to latest" brings the end back; in a 300 px sidebar a markdown table
// and a long code block stay inside the view. A screenshot per moment goes to
// the test output folder; AGENTLS_UPDATE_SCREENSHOT=1 also writes the approval
// moment to media/screenshot.png (the README's picture).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { chatFrame, clickAsAPerson, type CodeServer, codeServerBinary, openWorkbench, outputDir, sidebarWidth, startCodeServer, testFolder } from './harness';

const out = outputDir('e2e-layout');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
let server: CodeServer;
let browser: Browser;
let page: Page;
let workspace: string;
let shot = 0;

async function screenshot(name: string): Promise<string> {
  shot++;
  const file = path.join(out, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

const chat = (): FrameLocator => chatFrame(page);

/** Where an element of the chat is, against the transcript's visible box (frame coordinates). */
interface InView {
  ok: boolean;
  why: string;
}

/** Whether the transcript's newest element, and the assistant message holding marker, are in view. */
async function newestInView(marker?: string): Promise<InView> {
  return chat().locator('main.messages').evaluate((el, mark) => {
    const box = el.getBoundingClientRect();
    const items = el.querySelectorAll(':scope > *');
    const last = items[items.length - 1] as HTMLElement | undefined;
    if (!last) return { ok: false, why: 'empty transcript' };
    const r = last.getBoundingClientRect();
    let ok = box.height > 0 && r.bottom <= box.bottom + 1 && r.bottom > box.top;
    let why = `newest ${last.className} bottom ${Math.round(r.bottom)}, transcript ${Math.round(box.top)}–${Math.round(box.bottom)}`;
    if (mark) {
      const lead = [...el.querySelectorAll('.msg.assistant')].find((m) => m.textContent?.includes(mark));
      const lr = lead?.getBoundingClientRect();
      const leadOk = !!lr && lr.bottom <= box.bottom + 1 && lr.bottom > box.top;
      ok &&= leadOk;
      why += `; lead-in ${mark} ${lr ? `${Math.round(lr.top)}–${Math.round(lr.bottom)}` : 'missing'}`;
    }
    return { ok, why };
  }, marker);
}

/** Neither the workbench page nor the chat overflows its window; the token footer is whole. */
async function noOverflow(): Promise<void> {
  const wb = await page.evaluate(() => {
    const d = document.documentElement;
    const w = document.querySelector('.monaco-workbench') as HTMLElement;
    return { sh: d.scrollHeight, ch: d.clientHeight, wsh: w.scrollHeight, wch: w.clientHeight };
  });
  assert.ok(wb.sh <= wb.ch && wb.wsh <= wb.wch, `the workbench does not overflow: ${JSON.stringify(wb)}`);
  const view = await chat().locator('body').evaluate(() => {
    const d = document.documentElement;
    const foot = document.querySelector('footer.usage')!.getBoundingClientRect();
    return { sh: d.scrollHeight, ch: d.clientHeight, sw: d.scrollWidth, cw: d.clientWidth, foot: foot.bottom, h: window.innerHeight };
  });
  assert.ok(view.sh <= view.ch && view.sw <= view.cw, `the chat does not overflow: ${JSON.stringify(view)}`);
  assert.ok(view.foot <= view.h, `the token footer is not cut: ${JSON.stringify(view)}`);
}

/** The transcript's share of the chat view's height. */
async function transcriptShare(): Promise<number> {
  return chat().locator('main.messages').evaluate((el) => el.getBoundingClientRect().height / window.innerHeight);
}

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const bin = codeServerBinary();
  const data = testFolder('agentls-vscode-layout-');
  workspace = path.join(data, 'project');
  const script = path.join(data, 'layout.yaml');
  fs.copyFileSync(path.resolve('test', 'e2e', 'fixtures', 'layout.yaml'), script);
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'app.txt'), 'alpha\n');
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

test('layout: the newest line in view at each question, at approval and at the end; ≥ 40 % transcript; no overflow; Jump to latest; a 300 px sidebar', async () => {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'app.txt' }).dblclick();
  await page.locator('.tab[aria-label^="app.txt"]').waitFor();
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  const width = await sidebarWidth(page, 420);
  assert.ok(Math.abs(width - 420) <= 4, `the chat is ${width} px wide`);
  await prompt.fill('Plan a greeter service.');
  await prompt.press('Enter');

  // 1. The four-field form: the lead-in and the newest row are in view with it.
  const form = chat().locator('form.question-bar', { hasText: 'Name of the service?' });
  await form.waitFor();
  await chat().locator('.msg.assistant', { hasText: 'LEAD-IN-FORM' }).waitFor();
  let v = await newestInView('LEAD-IN-FORM');
  assert.ok(v.ok, `at the form: ${v.why}`);
  await noOverflow();
  await screenshot('form');
  await form.locator('[data-field="name"] input').fill('greeter');
  await form.locator('[data-field="port"] textarea').fill('8080');
  await form.locator('[data-field="env"] label', { hasText: 'staging' }).click();
  await form.locator('[data-field="features"] label', { hasText: 'metrics' }).click();
  await form.locator('button.submit').click();

  // 2. The approval: the plan rendered once in the panel, the feedback above the buttons,
  // the transcript ≥ 40 % of the chat, its newest line and the lead-in in view, nothing overflowing.
  const approval = chat().locator('form.question-bar.approval');
  await approval.waitFor();
  await chat().locator('.msg.assistant', { hasText: 'LEAD-IN-APPROVAL' }).waitFor();
  await approval.locator('.plan-rendered h1', { hasText: 'Goal' }).waitFor(); // the plan's text, from the host
  await page.locator('.tab[aria-label^="greeter.plan"]').waitFor(); // the server opened the plan
  assert.equal(await approval.locator('.plan-rendered strong', { hasText: 'greeter' }).count(), 1, 'the plan is rendered markdown');
  assert.equal(await approval.locator('.plan-rendered li.task').count(), 5);
  assert.equal(await chat().locator('section.plan-panel').isVisible(), false, 'the steps are shown once, in the approval');
  const fb = (await approval.locator('[data-field="feedback"]').boundingBox())!;
  const buttons = (await approval.locator('.field-buttons .buttons').boundingBox())!;
  assert.ok(fb.y + fb.height <= buttons.y + 1, `the feedback box (${fb.y}) is above the buttons (${buttons.y})`);
  const share = await transcriptShare();
  assert.ok(share >= 0.4, `at approval the transcript keeps ${(share * 100).toFixed(1)} % of the chat`);
  v = await newestInView('LEAD-IN-APPROVAL');
  assert.ok(v.ok, `at approval: ${v.why}`);
  await noOverflow();
  const approvalShot = await screenshot('approval');
  if (process.env.AGENTLS_UPDATE_SCREENSHOT === '1') fs.copyFileSync(approvalShot, path.resolve('media', 'screenshot.png'));
  // The panel folds (and the transcript takes the room); unfolded again to approve.
  await approval.locator('.panel-head > button.panel-toggle').click();
  assert.equal(await approval.locator('.plan-rendered').isVisible(), false);
  assert.ok((await transcriptShare()) > share, 'folded, the approval gives its room to the transcript');
  assert.ok((await newestInView()).ok, 'folding keeps the newest line in view');
  await approval.locator('.panel-head > button.panel-toggle').press('Enter');
  await clickAsAPerson(approval.locator('button', { hasText: 'Accept & Build' }));

  // 3. The question in BUILD: its lead-in in view.
  const style = chat().locator('form.question-bar', { hasText: 'Which answer style?' });
  await style.waitFor();
  await chat().locator('.msg.assistant', { hasText: 'LEAD-IN-BUILD-QUESTION' }).waitFor();
  v = await newestInView('LEAD-IN-BUILD-QUESTION');
  assert.ok(v.ok, `at the BUILD question: ${v.why}`);
  await noOverflow();
  await screenshot('build-question');

  // 4. Scrolled up while the turn runs: the answer streams without moving the transcript,
  // "Jump to latest" shows, and brings the end of the turn into view.
  const messages = chat().locator('main.messages');
  await messages.hover();
  await page.mouse.wheel(0, -2000);
  const pill = chat().locator('button.jump-latest');
  await pill.waitFor({ state: 'visible' });
  const top = await messages.evaluate((el) => el.scrollTop);
  await style.locator('button', { hasText: 'Detailed' }).click();
  await chat().locator('.msg.assistant', { hasText: 'END-OF-TURN' }).waitFor({ state: 'attached' });
  await chat().locator('button.send').waitFor(); // the turn ended
  assert.equal(await messages.evaluate((el) => el.scrollTop), top, 'new text leaves a transcript the user scrolled up where it was');
  assert.equal(await pill.isVisible(), true, 'Jump to latest shows');
  assert.equal((await newestInView('END-OF-TURN')).ok, false, 'the end is not in view before the jump');
  await screenshot('scrolled-up');
  await pill.click();
  await pill.waitFor({ state: 'hidden' });
  v = await newestInView('END-OF-TURN');
  assert.ok(v.ok, `at the end of the turn: ${v.why}`);
  await noOverflow();
  await screenshot('end-of-turn');

  // 5. A 300 px sidebar: the table and the long code block stay inside the view (they scroll in
  // their own box); the chat picker is usable; Copy and Insert on the code block.
  const narrow = await sidebarWidth(page, 300);
  assert.ok(Math.abs(narrow - 300) <= 4, `the chat is ${narrow} px wide`);
  const fit = await messages.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const wrap = el.querySelector('.table-wrap') as HTMLElement;
    const pre = el.querySelector('.code-block pre') as HTMLElement;
    const w = wrap.getBoundingClientRect();
    const p = pre.getBoundingClientRect();
    return {
      table: w.left >= box.left && w.right <= box.right + 0.5,
      code: p.left >= box.left && p.right <= box.right + 0.5,
      tableScrolls: wrap.scrollWidth > wrap.clientWidth,
      codeScrolls: pre.scrollWidth > pre.clientWidth,
      tab: Number(getComputedStyle(pre).tabSize),
      sideways: el.scrollWidth > el.clientWidth,
      picker: document.querySelector('select.sessions')!.getBoundingClientRect().width,
    };
  });
  assert.ok(fit.table && fit.tableScrolls, `the table stays inside the view and scrolls in its box: ${JSON.stringify(fit)}`);
  assert.ok(fit.code && fit.codeScrolls, `the code block stays inside the view and scrolls in its box: ${JSON.stringify(fit)}`);
  assert.ok(fit.tab >= 2 && fit.tab <= 4, `tab size ${fit.tab}`);
  assert.equal(fit.sideways, false, 'the transcript does not scroll sideways');
  assert.ok(fit.picker >= 120, `the chat picker is ${fit.picker} px wide`);
  await noOverflow();
  await chat().locator('.code-block pre').scrollIntoViewIfNeeded();
  await screenshot('narrow-300');
  // Insert: at the cursor of the active editor (app.txt, brought to the front).
  await page.locator('.tab[aria-label^="app.txt"]').click();
  await chat().locator('.code-block button.code-insert').click();
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'func greet(w http.ResponseWriter' }).first().waitFor();
  await screenshot('inserted');
});
