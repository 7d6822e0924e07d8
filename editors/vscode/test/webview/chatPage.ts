// The built chat page as every webview test loads it in Debian's Chromium:
// the extension's own HTML (strict CSP) served on 127.0.0.1, with a fake
// acquireVsCodeApi that records what the page posts (and, unless told not to,
// keeps the webview's state across a reload of the page: sessionStorage lives
// as long as the tab, as VS Code keeps it when a hidden view's webview is
// destroyed and made again), plus the helpers to talk to it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chatHtml } from '../../src/html';
import type { FromWebview, ToWebview } from '../../src/messages';
import { launchChromium } from '../e2e/harness';

const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };

/** The fake VS Code API, recording posts and CSP violations. */
function fakeApi(keepState: boolean): string {
  const state = keepState
    ? `getState: () => JSON.parse(sessionStorage.getItem('vscodeState') ?? 'null') ?? undefined, setState: (s) => sessionStorage.setItem('vscodeState', JSON.stringify(s))`
    : `getState: () => undefined, setState: () => {}`;
  return `window.__posted = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), ${state} });
window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`;
}

/** Serves the built chat page (dist/) and opens it in Chromium. */
export class ChatPages {
  private server?: http.Server;
  private base = '';
  private browser?: Browser;

  constructor(private readonly opts: { keepState?: boolean; nonce?: string } = {}) {}

  /** Starts the server and the browser (a test file's `before`). */
  async start(): Promise<void> {
    const dist = path.resolve('dist');
    const nonce = this.opts.nonce ?? 'testnonce123';
    const api = fakeApi(this.opts.keepState ?? true);
    this.server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/') {
        const html = chatHtml(this.base, { script: `${this.base}/webview.js`, style: `${this.base}/chat.css`, codicons: `${this.base}/codicon.css` }, nonce).replace(
          `<script nonce="${nonce}" src=`,
          `<script nonce="${nonce}" src="${this.base}/fake-vscode.js"></script>\n<script nonce="${nonce}" src=`,
        );
        res.writeHead(200, { 'content-type': 'text/html' }).end(html);
        return;
      }
      if (url.pathname === '/fake-vscode.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(api);
        return;
      }
      const file = path.join(dist, path.basename(url.pathname));
      if (!fs.existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.browser = await launchChromium();
  }

  /** Closes the browser and the server (a test file's `after`). */
  async stop(): Promise<void> {
    await this.browser?.close();
    await new Promise((r) => this.server?.close(r));
  }

  /** A new page with the chat loaded: its `ready` posted, and no page error on the way. */
  async open(viewport = { width: 420, height: 900 }): Promise<Page> {
    const page = await this.browser!.newPage({ viewport });
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(this.base);
    await page.waitForFunction(() => (window as unknown as { __posted: FromWebview[] }).__posted.some((m) => m.type === 'ready'));
    assert.deepEqual(errors, []);
    return page;
  }
}

/**
 * Posts m to the page's webview and returns once the webview has handled it:
 * window.postMessage delivers in a later task, and a listener added after the
 * webview's own runs after it for the same message.
 */
export async function sendTo(page: Page, m: ToWebview): Promise<void> {
  await page.evaluate(
    (msg) =>
      new Promise<void>((resolve) => {
        window.addEventListener('message', () => resolve(), { once: true });
        window.postMessage(msg, '*');
      }),
    m as unknown as Record<string, unknown>,
  );
}

/** What the page posted to the extension so far. */
export async function postedBy(page: Page): Promise<FromWebview[]> {
  return page.evaluate(() => (window as unknown as { __posted: FromWebview[] }).__posted);
}

/** Fails when the page broke its content security policy. */
export async function noCspViolationsIn(page: Page): Promise<void> {
  assert.deepEqual(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp), []);
}
