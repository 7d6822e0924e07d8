// What a screen reader hears while an answer streams (audit). The transcript is
// one aria-live="polite" region, so every node added inside it is announced. Each
// streamed chunk draws the whole assistant message again (a new element replaces
// the old one), so its text is added, and announced, again from its first word:
// a ten-chunk answer is read out ten times over, each time after "Copy".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ChatModel } from '../../src/state';
import { ChatPages, sendTo } from './chatPage';

const pages = new ChatPages({ keepState: false });
before(() => pages.start());
after(() => pages.stop());

test('a streamed answer reaches the transcript\'s live region once, not again with each chunk', async () => {
  const page = await pages.open({ width: 420, height: 700 });
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 'x', mode: 'plan', planFile: null, createdAt: '2026-11-26T10:00:00Z', updatedAt: '2026-11-26T10:00:00Z' });
  m.setCurrent('s1');
  m.addPrompt('s1', 'Explain the store.');
  const show = () => sendTo(page, { type: 'state', snapshot: JSON.parse(JSON.stringify(m.snapshot())), context: null });
  await show();
  assert.equal(await page.locator('main.messages').getAttribute('aria-live'), 'polite', 'the transcript is a live region');
  // What the live region is given from now on: the text of every node added inside it.
  await page.evaluate(() => {
    const w = window as unknown as { __announced: string[] };
    w.__announced = [];
    new MutationObserver((ms) => {
      for (const x of ms) for (const n of x.addedNodes) w.__announced.push(n.textContent ?? '');
    }).observe(document.querySelector('main.messages')!, { childList: true, subtree: true });
  });
  const chunks = ['The store keeps the greetings. ', 'It writes them to disk. ', 'It reads them back at start. ', 'Its tests cover both.'];
  for (const text of chunks) {
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    await show();
  }
  const announced = (await page.evaluate(() => (window as unknown as { __announced: string[] }).__announced)).join('');
  const times = announced.split('The store keeps the greetings.').length - 1;
  assert.equal(times, 1, `the answer's first sentence was given to the live region ${times} times: ${JSON.stringify(announced)}`);
});
