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
import { after, before, beforeEach } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chatHtml } from '../../src/html';
import type { MentionChip } from '../../src/mentions';
import type { FromWebview, ToWebview } from '../../src/messages';
import type { PermissionRequest, Question, Session } from '../../src/protocol';
import { ChatModel } from '../../src/state';
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

/** How ChatPages serves the page: keepState (default true) keeps the webview's state across a reload; nonce is the CSP's. */
export interface ChatPagesOptions {
  keepState?: boolean;
  nonce?: string;
}

/** A page's size, in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

/** Serves the built chat page (dist/) and opens it in Chromium. */
export class ChatPages {
  private server?: http.Server;
  private base = '';
  private browser?: Browser;

  constructor(private readonly opts: ChatPagesOptions = {}) {}

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
  async open(viewport: Viewport = { width: 420, height: 900 }): Promise<Page> {
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

/** The ChatPages of a test file, started in its `before` and stopped in its `after`. */
export function chatPagesForFile(opts: ChatPagesOptions = {}): ChatPages {
  const pages = new ChatPages(opts);
  before(() => pages.start());
  after(() => pages.stop());
  return pages;
}

/** The page of the running test (see chatPageEachTest) and the helpers to talk to it. */
export interface TestChatPage {
  /** The running test's page, a new one for each test. */
  readonly page: Page;
  /** Posts m to the page (sendTo). */
  send(m: ToWebview): Promise<void>;
  /** Sends m's state, as the extension does (stateMessage). */
  show(m: ChatModel, mentions?: MentionChip[]): Promise<void>;
  /** What the page posted so far (postedBy). */
  posted(): Promise<FromWebview[]>;
  /** Fails when the page broke its CSP (noCspViolationsIn). */
  noCspViolations(): Promise<void>;
}

/**
 * Registers a test file's hooks: the server and browser for the whole file,
 * and a new chat page (of the given size, else open's) before each test.
 * Returns that page and the helpers to talk to it.
 */
export function chatPageEachTest(opts: ChatPagesOptions & { viewport?: Viewport } = {}): TestChatPage {
  const pages = chatPagesForFile(opts);
  let current: Page | undefined;
  beforeEach(async () => {
    current = await pages.open(opts.viewport);
  });
  const page = (): Page => current ?? assert.fail('no chat page: it opens in beforeEach, for a test');
  return {
    get page() {
      return page();
    },
    send: (m) => sendTo(page(), m),
    show: (m, mentions) => sendTo(page(), stateMessage(m, mentions)),
    posted: () => postedBy(page()),
    noCspViolations: () => noCspViolationsIn(page()),
  };
}

/** The state message the extension sends for m: its snapshot (as JSON carries it), no context, the mentions when given. */
export function stateMessage(m: ChatModel, mentions?: MentionChip[]): ToWebview {
  const snapshot = JSON.parse(JSON.stringify(m.snapshot()));
  return mentions ? { type: 'state', snapshot, context: null, mentions } : { type: 'state', snapshot, context: null };
}

/**
 * A ChatModel whose one session, s1, is in view: a plan-mode session without
 * a plan, made (and updated) 2026-11-23 10:00 UTC, unless s says otherwise.
 */
export function oneSessionModel(s: Pick<Session, 'title'> & Partial<Pick<Session, 'mode' | 'planFile' | 'createdAt' | 'review'>>): ChatModel {
  const at = s.createdAt ?? '2026-11-23T10:00:00Z';
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', mode: 'plan', planFile: null, ...s, createdAt: at, updatedAt: at });
  m.setCurrent('s1');
  return m;
}

/** The plan approval's questions as agent/approval_dialog.go asks them for plan rel (approve's text unless given). */
export function planApprovalQuestions(rel: string, approve = `Review the plan \`${rel}\`. Accept it and start building?`): Question[] {
  return [
    { name: 'approve', question: approve, schema: { type: 'boolean' }, buttons: [{ label: 'Accept & Build', value: true, variant: 'primary' }, { label: 'Keep Planning', value: false, variant: 'secondary' }] },
    { name: 'feedback', question: 'What should change in the plan? (optional)', schema: { type: 'string', maxLength: 4000 }, optional: true } as Question,
  ];
}

/** What approving plan rel grants (permission.Text for kind plan): the plan and the commands in grants. */
export function planPermission(rel: string, grants: string[] = []): PermissionRequest {
  return {
    kind: 'plan', what: rel, grants,
    options: [{ id: 'reject_once', kind: 'reject_once', label: 'Keep Planning' }, { id: 'allow_once', kind: 'allow_once', label: 'Accept & Build' }],
  };
}

/** Asks s1 of m to approve plan rel, granting grants, as the server does (question qa). */
export function askPlanApproval(m: ChatModel, rel: string, grants: string[] = []): void {
  m.ask({ sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: planApprovalQuestions(rel), permission: planPermission(rel, grants) });
}

/** The approval's rendered plan, as a person reads it, once the host answered readPlan with text. */
export async function renderedApprovalPlan(page: Page, planFile: string, text: string): Promise<string> {
  const bar = page.locator('form.question-bar.approval');
  await bar.waitFor();
  await sendTo(page, { type: 'planText', planFile, text });
  await bar.locator('.plan-rendered.markdown').waitFor();
  return bar.locator('.plan-rendered').innerText();
}
