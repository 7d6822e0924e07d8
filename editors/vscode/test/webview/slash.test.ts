// The composer's slash-command completion in Debian's Chromium, on the built
// page (same HTML and CSP as in VS Code) with a fake acquireVsCodeApi: typing
// "/" asks the extension for the commands (agent/listCommands), the list
// filters as you type, and ↑/↓, Tab/Enter and Escape work it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ToWebview } from '../../src/messages';
import type { CommandInfo } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { ChatPages, postedBy, sendTo } from './chatPage';

const pages = new ChatPages({ keepState: false });
let page: Page;

before(() => pages.start());
after(() => pages.stop());
beforeEach(async () => {
  page = await pages.open();
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 'Slash', mode: 'plan', planFile: null, createdAt: '2026-11-23T10:00:00Z', updatedAt: '2026-11-23T10:00:00Z' });
  m.setCurrent('s1');
  await send({ type: 'state', snapshot: JSON.parse(JSON.stringify(m.snapshot())), context: null });
});

const send = (m: ToWebview) => sendTo(page, m);
const posted = () => postedBy(page);

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
