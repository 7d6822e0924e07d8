// The composer's slash-command completion in Debian's Chromium, on the built
// page (same HTML and CSP as in VS Code) with a fake acquireVsCodeApi: typing
// "/" asks the extension for the commands (agent/listCommands), the list
// filters as you type, and ↑/↓, Tab/Enter and Escape work it.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { CommandInfo } from '../../src/protocol';
import { chatPageEachTest, oneSessionModel } from './chatPage';

const chat = chatPageEachTest({ keepState: false });
const { send, show, posted, noCspViolations } = chat;

// Each test's page shows one chat, in PLAN mode.
beforeEach(() => show(oneSessionModel({ title: 'Slash' })));

const commands: CommandInfo[] = [
  { name: 'plan', description: 'Switch to plan mode' },
  { name: 'plans', description: 'List the plans of this workspace' },
  { name: 'reject', description: 'Reject the plan awaiting approval', hint: '<reason>' },
  { name: 'review', description: 'Review a file (project)', hint: '<file>' },
];

describe('slash commands', () => {
  test('"/" asks for the commands; the list filters, and Tab completes the chosen one', async () => {
    const prompt = chat.page.locator('textarea.prompt');
    await prompt.click();
    await chat.page.keyboard.type('/');
    assert.equal((await posted()).filter((m) => m.type === 'listCommands').length, 1);
    await send({ type: 'commands', commands });
    const menu = chat.page.locator('ul.slash-menu');
    await menu.waitFor();
    assert.deepEqual(await menu.locator('.slash-name').allInnerTexts(), ['/plan', '/plans', '/reject', '/review']);
    assert.match(await menu.locator('[data-command="review"]').innerText(), /<file>.*Review a file \(project\)/);
    await chat.page.keyboard.type('re');
    assert.deepEqual(await menu.locator('.slash-name').allInnerTexts(), ['/reject', '/review']);
    await chat.page.keyboard.press('ArrowDown');
    assert.equal(await menu.locator('.slash-item.active').getAttribute('data-command'), 'review');
    await chat.page.keyboard.press('Tab');
    assert.equal(await prompt.inputValue(), '/review ');
    assert.equal(await menu.isHidden(), true);
    // Nothing was sent while completing; Enter now sends the command.
    assert.equal((await posted()).filter((m) => m.type === 'prompt').length, 0);
    await chat.page.keyboard.type('main.go');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual((await posted()).filter((m) => m.type === 'prompt'), [{ type: 'prompt', text: '/review main.go' }]);
  });

  test('Enter picks, Escape closes, a click picks; "//" and text after a blank show no list', async () => {
    const prompt = chat.page.locator('textarea.prompt');
    await prompt.click();
    await chat.page.keyboard.type('/pl');
    await send({ type: 'commands', commands });
    const menu = chat.page.locator('ul.slash-menu');
    await menu.waitFor();
    await chat.page.keyboard.press('Enter');
    assert.equal(await prompt.inputValue(), '/plan ');
    await prompt.fill('');
    await chat.page.keyboard.type('/p');
    await menu.waitFor();
    await chat.page.keyboard.press('Escape');
    assert.equal(await menu.isHidden(), true);
    assert.equal(await prompt.inputValue(), '/p');
    await chat.page.keyboard.type('l');
    await menu.locator('[data-command="plans"]').click();
    assert.equal(await prompt.inputValue(), '/plans ');
    await prompt.fill('');
    await chat.page.keyboard.type('//x');
    assert.equal(await menu.isHidden(), true);
    await prompt.fill('');
    await chat.page.keyboard.type('/zzz');
    assert.equal(await menu.isHidden(), true, 'no match, no list');
    assert.equal((await posted()).filter((m) => m.type === 'prompt').length, 0);
    await noCspViolations();
  });
});
