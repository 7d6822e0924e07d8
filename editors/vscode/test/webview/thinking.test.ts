// The thinking a model streamed live (agent_thought_chunk) is on screen again
// when the session is loaded (agent/loadSession's thinking): the same block,
// in the same place, before the answer, in Debian's Chromium with the built page.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { WireMessage } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { chatPageEachTest, oneSessionModel } from './chatPage';

const out = outputDir('webview-thinking');
const chat = chatPageEachTest();
const thinking = 'The test fails first; read **main.go** before changing it.';

/** The conversation's blocks as a person reads them, top to bottom: thinking, answers and tool rows. */
async function blocks(): Promise<string[]> {
  return chat.page.locator('main.messages .msg.thought, main.messages .msg.assistant, main.messages details.tool').evaluateAll((els) =>
    els.map((e) => `${e.classList.contains('thought') ? 'thinking' : e.classList.contains('assistant') ? 'answer' : 'tool'}: ${(e.querySelector('.markdown, summary') as HTMLElement).innerText.trim()}`),
  );
}

describe('thinking', () => {
  test('a reloaded session shows the thinking block the live chat showed, before the answer', async () => {
    const live = oneSessionModel({ title: 'Fix it' });
    live.addPrompt('s1', 'Fix it');
    for (const part of ['The test fails first; ', 'read **main.go** before changing it.']) {
      live.applyUpdate('s1', { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: part } });
    }
    live.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Looking at main.go.' } });
    live.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'r', title: 'read main.go', kind: 'read', status: 'completed', rawInput: { path: 'main.go' } });
    live.endTurn('s1', { stopReason: 'end_turn' });
    await chat.show(live);
    await chat.page.locator('.msg.thought').waitFor();
    const liveBlocks = await blocks();
    const liveHtml = await chat.page.locator('.msg.thought').evaluate((e) => e.outerHTML);

    const messages: WireMessage[] = [
      { role: 'user', content: 'Fix it' },
      { role: 'assistant', content: 'Looking at main.go.', thinking, tool_calls: [{ id: 'r', name: 'read', arguments: '{"path":"main.go"}', title: 'read main.go', kind: 'read' }] },
      { role: 'tool', tool_call_id: 'r', content: JSON.stringify({ success: true, result: { content: 'package main' } }), status: 'completed' },
    ];
    const reloaded = new ChatModel();
    reloaded.loadMessages({ sessionId: 's1', title: 'Fix it', mode: 'plan', planFile: null, createdAt: '2026-11-23T10:00:00Z', updatedAt: '2026-11-23T10:00:00Z' }, messages);
    reloaded.setCurrent('s1');
    await chat.page.reload();
    await chat.show(reloaded);
    const block = chat.page.locator('.msg.thought');
    await block.waitFor();
    assert.ok(await block.isVisible());
    assert.equal((await block.locator('.who').innerText()).trim(), 'Thinking');
    assert.equal(await block.locator('.markdown').innerText(), 'The test fails first; read main.go before changing it.');
    assert.deepEqual(await blocks(), liveBlocks);
    assert.deepEqual(await blocks(), ['thinking: The test fails first; read main.go before changing it.', 'answer: Looking at main.go.', 'tool: Read main.go']);
    assert.equal(await block.evaluate((e) => e.outerHTML), liveHtml, 'the same block as live');
    await chat.page.screenshot({ path: path.join(out, 'thinking-reloaded.png'), fullPage: true });
    await chat.noCspViolations();
  });

  test('a session loaded from an older server (no thinking) shows none', async () => {
    const m = new ChatModel();
    m.loadMessages({ sessionId: 's1', title: 'Hi', mode: 'plan', planFile: null, createdAt: 'x', updatedAt: 'x' }, [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
    ]);
    m.setCurrent('s1');
    await chat.show(m);
    await chat.page.locator('.msg.assistant').waitFor();
    assert.equal(await chat.page.locator('.msg.thought').count(), 0);
  });
});
