// A running call's newest output line under its row in the chat webview
// (tool_call_update in_progress; experimental.agent.toolCallProgress), in
// Debian's Chromium with the built page, driven by the extension's own
// ChatModel snapshots. The line is a command's output: untrusted, shown as
// text only.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import { ChatModel } from '../../src/state';
import { outputDir } from '../e2e/harness';
import { chatPageEachTest, oneSessionModel } from './chatPage';

const out = outputDir('webview-progress');
const chat = chatPageEachTest({ viewport: { width: 360, height: 500 } });
const { show, noCspViolations } = chat;
let dialogs: string[];

beforeEach(() => {
  dialogs = [];
  chat.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
});

const hostile = '<img src=x onerror=alert(1)> **bold** [link](http://x) <script>alert(2)</script>';

const model = () => oneSessionModel({ title: 'Build', mode: 'build' });

const line = (m: ChatModel, text: string) =>
  m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'r1', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text } }] });
const progress = () => chat.page.locator('.tool-row[data-tool-id="r1"] > .tool-progress');

describe("a running call's output line", () => {
  test('shows under the running row as one monospace line of text, replaced by the next, in view, gone at the end', async () => {
    const m = model();
    // Enough conversation before it that the transcript scrolls.
    for (let i = 0; i < 12; i++) {
      m.addPrompt('s1', `question ${i}`);
      m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Answer ${i}: ${'words '.repeat(20)}` } });
    }
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'run go test ./...', kind: 'execute', status: 'in_progress', rawInput: { command: 'go test ./...' } });
    await show(m);
    await chat.page.locator('details.tool[data-tool-id="r1"]').waitFor();
    assert.equal(await progress().count(), 0, 'no line before the command printed one');

    line(m, 'compiling');
    await show(m);
    assert.equal(await progress().innerText(), 'compiling');

    // The next line replaces it: shown literally, no markup made of it, nothing run.
    line(m, hostile);
    await show(m);
    assert.equal(await progress().count(), 1);
    assert.equal(await progress().evaluate((e) => e.textContent), hostile);
    assert.equal(await progress().evaluate((e) => e.childElementCount), 0, 'a text node only');
    assert.equal(await chat.page.locator('main.messages img, main.messages script, main.messages strong').count(), 0);
    assert.equal(await chat.page.locator('main.messages .tool-row a').count(), 0);
    assert.equal(await progress().getAttribute('title'), hostile, 'the whole line in its tooltip');
    const style = await progress().evaluate((e) => {
      const s = getComputedStyle(e);
      return { font: s.fontFamily, whiteSpace: s.whiteSpace, overflow: s.textOverflow, body: getComputedStyle(document.body).fontFamily };
    });
    assert.notEqual(style.font, style.body, 'monospace: the editor font');
    assert.equal(style.whiteSpace, 'pre');
    assert.equal(style.overflow, 'ellipsis');
    // One line, cut: the line is wider than the side bar.
    const box = await progress().evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth, height: e.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(e).lineHeight) || 16 }));
    assert.ok(box.scroll > box.client, `cut with an ellipsis (${box.scroll} > ${box.client})`);
    assert.ok(box.height < 2 * box.lineHeight, `one line (${box.height}px)`);
    // In view: the transcript follows the stream.
    const inView = await progress().evaluate((e) => {
      const r = e.getBoundingClientRect();
      const s = document.querySelector('main.messages')!.getBoundingClientRect();
      return r.top >= s.top && r.bottom <= s.bottom + 1;
    });
    assert.ok(inView, 'the newest line is in view');
    await chat.page.screenshot({ path: path.join(out, 'progress-running.png') });

    // Details opened stay open while lines come.
    const row = chat.page.locator('details.tool[data-tool-id="r1"]');
    await row.locator(':scope > summary').click();
    await row.locator('button.details-toggle').click();
    line(m, 'ok  example.com/x 0.3s');
    await show(m);
    assert.equal(await progress().innerText(), 'ok  example.com/x 0.3s');
    assert.equal(await row.getAttribute('open'), '');
    assert.equal(await row.locator('button.details-toggle').getAttribute('aria-expanded'), 'true');
    assert.equal(await row.locator('pre.tool-io').first().isVisible(), true);

    // The end: the line goes, the summary says how it ended.
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'r1', status: 'completed', rawOutput: { success: true, result: { exit_code: 0, output: 'ok' } } });
    await show(m);
    assert.equal(await chat.page.locator('main.messages .tool-progress').count(), 0);
    assert.equal((await row.locator(':scope > summary .tool-title').innerText()).trim(), 'Ran go test ./... ✓ (exit 0)');
    await chat.page.screenshot({ path: path.join(out, 'progress-ended.png') });
    assert.deepEqual(dialogs, [], 'nothing of the line ran');
    await noCspViolations();
  });
});
