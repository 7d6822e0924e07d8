// The composer's slash-command completion in Debian's Chromium, on the built
// page (same HTML and CSP as in VS Code) with a fake acquireVsCodeApi: typing
// "/" asks the extension for the commands (agent/listCommands), the list
// filters as you type, and ↑/↓, Tab/Enter and Escape work it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chatHtml } from '../../src/html';
import type { FromWebview, ToWebview } from '../../src/messages';
import type { CommandInfo } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { launchChromium } from '../e2e/harness';

const dist = path.resolve('dist');
const nonce = 'testnonce123';
const fakeApi = `window.__posted = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });
window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`;
const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };

let server: http.Server;
let base: string;
let browser: Browser;
let page: Page;

before(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      const html = chatHtml(base, { script: `${base}/webview.js`, style: `${base}/chat.css`, codicons: `${base}/codicon.css` }, nonce).replace(
        `<script nonce="${nonce}" src=`,
        `<script nonce="${nonce}" src="${base}/fake-vscode.js"></script>\n<script nonce="${nonce}" src=`,
      );
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
      return;
    }
    if (url.pathname === '/fake-vscode.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(fakeApi);
      return;
    }
    const file = path.join(dist, path.basename(url.pathname));
    if (!fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  page.setDefaultTimeout(15_000);
  await page.goto(base);
  await page.waitForFunction(() => (window as unknown as { __posted: FromWebview[] }).__posted.some((m) => m.type === 'ready'));
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 'Slash', mode: 'plan', planFile: null, createdAt: '2026-11-23T10:00:00Z', updatedAt: '2026-11-23T10:00:00Z' });
  m.setCurrent('s1');
  await send({ type: 'state', snapshot: JSON.parse(JSON.stringify(m.snapshot())), context: null });
});

async function send(m: ToWebview): Promise<void> {
  await page.evaluate(
    (msg) =>
      new Promise<void>((resolve) => {
        window.addEventListener('message', () => resolve(), { once: true });
        window.postMessage(msg, '*');
      }),
    m as unknown as Record<string, unknown>,
  );
}

async function posted(): Promise<FromWebview[]> {
  return page.evaluate(() => (window as unknown as { __posted: FromWebview[] }).__posted);
}

const commands: CommandInfo[] = [
  { name: 'plan', description: 'Switch to plan mode' },
  { name: 'plans', description: 'List the plans of this workspace' },
  { name: 'reject', description: 'Reject the plan awaiting approval', hint: '<reason>' },
  { name: 'review', description: 'Review a file (project)', hint: '<file>' },
];

describe('slash commands', () => {
  test('"/" asks for the commands; the list filters, and Tab completes the chosen one', async () => {
    const prompt = page.locator('textarea.prompt');
    await prompt.click();
    await page.keyboard.type('/');
    assert.equal((await posted()).filter((m) => m.type === 'listCommands').length, 1);
    await send({ type: 'commands', commands });
    const menu = page.locator('ul.slash-menu');
    await menu.waitFor();
    assert.deepEqual(await menu.locator('.slash-name').allInnerTexts(), ['/plan', '/plans', '/reject', '/review']);
    assert.match(await menu.locator('[data-command="review"]').innerText(), /<file>.*Review a file \(project\)/);
    await page.keyboard.type('re');
    assert.deepEqual(await menu.locator('.slash-name').allInnerTexts(), ['/reject', '/review']);
    await page.keyboard.press('ArrowDown');
    assert.equal(await menu.locator('.slash-item.active').getAttribute('data-command'), 'review');
    await page.keyboard.press('Tab');
    assert.equal(await prompt.inputValue(), '/review ');
    assert.equal(await menu.isHidden(), true);
    // Nothing was sent while completing; Enter now sends the command.
    assert.equal((await posted()).filter((m) => m.type === 'prompt').length, 0);
    await page.keyboard.type('main.go');
    await page.keyboard.press('Enter');
    assert.deepEqual((await posted()).filter((m) => m.type === 'prompt'), [{ type: 'prompt', text: '/review main.go' }]);
  });

  test('Enter picks, Escape closes, a click picks; "//" and text after a blank show no list', async () => {
    const prompt = page.locator('textarea.prompt');
    await prompt.click();
    await page.keyboard.type('/pl');
    await send({ type: 'commands', commands });
    const menu = page.locator('ul.slash-menu');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    assert.equal(await prompt.inputValue(), '/plan ');
    await prompt.fill('');
    await page.keyboard.type('/p');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await menu.isHidden(), true);
    assert.equal(await prompt.inputValue(), '/p');
    await page.keyboard.type('l');
    await menu.locator('[data-command="plans"]').click();
    assert.equal(await prompt.inputValue(), '/plans ');
    await prompt.fill('');
    await page.keyboard.type('//x');
    assert.equal(await menu.isHidden(), true);
    await prompt.fill('');
    await page.keyboard.type('/zzz');
    assert.equal(await menu.isHidden(), true, 'no match, no list');
    assert.equal((await posted()).filter((m) => m.type === 'prompt').length, 0);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp), []);
  });
});
