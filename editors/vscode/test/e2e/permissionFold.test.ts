// A permission question in a real VS Code at a small window code-server
// in a 1024×640 Chromium window, the chat in a 300 px side bar, BUILD mode, the
// packaged .vsix, the real server and the scripted model
// (fixtures/fold/permission.yaml). The person sends the prompt
// with the Send button; the model runs a long single-line command that needs
// asking. Every permission question must show what it grants: the command must
// be on screen, whole, when the question appears. The question focuses its
// Reject button, and that scrolls the card to its end: the command's first
// lines (where it sends /etc/passwd away) are above the card's visible box.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { outputDir } from './harness';
import { smallWindowProject } from './project';

const out = outputDir('e2e-permission-fold');
const openChat = smallWindowProject('permission-fold', 'fold/permission.yaml', out);

test('at 1024×640 in a 300 px side bar a run permission shows its whole command when it appears', async () => {
  const { page, chat, prompt } = await openChat();
  // BUILD, as in startBuildProject (PLAN → BUILD by hand asks nothing).
  await chat.locator('.mode-tab.build').click();
  await chat.locator('.mode-tab.build[aria-selected="true"]').waitFor();
  await prompt.fill('Count the TODOs.');
  await chat.locator('button.send').click();
  const bar = chat.locator('form.question-bar', { has: chat.locator('.permission-run') });
  await bar.waitFor({ timeout: 120_000 });
  await chat.locator('.msg.assistant', { hasText: 'LEAD-IN-RUN' }).waitFor();
  // The question takes the focus (its first button) when it appears: let it settle.
  await chat.locator('form.question-bar button:focus').waitFor();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: path.join(out, '01-permission.png') });
  const seen = await bar.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const head = el.querySelector(':scope > .panel-head')!.getBoundingClientRect();
    const what = el.querySelector('.permission-what')!.getBoundingClientRect();
    return {
      ok: what.top >= head.bottom - 1 && what.bottom <= box.bottom + 1 && box.bottom <= window.innerHeight,
      why: `command ${Math.round(what.top)}–${Math.round(what.bottom)}, the card's visible part below its head ${Math.round(head.bottom)}–${Math.round(box.bottom)} (view ${window.innerWidth}×${window.innerHeight}), scrollTop ${el.scrollTop}, focus on "${document.activeElement?.textContent}"`,
    };
  });
  assert.ok(seen.ok, `the command is not wholly in view when the permission appears: ${seen.why}`);
});
