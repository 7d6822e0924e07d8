// The chat page's basics in Debian's Chromium (the built page, strict CSP,
// a fake acquireVsCodeApi recording posts, as in chat.test.ts): the setup
// card and its buttons, the model picker, Copy / Edit / Regenerate on
// messages and Retry on a failed prompt.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { setupState } from '../../src/firstRun';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { chatPageEachTest, oneSessionModel } from './chatPage';

const out = outputDir('webview-basics');
const chat = chatPageEachTest();
const { send, show, posted, noCspViolations } = chat;
const model = () => oneSessionModel({ title: 'Louder' });

const sandbox = { mode: 'none', landlock: 'no', bwrap: 'no', network: false, summary: 'none' };

describe('setup card', () => {
  test('no key: what is missing in plain words, a button per fix; a passing test leaves a green line', async () => {
    const setup = setupState({ ok: false, provider: 'openai', model: 'gpt-4.1', baseUrl: 'https://api.openai.com/v1', message: 'no API key: set OPENAI_API_KEY, or model.api_key_env in .agentls.yaml', sandbox });
    await send({ type: 'basics', setup, connection: null, models: null });
    const card = chat.page.locator('.setup-card');
    assert.match(await card.innerText(), /No API key is set/);
    assert.doesNotMatch(await card.innerText(), /OPENAI_API_KEY|agentls\.yaml/);
    assert.deepEqual(await card.locator('button').allInnerTexts(), ['Set API Key', 'Open Settings', 'Test connection', 'Open walkthrough']);
    await chat.page.screenshot({ path: path.join(out, 'setup-card.png'), fullPage: true });
    await card.locator('button', { hasText: 'Test connection' }).click();
    await card.locator('button', { hasText: 'Open walkthrough' }).click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'setupAction'), [{ type: 'setupAction', action: 'test' }, { type: 'setupAction', action: 'walkthrough' }]);
    await send({ type: 'basics', setup: null, connection: { ok: true, text: 'Connected: m at h answers.' }, models: null });
    assert.match(await chat.page.locator('.setup-card.ready').innerText(), /Connected: m at h answers\./);
    await noCspViolations();
  });
});

describe('model picker', () => {
  test('lists the models, selects the mode\'s, posts the choice', async () => {
    const m = model();
    await show(m);
    const picker = chat.page.locator('select.model-picker');
    assert.equal(await picker.isHidden(), true, 'no models: no picker');
    await send({ type: 'basics', setup: null, connection: null, models: { models: [{ id: 'a', provider: 'openai' }, { id: 'b', provider: 'openai' }], current: { plan: 'b', build: 'a' } } });
    assert.deepEqual(await picker.locator('option').allInnerTexts(), ['a', 'b']);
    assert.equal(await picker.inputValue(), 'b');
    await picker.selectOption('a');
    assert.deepEqual((await posted()).filter((p) => p.type === 'setModel'), [{ type: 'setModel', model: 'a' }]);
    // BUILD in view: its model.
    m.get('s1')!.session.mode = 'build';
    await show(m);
    assert.equal(await picker.inputValue(), 'a');
  });

  test('a 300 px sidebar wraps the header: nothing is cut', async () => {
    await chat.page.setViewportSize({ width: 300, height: 600 });
    const m = model();
    await show(m);
    await send({ type: 'basics', setup: null, connection: null, models: { models: [{ id: 'gpt-4.1-mini', provider: 'openai' }], current: { plan: 'gpt-4.1-mini', build: 'gpt-4.1-mini' } } });
    const cut = await chat.page.evaluate(() => {
      const header = document.querySelector('.chat-header')!.getBoundingClientRect();
      return [...document.querySelectorAll('.chat-header > *')]
        .filter((e) => !(e as HTMLElement).hidden)
        .filter((e) => e.getBoundingClientRect().right > header.right + 0.5 || e.getBoundingClientRect().width < 24)
        .map((e) => e.className);
    });
    await chat.page.screenshot({ path: path.join(out, 'header-300px.png') });
    assert.deepEqual(cut, [], 'header items cut or squeezed');
  });
});

describe('message actions', () => {
  function conversation(): ChatModel {
    const m = model();
    m.addPrompt('s1', 'Say hi.');
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello.' } });
    m.endTurn('s1', { stopReason: 'end_turn' });
    return m;
  }
  test('Copy posts the text; Edit turns the message into an editor, Enter resends; Regenerate under the last answer', async () => {
    const m = conversation();
    await show(m);
    const user = chat.page.locator('.msg.user');
    await user.locator('button.copy').click();
    await user.locator('button.edit').click();
    const box = user.locator('textarea.edit-box');
    assert.equal(await box.inputValue(), 'Say hi.');
    await box.fill('Say hello.');
    await chat.page.screenshot({ path: path.join(out, 'editing.png'), fullPage: true });
    await box.press('Enter');
    await box.waitFor({ state: 'detached' });
    await chat.page.locator('.turn-actions button.regenerate').click();
    const id = m.get('s1')!.items[0].id;
    assert.deepEqual((await posted()).filter((p) => ['copy', 'editMessage', 'regenerate'].includes(p.type)), [
      { type: 'copy', text: 'Say hi.' },
      { type: 'editMessage', itemId: id, text: 'Say hello.' },
      { type: 'regenerate', itemId: id },
    ]);
    // Escape cancels an edit; no Regenerate while a turn runs.
    await user.locator('button.edit').click();
    await user.locator('textarea.edit-box').press('Escape');
    assert.equal(await user.locator('textarea.edit-box').count(), 0);
    m.addPrompt('s1', 'more');
    await show(m);
    assert.equal(await chat.page.locator('.turn-actions button.regenerate').count(), 0);
    await noCspViolations();
  });

  test('a failed prompt is marked, its error shown with Retry; a later prompt takes Retry away', async () => {
    const m = model();
    m.loadMessages(m.get('s1')!.session, [{ id: 'x', role: 'user', content: 'Fail once.', error: 'model request failed: 400 scripted' }]);
    await show(m);
    await chat.page.locator('.msg.user.failed', { hasText: 'Fail once.' }).waitFor();
    const notice = chat.page.locator('.notice.failed-prompt');
    assert.match(await notice.innerText(), /The turn stopped: model request failed: 400 scripted/);
    await chat.page.screenshot({ path: path.join(out, 'failed-prompt.png'), fullPage: true });
    await notice.locator('button.retry').click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'retry'), [{ type: 'retry' }]);
    m.addPrompt('s1', 'something else');
    await show(m);
    assert.equal(await chat.page.locator('.notice button.retry').count(), 0);
  });

  test("a prompt that failed for want of a key says so in plain words, with the setup's buttons beside Retry", async () => {
    const m = model();
    m.addPrompt('s1', 'Hi.');
    m.endTurn('s1', { stopReason: 'error', error: { message: 'no API key: set OPENAI_API_KEY, or model.api_key_env in .agentls.yaml' } });
    await show(m);
    const notice = chat.page.locator('.notice.failed-prompt.needs-setup');
    assert.match(await notice.innerText(), /^\s*The turn stopped: No API key is set\./);
    assert.equal(await notice.locator('pre').isVisible(), false, 'the server text only under Details');
    assert.deepEqual((await notice.locator('.buttons button').allInnerTexts()).map((t) => t.trim()), ['Retry', 'Set API Key', 'Open Settings', 'Open walkthrough']);
    await notice.locator('button', { hasText: 'Set API Key' }).click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'setupAction'), [{ type: 'setupAction', action: 'apiKey' }]);
    await chat.page.screenshot({ path: path.join(out, 'failed-needs-setup.png'), fullPage: true });
  });
});
