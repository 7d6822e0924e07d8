// What a screen reader hears while an answer streams. Each streamed chunk draws
// the whole assistant message again (a new element replaces the old one); when
// the transcript was one aria-live="polite" region its text was announced again
// from its first word at every chunk: a ten-chunk answer was read out ten times
// over, each time after "Copy". The transcript is no live region now: a status
// line says each answer once, when it is finished, and not the history of a chat
// that opens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { ChatModel } from '../../src/state';
import { chatPagesForFile, oneSessionModel, sendTo, stateMessage } from './chatPage';

const pages = chatPagesForFile({ keepState: false });

/** Records the text given to any live region of the page from now on (nodes added, text changed). */
async function listen(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __announced: string[] };
    w.__announced = [];
    const live = (n: Node | null) => (n instanceof Element ? n : n?.parentElement)?.closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="log"], [role="alert"]');
    new MutationObserver((ms) => {
      for (const x of ms) {
        if (!live(x.target)) continue;
        if (x.type === 'characterData') w.__announced.push(x.target.textContent ?? '');
        for (const n of x.addedNodes) w.__announced.push(n.textContent ?? '');
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const announced = (page: Page) => page.evaluate(() => (window as unknown as { __announced: string[] }).__announced.join(''));

test('a streamed answer reaches the live region once, not again with each chunk', async () => {
  const page = await pages.open({ width: 420, height: 700 });
  const m = oneSessionModel({ title: 'x', createdAt: '2026-11-26T10:00:00Z' });
  m.addPrompt('s1', 'Explain the store.');
  const show = () => sendTo(page, stateMessage(m));
  await show();
  assert.notEqual(await page.locator('main.messages').getAttribute('aria-live'), 'polite', 'the transcript is no live region');
  await listen(page);
  const chunks = ['The store keeps the greetings. ', 'It writes them to disk. ', 'It reads them back at start. ', 'Its tests cover both.'];
  for (const text of chunks) {
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    await show();
  }
  assert.equal(await announced(page), '', 'an answer still streaming is not read out');
  m.endTurn('s1', { stopReason: 'end_turn' });
  await show();
  await show();
  const said = await announced(page);
  const times = said.split('The store keeps the greetings.').length - 1;
  assert.equal(times, 1, `the answer's first sentence was given to the live region ${times} times: ${JSON.stringify(said)}`);
  assert.match(said, /Its tests cover both\./, 'the finished answer is read out whole');
  assert.doesNotMatch(said, /Copy/, 'the answer is read without its buttons');
});

test('a chat that opens does not read out its history', async () => {
  const page = await pages.open({ width: 420, height: 700 });
  await listen(page);
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's2', title: 'y', mode: 'plan', planFile: null, createdAt: '2026-11-26T10:00:00Z', updatedAt: '2026-11-26T10:00:00Z' });
  m.setCurrent('s2');
  m.addPrompt('s2', 'Explain the store.');
  m.applyUpdate('s2', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'An old answer.' } });
  m.endTurn('s2', { stopReason: 'end_turn' });
  await sendTo(page, stateMessage(m));
  assert.doesNotMatch(await announced(page), /An old answer/, 'the history was read out');
});
