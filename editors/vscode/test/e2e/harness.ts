// Starts code-server (VS Code 1.100) with the packaged extension installed,
// and Debian's Chromium through playwright-core. Used by the end-to-end test.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';

/** The repository root (npm runs tests in editors/vscode). */
export const repoRoot = path.resolve('..', '..');

/** The folder screenshots and logs go to (outside the source tree's tracked files). */
export function outputDir(name: string): string {
  const dir = path.resolve(process.env.AGENTLS_TEST_OUTPUT ?? path.join('out', 'test-output'), name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A new folder under the system's temporary folder for one test file's code-server (its HOME,
 * user data and extensions, about 20 MB) and workspace. It is removed when the test file's process
 * ends with every test passed, and kept (named on stderr) when one failed or AGENTLS_E2E_KEEP=1:
 * a run used to leave some 400 MB of these behind.
 */
export function testFolder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.once('exit', (code) => {
    if (code !== 0 || process.env.AGENTLS_E2E_KEEP === '1') {
      process.stderr.write(`kept the test's folder: ${dir}\n`);
      return;
    }
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      process.stderr.write(`could not remove the test's folder ${dir}: ${String(err)}\n`);
    }
  });
  return dir;
}

/** code-server's binary: installed (or found) by scripts/install-vscode. */
export function codeServerBinary(): string {
  if (process.env.AGENTLS_CODE_SERVER) return process.env.AGENTLS_CODE_SERVER;
  const out = execFileSync(path.join(repoRoot, 'scripts', 'install-vscode'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').pop()!;
}

/** Chromium flags that work on CI machines and in containers. */
export const chromiumArgs = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** Launches Debian's Chromium (never a downloaded browser). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.AGENTLS_CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs });
}

/**
 * The agentls chat view's frame. The selector names the extension: the
 * walkthrough's pages are webviews too, and VS Code opens them on its own.
 */
export function chatFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready[src*="extensionId=agentls.agentls"]').frameLocator('#active-frame');
}

/** Drags the sash right of the side bar until the chat view is width px wide; returns the chat's width. */
export async function sidebarWidth(page: Page, width: number): Promise<number> {
  const frame = page.locator('iframe.webview.ready[src*="extensionId=agentls.agentls"]');
  for (let i = 0; i < 3; i++) {
    const now = (await frame.boundingBox())!;
    if (Math.abs(now.width - width) <= 2) break;
    const bar = (await page.locator('.part.sidebar').boundingBox())!;
    const x = bar.x + bar.width;
    const y = bar.y + bar.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (width - now.width) / 2, y, { steps: 4 });
    await page.mouse.move(x + (width - now.width), y, { steps: 4 });
    await page.mouse.up();
  }
  return chatFrame(page).locator('body').evaluate(() => window.innerWidth);
}

/**
 * A small window: the page at 1024×640, the agentls chat opened in a 300 px side bar (within
 * 4 px, or the test fails). Returns the chat's frame and its composer.
 */
export async function smallWindowChat(page: Page): Promise<{ chat: FrameLocator; prompt: Locator }> {
  await page.setViewportSize({ width: 1024, height: 640 });
  const chat = chatFrame(page);
  await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  const prompt = chat.locator('textarea.prompt');
  await prompt.waitFor();
  const width = await sidebarWidth(page, 300);
  assert.ok(Math.abs(width - 300) <= 4, `the chat is ${width} px wide`);
  return { chat, prompt };
}

/**
 * Waits for the assistant's message holding `answer` in the chat. When the turn stopped with an
 * error notice instead, calls onFailed (a screenshot) and fails with the notice's text.
 */
export async function answered(page: Page, answer: string, onFailed: () => Promise<void>): Promise<void> {
  const msg = chatFrame(page).locator('.msg.assistant', { hasText: answer });
  const failed = chatFrame(page).locator('.notice.error');
  await msg.or(failed).first().waitFor({ timeout: 120_000 });
  if (await failed.count()) {
    await onFailed();
    throw new Error(`the turn stopped: ${await failed.first().innerText()}`);
  }
}

/**
 * Shows the agentls chat in the side bar and waits for its composer, as a user would: the side bar
 * comes back with the container last open (a click on an open container's icon would close it).
 * After a window reload under load, code-server sometimes restores the side bar's title without the
 * view's webview (seen in CI, not alone); the user's way back is the chat's keybinding
 * (agentls.ui.focusChat, Ctrl+Alt+A), then a second reload. `onMissing` records what the window
 * showed instead.
 */
export async function showChat(page: Page, onMissing?: () => Promise<void>): Promise<FrameLocator> {
  const chat = chatFrame(page);
  const prompt = chat.locator('textarea.prompt');
  const shown = () => prompt.waitFor({ timeout: 20_000 }).then(() => true, () => false);
  const openContainer = async () => {
    const title = page.locator('.part.sidebar .composite.title .title-label').first();
    await title.waitFor({ timeout: 20_000 }).catch(() => undefined);
    if (!(await title.isVisible()) || !/agentls/i.test(await title.innerText())) await page.locator('.activitybar [aria-label^="agentls"]').first().click();
  };
  await openContainer();
  if (await shown()) return chat;
  await onMissing?.();
  await page.keyboard.press('Control+Alt+A');
  if (await shown()) return chat;
  // Also seen in CI: the view stays blank after the keybinding too. The user's next way back is
  // reloading the window once more; a chat that does not come back after it fails the test.
  console.error('showChat: the chat view stayed blank after its keybinding; reloading the window once more');
  await page.reload();
  await openContainer();
  await prompt.waitFor();
  return chat;
}

/** Chromium on code-server's workbench of folder: a 1400×900 page with a 60 s default timeout. */
export async function openWorkbench(server: CodeServer, folder: string): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);
  await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
  return { browser, page };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A running code-server. */
export interface CodeServer {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/**
 * code-server's environment, and so agentls's: HOME and the XDG folders in dataDir, so that agentls
 * reads no configuration of the user's and writes nothing into the user's state and cache folders
 * (an XDG_* variable set in the developer's environment would win over HOME).
 */
function isolatedEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: dataDir,
    XDG_CONFIG_HOME: path.join(dataDir, '.config'),
    XDG_STATE_HOME: path.join(dataDir, '.local', 'state'),
    XDG_CACHE_HOME: path.join(dataDir, '.cache'),
    XDG_DATA_HOME: path.join(dataDir, '.local', 'share'),
  };
}

/**
 * Installs the .vsix (and `moreVsix`, other extensions the test needs) into a fresh extensions folder, writes user settings
 * (workspace trust off so extensions run; plus the given ones), and serves
 * the workbench on 127.0.0.1. Resolves when code-server says it listens.
 */
export async function startCodeServer(bin: string, vsix: string, dataDir: string, settings: Record<string, unknown>, log: string, moreVsix: string[] = []): Promise<CodeServer> {
  const ext = path.join(dataDir, 'ext');
  const user = path.join(dataDir, 'user');
  for (const scope of ['User', 'Machine']) {
    fs.mkdirSync(path.join(user, scope), { recursive: true });
    fs.writeFileSync(
      path.join(user, scope, 'settings.json'),
      JSON.stringify({ 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none', 'workbench.colorTheme': 'Default Dark Modern', ...settings }, null, 2),
    );
  }
  const common = ['--extensions-dir', ext, '--user-data-dir', user];
  for (const v of [vsix, ...moreVsix]) execFileSync(bin, [...common, '--install-extension', v], { stdio: ['ignore', 'pipe', 'pipe'], env: isolatedEnv(dataDir) });
  const port = await freePort();
  const out = fs.openSync(log, 'a');
  // AGENTLS_CODE_SERVER_LOG=debug: the extensions' log channels at that level (user/logs/…/exthost1).
  const logLevel = process.env.AGENTLS_CODE_SERVER_LOG ? ['--log', process.env.AGENTLS_CODE_SERVER_LOG] : [];
  const proc = spawn(bin, [...common, ...logLevel, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust'], {
    stdio: ['ignore', 'pipe', out],
    env: isolatedEnv(dataDir),
  });
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      fs.appendFileSync(log, d);
      buf += d.toString();
      if (/HTTP server listening on/.test(buf)) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`code-server exited (${code}) before listening; see ${log}`)));
    // A bound on the wait (not synchronisation): a broken install fails, never hangs.
    setTimeout(() => reject(new Error(`code-server did not listen within 180 s; see ${log}`)), 180_000).unref();
  });
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/**
 * Waits, bounded, until ok() holds, looking every `every` ms: for what the page does not show (files
 * on disk, processes), which locators cannot wait for. Returns whether it holds; the caller asserts
 * what it needs, with its own message.
 */
export async function until(page: Page, ms: number, ok: () => boolean | Promise<boolean>, every = 100): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() >= deadline) return false;
    await page.waitForTimeout(every);
  }
  return true;
}

/**
 * The pids of the agentls servers that write `logFile` (started with --log-file logFile, as the
 * tests' serverArgs say): one per running server, so a restart that left the old one behind shows.
 */
export function serversLogging(logFile: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    const i = argv.indexOf('--log-file');
    if (i > 0 && argv[i + 1] === logFile && path.basename(argv[0]).startsWith('agentls')) pids.push(Number(entry));
  }
  return pids;
}

/**
 * How long the tests' person takes over a question before answering it: agentls takes an allowing
 * answer given within 300 ms of its question (permission.HumanFloor) as the client's own, not a
 * person's, and a plan approved so stays awaiting approval (docs/guard.md, "How fast an answer
 * came").
 */
export const PERSON_READS_MS = 350;

/** Clicks a question's button as a person does: after reading the question. */
export async function clickAsAPerson(button: Locator): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, PERSON_READS_MS));
  await button.click();
}
