// The model's context window as its server reports it, in a real VS Code (code-server in Debian's
// Chromium): the model is an OpenAI-compatible endpoint on 127.0.0.1 (fakeOpenAI.ts) set in the
// settings, with no context window configured anywhere. Reporting n_ctx 12288 in GET /props as
// llama.cpp's server does, the chat's usage line says "context … / 12,288" after a prompt (the window
// agentls asked the endpoint for); for a model the endpoint says nothing about, the default window of
// a model name agentls does not know, 32,768. "Test connection" (the command palette's)
// says the window and its source, in the notification and in the chat. A screenshot per case goes
// to the test output folder (context-window/).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeOpenAI, type FakeOpenAI } from './fakeOpenAI';
import { answered, chatFrame, outputDir, showChat, until } from './harness';
import { type Project, startProject } from './project';

const out = outputDir('context-window');
const key = 'sk-fake-context-window';
let endpoint: FakeOpenAI;
let project: Project;

const chat = () => chatFrame(project.page);

before(async () => {
  endpoint = await startFakeOpenAI(['fake-1', 'fake-2'], key);
  // llama.cpp's /props from the start: the extension's model check at start asks it already, and
  // agentls takes a "no such route" there as the endpoint's last word for that model.
  endpoint.reportWindow(12288);
  // The endpoint is the only model: nothing of this machine's environment, and the key as the
  // extension would pass it from its secret storage.
  for (const v of ['OPENAI_BASE_URL', 'AGENTLS_MODEL', 'AGENTLS_PROVIDER', 'AGENTLS_BASE_URL']) delete process.env[v];
  process.env.OPENAI_API_KEY = key;
  project = await startProject('context-window', null, out, { 'notes.txt': 'hello\n' }, {
    'agentls.model.provider': 'openai',
    'agentls.model.baseUrl': endpoint.baseUrl,
    'agentls.model.name': 'fake-1',
  });
  await showChat(project.page, () => project.page.screenshot({ path: path.join(out, 'chat-not-restored.png') }).then(() => undefined));
});

after(async () => {
  await project?.stop();
  await endpoint?.close();
});

/**
 * Sends `text` to `model`, waits for its answer, and checks that the usage line then ends with the
 * context window `window`, formatted as the chat formats it (webview/usage.ts: in the webview's
 * locale); a screenshot `shot` either way.
 */
async function promptShowsWindow(text: string, model: string, window: number, shot: string): Promise<void> {
  const prompt = chat().locator('textarea.prompt');
  await prompt.fill(text);
  await prompt.press('Enter');
  await answered(project.page, `from ${model}: you said "${text}"`, () => project.page.screenshot({ path: path.join(out, `${shot}-failed.png`) }).then(() => undefined));
  assert.equal(endpoint.requests.at(-1)?.model, model);
  const formatted = await chat().locator('body').evaluate((_, n) => n.toLocaleString(), window);
  const footer = chat().locator('footer.usage');
  const shows = new RegExp(`^Tokens: .+ · context \\S+ / ${formatted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  // The usage line follows the answer (usage_update): wait, bounded, for the window, then assert.
  await until(project.page, 10_000, async () => shows.test(await footer.innerText()));
  await project.page.mouse.move(700, 450); // away from the activity bar's hover
  await project.page.screenshot({ path: path.join(out, `${shot}.png`) });
  assert.match(await footer.innerText(), shows, `the usage line names the context window ${formatted}`);
}

test("the window the endpoint reports in llama.cpp's /props is the chat's", async () => {
  await promptShowsWindow('How big is your context?', 'fake-1', 12288, '01-reported-12288');
});

test('"Test connection" names the window and where it comes from', async () => {
  // The command palette's agentls: Test Connection, as a person runs it.
  await project.page.keyboard.press('F1');
  const palette = project.page.locator('.quick-input-widget input');
  await palette.fill('>agentls: Test Connection');
  await project.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Test Connection' }).first().waitFor();
  await palette.press('Enter');
  // The extension host formats the number (in its locale, which is this process's: the same environment).
  const says = `Connected: fake-1 at ${new URL(endpoint.baseUrl).host} answers; context window ${(12288).toLocaleString()} tokens (llama.cpp /props).`;
  const toast = project.page.locator('.notifications-toasts', { hasText: says });
  const shown = await toast.waitFor({ timeout: 30_000 }).then(() => true, () => false);
  // The toast slides in from below: the screenshot once it is all in the window.
  const height = project.page.viewportSize()?.height ?? 900;
  if (shown) await until(project.page, 5_000, async () => ((b) => !!b && b.y + b.height <= height)(await toast.locator('.notification-toast').first().boundingBox()));
  await project.page.screenshot({ path: path.join(out, shown ? '02-test-connection.png' : '02-test-connection-failed.png') });
  assert.ok(shown, `the notification says "agentls: ${says}"`);
  // The chat says it too, where the setup card was.
  await chat().locator('.setup-card.ready .connection-result', { hasText: says }).waitFor();
});

test('a model the endpoint says nothing about has the default window of an unknown model', async () => {
  endpoint.reportWindow(undefined);
  // Another model: agentls asks its window anew (for fake-1 it has the answer already).
  const picker = chat().locator('select.model-picker');
  await picker.selectOption('fake-2');
  await chat().locator('select.model-picker[title*="PLAN: fake-2"]').waitFor();
  await promptShowsWindow('And now?', 'fake-2', 32768, '03-default-32768');
});
