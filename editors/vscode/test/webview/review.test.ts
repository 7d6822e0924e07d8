// The chat's review controls in Debian's Chromium, on the built page (same
// HTML and CSP as in VS Code) with a fake acquireVsCodeApi: "Restore" on a
// user message, the last turn's changed files with Diff / Keep / Undo (and
// for the whole turn), and the "Review edits" toggle; each posts what the
// extension acts on (src/reviewFeature.ts).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chatHtml } from '../../src/html';
import type { FromWebview, ToWebview } from '../../src/messages';
import { type TurnChanges, changeLabel } from '../../src/review';
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

function model(review: 'off' | 'edits' = 'off'): ChatModel {
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 'Review', mode: 'build', planFile: null, createdAt: '2026-11-23T10:00:00Z', updatedAt: '2026-11-23T10:00:00Z', review });
  m.setCurrent('s1');
  return m;
}

const show = (m: ChatModel) => send({ type: 'state', snapshot: JSON.parse(JSON.stringify(m.snapshot())), context: null });

const files = [
  { path: 'store.go', status: 'modified' as const, added: 17, removed: 2, restorable: true },
  { path: 'new.go', status: 'added' as const, added: 3, removed: 0, restorable: true },
  { path: 'logo.png', status: 'modified' as const, added: 0, removed: 0, restorable: false },
];
const turn: TurnChanges = { sessionId: 's1', messageId: 'm1', files: files.map((f) => ({ ...f, label: changeLabel(f) })) };

describe('review', () => {
  test('each user message has Restore, which names the message', async () => {
    const m = model();
    m.addPrompt('s1', 'first');
    m.addPrompt('s1', 'second');
    await show(m);
    const buttons = page.locator('.msg.user button.restore');
    assert.equal(await buttons.count(), 2);
    await buttons.nth(1).click();
    const items = m.snapshot().current!.items.filter((i) => i.kind === 'user');
    assert.deepEqual((await posted()).filter((p) => p.type === 'restore'), [{ type: 'restore', itemId: items[1].id }]);
  });

  test("the turn's changes read like edits, with Diff, Keep and Undo per file and for the turn", async () => {
    await show(model());
    await send({ type: 'changes', changes: turn });
    const rows = page.locator('.changes .change');
    assert.deepEqual(await rows.locator('.change-label').allInnerTexts(), ['Edited store.go +17 −2', 'Created new.go +3', 'Edited logo.png (binary or large: no undo)']);
    assert.equal(await rows.nth(2).locator('.undo-file').count(), 0, 'a file that cannot be restored has no Undo');
    await rows.nth(0).locator('.change-label').click();
    await rows.nth(0).locator('.keep-file').click();
    await rows.nth(1).locator('.undo-file').click();
    await page.locator('.changes .undo-all').click();
    await page.locator('.changes .keep-all').click();
    assert.deepEqual(
      (await posted()).filter((p) => ['diffFile', 'keepFile', 'undoFile'].includes(p.type)),
      [
        { type: 'diffFile', path: 'store.go' },
        { type: 'keepFile', path: 'store.go' },
        { type: 'undoFile', path: 'new.go' },
        { type: 'undoFile' },
        { type: 'keepFile' },
      ],
    );
    await send({ type: 'changes', changes: null });
    assert.equal(await page.locator('.changes').count(), 0);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp), []);
  });

  test("the Review edits toggle shows the session's choice and switches it", async () => {
    await show(model('edits'));
    const toggle = page.locator('button.review-toggle');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await toggle.click();
    await show(model('off'));
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'setReview'), [
      { type: 'setReview', review: 'off' },
      { type: 'setReview', review: 'edits' },
    ]);
  });
});
