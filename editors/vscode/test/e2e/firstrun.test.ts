// First run in a real VS Code (code-server in Debian's Chromium), against a
// scripted OpenAI-compatible endpoint on 127.0.0.1 (fakeOpenAI.ts): nothing
// configured → the chat's setup card says what is missing and the mode
// indicator warns → the walkthrough sets the base URL and model (Settings) and
// the key (secret storage) → "Test connection" succeeds → the header's model
// picker lists the endpoint's models and switching is what the endpoint is
// asked for → a prompt, edit-and-resend, regenerate → a scripted failure
// survives a window reload marked with its error, is not sent again, and
// Retry answers it → the history lists the chat by its title, rename works.
// A screenshot per moment goes to the test output folder (firstrun/).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from './fakeOpenAI';
import { chatFrame, type CodeServer, codeServerBinary, openWorkbench, outputDir, serversLogging, showChat, startCodeServer, until } from './harness';

const out = outputDir('firstrun');
const vsix = path.resolve('out', `agentls-${process.platform}-${process.arch}.vsix`);
const key = 'sk-fake-first-run';
let endpoint: FakeOpenAI;
let server: CodeServer;
let browser: Browser;
let page: Page;
let shot = 0;
/** code-server's data folder (its User settings are read back). */
let data: string;

async function screenshot(name: string): Promise<void> {
  shot++;
  await page.screenshot({ path: path.join(out, `${String(shot).padStart(2, '0')}-${name}.png`) });
}

const chat = (): FrameLocator => chatFrame(page);

const modeItem = () => page.locator('footer[role="status"] .statusbar-item[aria-label^="agentls mode"]');

/** Shows the chat view (harness.ts, showChat). */
async function openChat(): Promise<void> {
  await showChat(page, () => screenshot('chat-not-restored'));
}

/** Types into a text setting of the Settings editor (searched by its id); the editor saves it to the User settings. */
async function setSetting(id: string, value: string): Promise<void> {
  const search = page.locator('.settings-editor .settings-header .suggest-input-container .monaco-editor textarea').first();
  await search.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(id);
  const input = page.locator(`.settings-editor [data-key="${id}"] input`).first();
  await input.waitFor();
  await input.fill(value);
  await input.press('Tab');
  // The Settings editor writes on its own schedule: wait (bounded) until the User settings hold it.
  const file = path.join(data, 'user', 'User', 'settings.json');
  // VS Code truncates the file before writing it, so a read can find it empty or cut: that is "not yet".
  const saved = (): boolean => {
    try {
      return (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)[id] === value;
    } catch {
      return false;
    }
  };
  await until(page, 20_000, saved);
  assert.ok(saved(), `${id} saved in the User settings`);
}

before(async () => {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  endpoint = await startFakeOpenAI(['fake-1', 'fake-2'], key);
  // Nothing configured: no key or model from this machine's environment either.
  for (const v of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'AGENTLS_MODEL', 'AGENTLS_PROVIDER', 'AGENTLS_BASE_URL']) delete process.env[v];
  const bin = codeServerBinary();
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'agentls-firstrun-e2e-'));
  const workspace = path.join(data, 'project');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'hello\n');
  server = await startCodeServer(bin, vsix, data, { 'agentls.serverArgs': ['--log-file', path.join(out, 'agentls.log')] }, path.join(out, 'code-server.log'));
  ({ browser, page } = await openWorkbench(server, workspace));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await endpoint?.close();
  if (data) fs.rmSync(data, { recursive: true, force: true });
});

test('no model configured: the chat says what is missing, the indicator does not look ready', async () => {
  await modeItem().waitFor();
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: PLAN (no model ready)"]').waitFor();
  await openChat();
  const card = chat().locator('.setup-card');
  await card.waitFor();
  assert.match(await card.innerText(), /No API key is set/);
  assert.doesNotMatch(await card.innerText(), /OPENAI_API_KEY|\.agentls\.yaml/, 'no server internals');
  for (const b of ['Set API Key', 'Open Settings', 'Test connection', 'Open walkthrough']) await card.locator('button', { hasText: b }).waitFor();
  await screenshot('setup-card');
});

test('the walkthrough: provider and model in Settings, the key, Test connection', async () => {
  await chat().locator('.setup-card button', { hasText: 'Open walkthrough' }).click();
  const walk = page.locator('.gettingStartedContainer');
  await walk.locator('h2', { hasText: 'Set up agentls' }).first().waitFor();
  await screenshot('walkthrough');

  // Provider step: its button opens the Settings editor on agentls.model.
  await walk.locator('button.getting-started-step', { hasText: 'Choose a provider' }).click();
  await walk.getByRole('button', { name: 'Open provider settings' }).click();
  await page.locator('.settings-editor').waitFor();
  await setSetting('agentls.model.baseUrl', endpoint.baseUrl);
  await setSetting('agentls.model.name', 'fake-1');
  await screenshot('settings');

  // Back in the walkthrough: the key (secret storage through the input box), then the test.
  await page.locator('.tab', { hasText: 'Walkthrough' }).first().click();
  await walk.locator('button.getting-started-step', { hasText: 'Test the connection' }).click();
  await walk.getByRole('button', { name: 'Test connection' }).click();
  // No key yet: the endpoint refuses, and the result says so in the user's words.
  const refused = page.locator('.notifications-toasts', { hasText: 'refused the API key' });
  await refused.waitFor();
  await screenshot('test-refused');
  await walk.locator('button.getting-started-step', { hasText: 'Set the API key' }).click();
  await walk.getByRole('button', { name: 'Set API Key' }).click();
  // The extension's own input box (its prompt shown), not the quick input still closing or opening:
  // typed into too early, the key is lost and Enter stores nothing.
  await page.locator('.quick-input-widget', { hasText: 'API key for the model provider' }).waitFor();
  const box = page.locator('.quick-input-widget input');
  await box.fill(key);
  assert.equal(await box.inputValue(), key);
  await box.press('Enter');
  // Under load code-server can drop the first Enter (CI saw the box stay open with the key typed and
  // nothing stored): once, and only while the box still asks for the key with the key in it, Enter
  // again; a box that stays open after that fails the test.
  const widget = page.locator('.quick-input-widget');
  if (!(await widget.waitFor({ state: 'hidden', timeout: 15_000 }).then(() => true, () => false))) {
    await screenshot('key-box-still-open');
    const asks = page.locator('.quick-input-widget', { hasText: 'API key for the model provider' });
    if ((await asks.count()) > 0 && (await box.inputValue()) === key) await box.press('Enter');
    await widget.waitFor({ state: 'hidden' });
  }
  await page.locator('footer[role="status"] .statusbar-item[aria-label="agentls mode: PLAN"]').waitFor(); // the server restarted with the key and checked it
  // Three restarts (two settings, the key), one after another: none left its server running.
  const log = path.join(out, 'agentls.log');
  await until(page, 10_000, () => serversLogging(log).length === 1);
  assert.equal(serversLogging(log).length, 1, `one agentls server runs after the restarts (pids ${serversLogging(log).join(', ')})`);
  await walk.locator('button.getting-started-step', { hasText: 'Test the connection' }).click();
  await walk.getByRole('button', { name: 'Test connection' }).click();
  await page.locator('.notifications-toasts', {
    // The endpoint says nothing of fake-1's window (no llama.cpp /props): agentls assumes one, and says so.
    hasText: `Connected: fake-1 at ${new URL(endpoint.baseUrl).host} answers; context window ${(32768).toLocaleString()} tokens (assumed: a model agentls does not know).`,
  }).waitFor();
  await screenshot('test-connected');
});

test('the model picker lists the endpoint\'s models; the choice is what the endpoint is asked for', async () => {
  await openChat();
  await chat().locator('.setup-card:not(.ready)').waitFor({ state: 'detached' });
  const picker = chat().locator('select.model-picker');
  await picker.waitFor();
  assert.deepEqual(await picker.locator('option').allInnerTexts(), ['fake-1', 'fake-2']);
  assert.equal(await picker.inputValue(), 'fake-1');
  await picker.selectOption('fake-2');
  // The server's answer (agent/setModel's list) names it the chat's PLAN model.
  await chat().locator('select.model-picker[title*="PLAN: fake-2"]').waitFor();
  await screenshot('model-picker');
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill('Say hi.');
  await prompt.press('Enter');
  await chat().locator('.msg.assistant', { hasText: 'from fake-2: you said "Say hi."' }).waitFor();
  assert.equal(endpoint.requests.at(-1)?.model, 'fake-2');
  // The first prompt named the chat (session_info_update).
  await chat().locator('select.sessions option:checked', { hasText: 'Say hi.' }).waitFor({ state: 'attached' });
  await screenshot('first-answer');
});

test('edit-and-resend and regenerate rewind the conversation, then prompt again', async () => {
  const user = chat().locator('.msg.user', { hasText: 'Say hi.' });
  await user.locator('button.edit').click();
  const box = user.locator('textarea.edit-box');
  await box.fill('Say hello.');
  await screenshot('editing');
  await box.press('Enter');
  await chat().locator('.msg.assistant', { hasText: 'you said "Say hello."' }).waitFor();
  assert.equal(await chat().locator('.msg.user').count(), 1, 'the edited message replaced the old one');
  assert.equal(await chat().locator('.msg.assistant', { hasText: 'Say hi.' }).count(), 0);
  // The model's view no longer has the old prompt.
  assert.deepEqual(endpoint.requests.at(-1)?.users.map((u) => u.split('\n').pop()), ['Say hello.']);
  await screenshot('edited');

  const before = endpoint.requests.length;
  await chat().locator('.turn-actions button.regenerate').click();
  await chat().locator('.msg.assistant', { hasText: `Answer ${before + 1} from fake-2: you said "Say hello."` }).waitFor();
  assert.equal(await chat().locator('.msg.assistant').count(), 1, 'the regenerated answer replaced the old one');
  assert.deepEqual(endpoint.requests.at(-1)?.users.map((u) => u.split('\n').pop()), ['Say hello.']);
  await screenshot('regenerated');

  // Copy puts the message on the clipboard (through the extension).
  await chat().locator('.msg.user button.copy').click();
});

test('a failed prompt survives a reload marked with its error, is not sent again, and Retry answers it', async () => {
  endpoint.failNext('scripted failure for the retry test');
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill('Fail once.');
  await prompt.press('Enter');
  const failed = chat().locator('.notice.failed-prompt', { hasText: 'scripted failure for the retry test' });
  await failed.waitFor();
  await chat().locator('.msg.user.failed', { hasText: 'Fail once.' }).waitFor();
  await screenshot('failed');
  const sent = endpoint.requests.length;

  await page.reload();
  await modeItem().waitFor();
  await openChat();
  await failed.waitFor();
  await chat().locator('.msg.user.failed', { hasText: 'Fail once.' }).waitFor();
  // The turns edit-and-resend and regenerate rewound stay out (agent/loadSession marks them rewound).
  assert.equal(await chat().locator('.msg.user', { hasText: 'Say hi.' }).count(), 0, 'the edited-away prompt stays out after a reload');
  assert.equal(await chat().locator('.msg.assistant', { hasText: 'you said "Say hello."' }).count(), 1, 'only the regenerated answer');
  // The history title came back with the chat.
  await chat().locator('select.sessions option:checked', { hasText: 'Say hi.' }).waitFor({ state: 'attached' });
  await screenshot('reloaded-failed');
  assert.equal(endpoint.requests.length, sent, 'the failed prompt is not sent again on its own');

  await failed.locator('button.retry').click();
  await chat().locator('.msg.assistant', { hasText: 'you said "Fail once."' }).waitFor();
  await failed.waitFor({ state: 'detached' });
  assert.equal(await chat().locator('.msg.user', { hasText: 'Fail once.' }).count(), 1, 'Retry does not add the message again');
  await screenshot('retried');
});

test('history: the chats by title and date; rename', async () => {
  await chat().locator('button.history').click();
  const qp = page.locator('.quick-input-widget');
  const row = qp.locator('.monaco-list-row', { hasText: 'Say hi.' });
  await row.waitFor();
  assert.match(await row.innerText(), /PLAN · (just now|\d+ min ago)/);
  await screenshot('history');
  await row.hover();
  await row.locator('.codicon-edit').first().click();
  // The rename box (the same widget as the list: wait for its prompt before typing).
  await page.locator('.quick-input-widget', { hasText: 'Rename the chat' }).waitFor();
  const box = page.locator('.quick-input-widget input');
  await box.fill('Greetings');
  await box.press('Enter');
  // The list comes back with the new title; Escape closes it.
  await qp.locator('.monaco-list-row', { hasText: 'Greetings' }).waitFor();
  await page.keyboard.press('Escape');
  await chat().locator('select.sessions option:checked', { hasText: 'Greetings' }).waitFor({ state: 'attached' });
  await screenshot('renamed');
});
