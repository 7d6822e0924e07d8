// End to end in a real VS Code (code-server in Debian's Chromium), issue 23: a
// scripted PLAN-mode turn runs an explore sub-agent (the script's children:
// section). Its tool calls come collapsed under the `task` row, never as rows
// of their own; expanded, the child's tool rows are inside; the footer shows
// the sub-agent's tokens and the total. A screenshot of each step goes to the
// test output folder (e2e-subagents).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { chatFrame, type CodeServer, codeServerBinary, openWorkbench, outputDir, showChat, startCodeServer, testFolder } from './harness';

const out = outputDir('e2e-subagents');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
let server: CodeServer;
let browser: Browser;
let page: Page;

const chat = (): FrameLocator => chatFrame(page);

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const data = testFolder('agentls-vscode-e2e-sub-');
  const workspace = path.join(data, 'project');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'app.txt'), 'alpha\n');
  server = await startCodeServer(
    codeServerBinary(),
    vsix,
    data,
    {
      'agentls.model.provider': 'scripted',
      'agentls.model.script': path.resolve('test', 'e2e', 'fixtures', 'subagents.yaml'),
      'agentls.serverArgs': ['--log-file', path.join(out, 'agentls.log')],
    },
    path.join(out, 'code-server.log'),
  );
  ({ browser, page } = await openWorkbench(server, workspace));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a sub-agent's steps are collapsed under its task row; expanded they show; the footer has its tokens and the total", async () => {
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill('Where is alpha?');
  await prompt.press('Enter');
  await chat().locator('.msg.assistant', { hasText: 'The explorer says: app.txt line 1.' }).waitFor();

  // One top-level tool row: the task, collapsed, naming the kind, the prompt's first line, its steps and tokens.
  const rows = chat().locator('main.messages > details.tool');
  assert.equal(await rows.count(), 1, "the sub-agent's calls are not rows of their own");
  const task = chat().locator('main.messages > details.tool.task[data-tool-id="t1"]');
  const summary = task.locator(':scope > summary');
  assert.match(await summary.innerText(), /task explore: Where does app\.txt say alpha\? — 2 steps, [\d.]+k? tokens\s*completed/);
  assert.equal(await task.evaluate((d) => (d as HTMLDetailsElement).open), false, 'collapsed');
  const childRows = task.locator('.subagent-steps > details.tool');
  assert.equal(await childRows.count(), 2);
  assert.equal(await childRows.first().isVisible(), false);
  await page.mouse.move(700, 450); // away from the activity bar's hover
  await page.screenshot({ path: path.join(out, '01-collapsed.png') });

  // Expanded: the child's tool rows, indented under the task, with the sub-agent's tokens.
  await summary.click();
  await childRows.first().waitFor({ state: 'visible' });
  assert.match(await childRows.nth(0).locator('summary').innerText(), /app\.txt/);
  assert.match(await childRows.nth(1).locator('summary').innerText(), /alpha/);
  const meta = await task.locator('.subagent-meta').innerText();
  assert.match(meta, /sub-agent explore [0-9a-f]{8} · [\d,]+ in · [\d,]+ out/);
  const indent = await childRows.first().evaluate((el) => el.getBoundingClientRect().left);
  const left = await task.evaluate((el) => el.getBoundingClientRect().left);
  assert.ok(indent > left + 8, 'the child rows are indented');
  // The footer: the session's own tokens, the sub-agent's, and the total.
  const footer = await chat().locator('footer.usage').innerText();
  assert.match(footer, /^Tokens: [\d,]+ in · [\d,]+ out .*· sub-agents: explore [0-9a-f]{8} [\d,]+ in · [\d,]+ out · total [\d,]+ in · [\d,]+ out$/);
  const n = (s: string) => Number(s.replace(/,/g, ''));
  const [, subIn] = /sub-agents: explore [0-9a-f]{8} ([\d,]+) in/.exec(footer)!;
  const [, totalIn] = /total ([\d,]+) in/.exec(footer)!;
  assert.ok(n(subIn) > 0 && n(totalIn) > n(subIn), `the total (${totalIn}) holds the sub-agent's (${subIn}) and the parent's`);
  await page.screenshot({ path: path.join(out, '02-expanded.png') });
});

test('after a window reload the task row keeps its result (the sub-agent\'s rows stay in its own session)', async () => {
  await page.reload();
  await showChat(page, () => page.screenshot({ path: path.join(out, '03-chat-not-restored.png') }).then(() => undefined));
  const task = chat().locator('main.messages > details.tool.task[data-tool-id="t1"]');
  await task.waitFor().catch(async (e: unknown) => {
    await page.screenshot({ path: path.join(out, '03-reload-failed.png') }); // what the window showed instead
    throw e;
  });
  assert.match(await task.locator(':scope > summary').innerText(), /task explore: Where does app\.txt say alpha\? — 2 turns, \d+ tokens\s*completed/);
  assert.equal(await chat().locator('main.messages > details.tool').count(), 1);
  await task.locator(':scope > summary').click();
  assert.match(await task.locator('.subagent-none').innerText(), /in its session [0-9a-f]{8}/);
  await page.mouse.move(700, 450);
  await page.screenshot({ path: path.join(out, '03-reloaded.png') });
});
