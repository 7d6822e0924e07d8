// MCP servers end to end in a real VS Code (code-server in Debian's Chromium; docs/mcp.md): the
// user's configuration (agentls --config) names a running server (testdata/mcp/tiny-server.mjs,
// without the network: its read-only tool has reach process) and one that fails at start with a message on stderr. After the first turn the PLAN/BUILD
// item's tooltip lists both (the running one with its tools' names, the failed one with its reason and
// stderr tail) and the chat says the failed one failed — read through agent/status, which never
// asks the model. In PLAN the user-listed read-only tool runs and the writer is refused before
// the server sees it; in BUILD the writer's permission question shows the arguments, the network
// and the sandbox, and Allow runs it. Screenshots go to the test output folder (e2e-mcp).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { chatFrame, type CodeServer, codeServerBinary, openWorkbench, outputDir, repoRoot, startCodeServer, testFolder } from './harness';

const out = outputDir('e2e-mcp');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
const tiny = path.join(repoRoot, 'testdata', 'mcp', 'tiny-server.mjs');
let server: CodeServer;
let browser: Browser;
let page: Page;
let workspace: string;
let callLog: string;
let agentlsLog: string;

const chat = (): FrameLocator => chatFrame(page);

const modeItem = () => page.locator('footer[role="status"] .statusbar-item[aria-label^="agentls mode"]');

/** The mode item's tooltip, once it holds want (hovered; VS Code shows it after its delay). */
async function tooltip(want: RegExp): Promise<string> {
  await page.mouse.move(0, 0);
  await modeItem().hover();
  const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: 'MCP servers:' }).last();
  await hover.waitFor();
  const text = await hover.innerText();
  assert.match(text, want);
  return text;
}

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const bin = codeServerBinary();
  const data = testFolder('agentls-vscode-mcp-');
  workspace = path.join(data, 'project');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'readme.txt'), 'a tiny project\n');
  fs.mkdirSync(path.join(data, 'calls'));
  callLog = path.join(data, 'calls', 'mcp-calls.log'); // outside the workspace: sandbox.allow_write lets the server write there
  agentlsLog = path.join(out, 'agentls.log');
  fs.rmSync(agentlsLog, { force: true }); // the probes are counted in this run's log only
  const config = path.join(data, 'agentls.yaml');
  fs.writeFileSync(
    config,
    `mcp:
  servers:
    tiny: {command: node, network: false, args: [${JSON.stringify(tiny)}], env: {TINY_LOG: ${JSON.stringify(callLog)}}}
    broken: {command: sh, args: ["-c", "echo 'broken: cannot open the database' >&2; exit 3"]}
  read_only: [tiny/lookup]
sandbox: {allow_write: [${JSON.stringify(path.dirname(callLog))}]}
`,
  );
  server = await startCodeServer(
    bin,
    vsix,
    data,
    {
      'agentls.model.provider': 'scripted',
      'agentls.model.script': path.resolve('test', 'e2e', 'fixtures', 'mcp.yaml'),
      'agentls.serverArgs': ['--log-file', agentlsLog, '--config', config],
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

test('MCP servers in VS Code: status in the tooltip and the chat, plan-mode refusal, build-mode permission', async () => {
  await modeItem().waitFor();
  // Before the first turn the servers are idle (they start at a session's first tool listing).
  await tooltip(/MCP servers:\n(.*\n)*tiny idle$/m);

  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat().locator('textarea.prompt');
  await prompt.waitFor();
  await prompt.fill('Look up plan, then write a note.');
  await prompt.press('Enter');
  await chat().locator('.msg.assistant', { hasText: 'Planned: the writer was refused in PLAN mode.' }).waitFor();

  // PLAN: the read-only tool ran; the writer was refused, and the server never saw it.
  await chat().locator('details.tool.status-failed[data-tool-id="m_write"]').waitFor();
  const refusal = (await chat().locator('details.tool[data-tool-id="m_write"] pre.tool-io').last().textContent()) ?? '';
  assert.match(refusal, /System is in Plan Mode/);
  assert.equal(await chat().locator('details.tool.status-failed[data-tool-id="m_look"]').count(), 0, 'the read-only tool ran');
  assert.equal(fs.readFileSync(callLog, 'utf8'), 'lookup {"word":"plan"}\n', 'the server saw the lookup, never the refused writer');
  assert.equal(fs.existsSync(path.join(workspace, 'note.txt')), false);

  // The chat says which server failed, with its reason and stderr tail (agent/status after the turn).
  const notice = chat().locator('.notice.error', { hasText: 'MCP server broken failed' });
  await notice.waitFor();
  assert.match(await notice.innerText(), /stderr: .*broken: cannot open the database/);
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(out, '01-plan-refused-and-failed-notice.png') });

  // The tooltip: the running server with its tools by name, the failed one with its reason and
  // stderr tail, each server on its own line.
  const tip = await tooltip(/^tiny running \(2 tools: lookup, write_note\)$/m);
  assert.match(tip, /^⚠ broken failed: .+\(stderr: .*broken: cannot open the database\)$/m);
  await page.screenshot({ path: path.join(out, '02-tooltip.png') });
  await page.mouse.move(0, 0);

  // BUILD (PLAN → BUILD by hand asks nothing); the writer is asked for with its arguments,
  // the network and the sandbox.
  await modeItem().click();
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: BUILD"]').waitFor();
  await prompt.fill('Now write it.');
  await prompt.press('Enter');
  const bar = chat().locator('form.question-bar', { has: chat().locator('.permission-mcp') });
  await bar.waitFor();
  assert.match(await bar.locator('.permission-what').innerText(), /write_note \{"text": ?"from build mode"\}/);
  assert.match(await bar.locator('dd[data-fact="network"]').innerText(), /^(yes|no|not isolated)$/);
  assert.match(await bar.locator('dd[data-fact="sandbox"]').innerText(), /^(on \(.+\)|off)/);
  assert.match(await bar.innerText(), /from build mode/);
  await page.screenshot({ path: path.join(out, '03-build-permission.png') });
  await bar.locator('button', { hasText: /^Allow$/ }).click();
  await chat().locator('.msg.assistant', { hasText: 'The note is written.' }).waitFor();
  assert.equal(fs.readFileSync(path.join(workspace, 'note.txt'), 'utf8'), 'from build mode');
  assert.match(fs.readFileSync(callLog, 'utf8'), /write_note \{"text":"from build mode"\}\n$/);
  await page.screenshot({ path: path.join(out, '04-build-done.png') });

  // After each turn the extension asked agent/status, never agent/checkModel, which probes the
  // model's endpoint (and logs "model check"): the one probe is the start-up check (the setup card).
  const log = fs.readFileSync(agentlsLog, 'utf8');
  assert.match(log, /MCP|mcp/, 'the log is the server\'s');
  const probes = log.match(/model check/g) ?? [];
  assert.equal(probes.length, 1, 'the extension asked agent/checkModel after a turn, probing the model');
});
