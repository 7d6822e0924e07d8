// The chat's layout in Debian's Chromium (the built page, same HTML and CSP as
// in VS Code), driven with the extension's own snapshots: the transcript
// follows the stream unless the user scrolled up ("Jump to latest"), panels
// appear without hiding the newest line, collapse by mouse and keyboard, and
// never squeeze the transcript; the approval shows the plan once, rendered;
// markdown fits a 300 px sidebar, code blocks have Copy and Insert.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ToWebview } from '../../src/messages';
import type { Question } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { atEnd } from '../../webview/follow';
import { outputDir } from '../e2e/harness';
import { chatPagesForFile, oneSessionModel, planApprovalQuestions, planPermission, postedBy, sendTo, stateMessage } from './chatPage';

const out = outputDir('webview-layout');
const pages = chatPagesForFile({ keepState: false, nonce: 'layoutnonce1' });

const open = (width: number, height: number) => pages.open({ width, height });

async function send(page: Page, m: ToWebview): Promise<void> {
  await sendTo(page, m);
  // Let the ResizeObserver and MutationObserver of the follower run (they run before the next paint).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const show = (page: Page, m: ChatModel) => send(page, stateMessage(m));

const posted = (page: Page) => postedBy(page);

const model = () => oneSessionModel({ title: 'Layout', createdAt: '2026-11-26T10:00:00Z' });

function say(m: ChatModel, text: string): void {
  m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

/** A conversation longer than the view: n paragraphs, the last one marked. */
function longTalk(m: ChatModel, n: number, last: string): void {
  m.addPrompt('s1', 'Tell me a lot.');
  for (let i = 1; i < n; i++) say(m, `Paragraph ${i}: ${'words '.repeat(30)}\n\n`);
  say(m, last);
}

/** Whether the newest transcript element is wholly inside the transcript's visible box. */
async function newestInView(page: Page): Promise<{ ok: boolean; why: string }> {
  return page.evaluate(() => {
    const box = document.querySelector('.messages')!.getBoundingClientRect();
    const items = document.querySelectorAll('.messages > *');
    const last = items[items.length - 1] as HTMLElement;
    // The last line of the newest item: its bottom edge must be inside the box.
    const r = last.getBoundingClientRect();
    const ok = r.bottom <= box.bottom + 1 && r.bottom >= box.top && box.height > 0;
    return { ok, why: `newest bottom ${r.bottom}, transcript ${box.top}–${box.bottom}` };
  });
}

async function scrollState(page: Page): Promise<{ top: number; atEnd: boolean; pill: boolean }> {
  return page.evaluate(() => {
    const el = document.querySelector('.messages')!;
    const pill = document.querySelector<HTMLElement>('.jump-latest')!;
    return { top: el.scrollTop, atEnd: el.scrollHeight - el.scrollTop - el.clientHeight <= 24, pill: !pill.hidden && pill.getBoundingClientRect().height > 0 };
  });
}

/** No outer scrollbar: the page fits its window, the footer wholly visible. */
async function fitsWindow(page: Page): Promise<void> {
  const f = await page.evaluate(() => {
    const d = document.documentElement;
    const foot = document.querySelector('footer.usage')!.getBoundingClientRect();
    return { sh: d.scrollHeight, ch: d.clientHeight, sw: d.scrollWidth, cw: d.clientWidth, footBottom: foot.bottom, h: window.innerHeight };
  });
  assert.ok(f.sh <= f.ch, `no vertical overflow (${f.sh} > ${f.ch})`);
  assert.ok(f.sw <= f.cw, `no horizontal overflow (${f.sw} > ${f.cw})`);
  assert.ok(f.footBottom <= f.h, `the token footer is not cut (${f.footBottom} > ${f.h})`);
}

const form: Question[] = [
  { name: 'name', question: 'Name of the service?', schema: { type: 'string', minLength: 3 } },
  { name: 'port', question: 'Port?', schema: { type: 'integer', minimum: 1 } },
  { name: 'env', question: 'Environment?', schema: { type: 'string', enum: ['dev', 'staging', 'prod'] } },
  { name: 'features', question: 'Features?', schema: { type: 'array', items: { type: 'string', enum: ['auth', 'metrics', 'tracing', 'cache'] } } },
];

const approvalQuestions = planApprovalQuestions('plans/x.plan');

const steps = ['Add the store', 'Write the handler', 'Wire the routes', 'Test the handler', 'Document the API'];

function withPlan(m: ChatModel): void {
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: steps.map((content) => ({ content, priority: 'medium', status: 'pending' })) });
}

const planText = `---\ntitle: Store\n---\n# Goal\nA small **store**.\n\n## Steps\n${steps.map((s) => `- [ ] ${s}`).join('\n')}\n\n## Verification\n\`go test ./...\`\n`;

describe('follow', () => {
  test('atEnd counts a few pixels from the end as the end', () => {
    assert.equal(atEnd({ scrollHeight: 1000, scrollTop: 600, clientHeight: 400 }), true);
    assert.equal(atEnd({ scrollHeight: 1000, scrollTop: 590, clientHeight: 400 }), true);
    assert.equal(atEnd({ scrollHeight: 1000, scrollTop: 500, clientHeight: 400 }), false);
  });

  test('the transcript follows the stream; scrolled up it stays put and "Jump to latest" brings the end back', async () => {
    const page = await open(420, 700);
    const m = model();
    longTalk(m, 20, 'Streaming now.');
    await show(page, m);
    assert.ok((await newestInView(page)).ok, 'at the end after the first render');
    // More streams: still following.
    for (let i = 0; i < 5; i++) {
      say(m, ` more ${i} ${'text '.repeat(40)}\n\n`);
      await show(page, m);
      const v = await newestInView(page);
      assert.ok(v.ok, `follows chunk ${i}: ${v.why}`);
    }
    assert.equal((await scrollState(page)).pill, false, 'no pill while following');
    // The user scrolls up (the wheel): the view stays where they put it while text streams.
    await page.locator('.messages').hover();
    await page.mouse.wheel(0, -600);
    await page.waitForFunction(() => document.querySelector('.messages')!.scrollTop > 0 && !document.querySelector<HTMLElement>('.jump-latest')!.hidden);
    const before = await scrollState(page);
    assert.equal(before.atEnd, false);
    assert.equal(before.pill, true, 'the pill shows once scrolled up');
    await page.screenshot({ path: path.join(out, 'jump-pill.png') });
    say(m, `\n\nLater text ${'more '.repeat(80)}`);
    await show(page, m);
    const during = await scrollState(page);
    assert.equal(during.top, before.top, 'new text does not move a transcript the user scrolled up');
    assert.equal(during.pill, true);
    // The pill: to the end, hidden, following again.
    await page.locator('button.jump-latest').click();
    await page.waitForFunction(() => document.querySelector<HTMLElement>('.jump-latest')!.hidden);
    assert.ok((await newestInView(page)).ok, 'the pill scrolled to the end');
    say(m, ` and the very end ${'x '.repeat(200)}`);
    await show(page, m);
    assert.ok((await newestInView(page)).ok, 'following again after the pill');
    // Scrolled up, another chat opens at its end.
    await page.mouse.wheel(0, -600);
    await page.waitForFunction(() => !document.querySelector<HTMLElement>('.jump-latest')!.hidden);
    m.upsertSession({ sessionId: 's2', title: 'Other', mode: 'plan', planFile: null, createdAt: '2026-11-26T11:00:00Z', updatedAt: '2026-11-26T11:00:00Z' });
    m.setCurrent('s2');
    m.addPrompt('s2', 'Another question.');
    for (let i = 0; i < 20; i++) m.applyUpdate('s2', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Other ${i}: ${'words '.repeat(30)}\n\n` } });
    await show(page, m);
    assert.ok((await newestInView(page)).ok, 'another chat opens at its end');
    assert.equal((await scrollState(page)).pill, false);
    await page.close();
  });

  test('a question form, the approval and a grown panel keep the newest line in view', async () => {
    const page = await open(420, 900);
    const m = model();
    longTalk(m, 20, 'One question before I plan: **the lead-in**.');
    await show(page, m);
    m.ask({ sessionId: 's1', questionId: 'q1', createdAt: 'x', purpose: 'question', questions: form });
    await show(page, m);
    await page.locator('form.question-bar').waitFor();
    let v = await newestInView(page);
    assert.ok(v.ok, `the lead-in is on screen with the question: ${v.why}`);
    await page.screenshot({ path: path.join(out, 'question.png') });
    // The plan panel appears above and the approval below.
    m.clearQuestion('s1', 'q1');
    withPlan(m);
    say(m, '\n\nThe plan is ready for your review.');
    m.ask({ sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: approvalQuestions });
    await show(page, m);
    await page.locator('form.question-bar.approval').waitFor();
    v = await newestInView(page);
    assert.ok(v.ok, `the newest line is in view at approval: ${v.why}`);
    // The plan's text arrives: the panel grows, the newest line stays.
    await send(page, { type: 'planText', planFile: 'plans/x.plan', text: planText });
    v = await newestInView(page);
    assert.ok(v.ok, `the newest line is in view after the panel grew: ${v.why}`);
    await page.close();
  });
});

describe('panels', () => {
  test('at approval in a 900 px window the transcript keeps ≥ 40 %, nothing overflows; the plan is shown once, rendered, the feedback above the buttons', async () => {
    const page = await open(420, 900);
    const m = model();
    longTalk(m, 10, 'The plan is ready for your review.');
    withPlan(m);
    m.ask({ sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: approvalQuestions, permission: planPermission('plans/x.plan', ['go test ./...', 'git diff *']) });
    await show(page, m);
    const bar = page.locator('form.question-bar.approval');
    await bar.waitFor();
    // Room, before the plan's text arrives and after (below): the transcript keeps ≥ 40 %, the page fits.
    const before = await page.evaluate(() => document.querySelector('.messages')!.getBoundingClientRect().height / window.innerHeight);
    assert.ok(before >= 0.4, `transcript share ${before.toFixed(3)} ≥ 0.4`);
    await fitsWindow(page);
    assert.deepEqual((await posted(page)).filter((p) => p.type === 'readPlan'), [{ type: 'readPlan', planFile: 'plans/x.plan' }], 'the panel asks for the plan text');
    await send(page, { type: 'planText', planFile: 'plans/x.plan', text: planText });
    const rendered = bar.locator('.plan-rendered');
    await rendered.locator('h1', { hasText: 'Goal' }).waitFor();
    assert.equal(await rendered.locator('strong', { hasText: 'store' }).count(), 1, 'markdown, rendered');
    assert.equal(await rendered.locator('li.task').count(), 5);
    assert.equal(await rendered.innerText().then((t) => t.includes('title: Store')), false, 'the front matter is not shown');
    // Steps once: the plan panel above is hidden while the approval shows the plan.
    assert.equal(await page.locator('.plan-panel').isVisible(), false);
    const shown = await page.evaluate(() => [...document.querySelectorAll('li')].filter((li) => li.checkVisibility() && li.textContent?.includes('Write the handler')).length);
    assert.equal(shown, 1, 'each step shows once');
    // Feedback above the buttons.
    const fb = await bar.locator('[data-field="feedback"]').boundingBox();
    const btns = await bar.locator('[data-field="approve"] .buttons').boundingBox();
    assert.ok(fb && btns && fb.y + fb.height <= btns.y + 1, `feedback (${fb?.y}) above the buttons (${btns?.y})`);
    // Both in view without scrolling the panel: the plan scrolls inside it instead.
    const panelBox = (await bar.boundingBox())!;
    assert.ok(fb.y >= panelBox.y && btns.y + btns.height <= panelBox.y + panelBox.height + 1, 'the feedback box and the buttons are in view');
    // Open plan opens the source.
    await bar.locator('a.open-plan').click();
    assert.deepEqual((await posted(page)).filter((p) => p.type === 'openPlan'), [{ type: 'openPlan', planFile: 'plans/x.plan' }]);
    await page.screenshot({ path: path.join(out, 'approval-900.png') });
    // Room: the transcript keeps at least 40 % of the view; the page fits.
    const share = await page.evaluate(() => document.querySelector('.messages')!.getBoundingClientRect().height / window.innerHeight);
    assert.ok(share >= 0.4, `transcript share ${share.toFixed(3)} ≥ 0.4`);
    await fitsWindow(page);
    // The buttons stay reachable (the panel scrolls inside itself, its buttons kept at its bottom).
    assert.ok(await bar.locator('button', { hasText: 'Accept & Build' }).isVisible());
    const accept = await bar.locator('button', { hasText: 'Accept & Build' }).boundingBox();
    const composer = await page.locator('.composer').boundingBox();
    assert.ok(accept && composer && accept.y + accept.height <= composer.y + 1, 'Accept & Build above the composer, not cut');
    assert.ok((await newestInView(page)).ok);
    await page.close();
  });

  for (const [height, lines] of [[780, 0], [1000, 3]] as const) {
    test(`at approval in a 300 × ${height} side bar the card fits: Open plan in view, nothing scrolled under its head${lines ? `, at least ${lines} lines of the plan` : ''}`, async () => {
      const page = await open(300, height);
      const m = model();
      longTalk(m, 10, 'The plan is ready for your review.');
      withPlan(m);
      m.ask({ sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions: approvalQuestions, permission: planPermission('plans/x.plan', ['git diff *']) });
      await show(page, m);
      const bar = page.locator('form.question-bar.approval');
      await bar.waitFor();
      await send(page, { type: 'planText', planFile: 'plans/x.plan', text: planText });
      await bar.locator('.plan-rendered h1', { hasText: 'Goal' }).waitFor();
      await send(page, { type: 'planText', planFile: 'plans/x.plan', text: planText }); // one more frame: the autofocus has run
      await page.screenshot({ path: path.join(out, `approval-sidebar-${height}.png`) });
      const g = await page.evaluate(() => {
        const card = document.querySelector<HTMLElement>('form.question-bar.approval')!;
        const head = card.querySelector('.panel-head')!.getBoundingClientRect();
        const link = card.querySelector('a.open-plan')!.getBoundingClientRect();
        const box = card.querySelector<HTMLElement>('.plan-rendered')!;
        const shown = box.getBoundingClientRect();
        const clip = box.closest('.approval-plan')!.getBoundingClientRect();
        const line = parseFloat(getComputedStyle(box).lineHeight) || 1.2 * parseFloat(getComputedStyle(box).fontSize);
        const visible = Math.max(0, Math.min(shown.bottom, clip.bottom) - Math.max(shown.top, clip.top, head.bottom));
        return { cardScroll: card.scrollTop, headBottom: head.bottom, linkTop: link.top, linkBottom: link.bottom, cardBottom: card.getBoundingClientRect().bottom, lines: visible / line };
      });
      assert.equal(g.cardScroll, 0, 'the card itself is not scrolled (its content would slide under its sticky head)');
      assert.ok(g.linkTop >= g.headBottom - 1 && g.linkBottom <= g.cardBottom, `Open plan in view (${g.linkTop}–${g.linkBottom}, head ends ${g.headBottom})`);
      assert.ok(g.lines >= lines, `at least ${lines} lines of the plan in view (${g.lines.toFixed(1)})`);
      // The feedback question is the box's placeholder and accessible name.
      const fb = bar.locator('[data-field="feedback"] textarea');
      assert.equal(await fb.getAttribute('placeholder'), 'What should change in the plan? (optional)');
      assert.equal(await fb.getAttribute('aria-label'), 'What should change in the plan? (optional)');
      const accept = (await bar.locator('button', { hasText: 'Accept & Build' }).boundingBox())!;
      const card = (await bar.boundingBox())!;
      assert.ok(accept.y + accept.height <= card.y + card.height + 1, 'Accept & Build inside the card, not cut');
      const share = await page.evaluate(() => document.querySelector('.messages')!.getBoundingClientRect().height / window.innerHeight);
      assert.ok(share >= 0.4, `transcript share ${share.toFixed(3)} ≥ 0.4`);
      assert.ok((await newestInView(page)).ok, 'the newest line in view');
      await fitsWindow(page);
      await page.close();
    });
  }

  test('panels fold and unfold by mouse and keyboard, and stay folded across renders', async () => {
    const page = await open(420, 700);
    const m = model();
    longTalk(m, 5, 'Working.');
    withPlan(m);
    await show(page, m);
    const panel = page.locator('section.plan-panel');
    const toggle = panel.locator('.panel-head > button.panel-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await panel.locator('.plan-steps').isVisible(), true);
    const tall = (await panel.boundingBox())!.height;
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await panel.locator('.plan-steps').isVisible(), false);
    assert.ok((await panel.boundingBox())!.height < tall / 2, 'folded, the panel is only its head');
    assert.equal(await panel.locator('.plan-link').isVisible(), true, 'the head (and its link) stays');
    // A later render (a step ticked) keeps it folded.
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: steps.map((content, i) => ({ content, priority: 'medium', status: i === 0 ? 'completed' : 'pending' })) });
    await show(page, m);
    assert.equal(await panel.locator('.panel-head > button.panel-toggle').getAttribute('aria-expanded'), 'false');
    // Keyboard: focus the chevron, Enter unfolds, Space folds.
    await panel.locator('.panel-head > button.panel-toggle').focus();
    await page.keyboard.press('Enter');
    assert.equal(await panel.locator('.panel-head > button.panel-toggle').getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Space');
    assert.equal(await panel.locator('.panel-head > button.panel-toggle').getAttribute('aria-expanded'), 'false');
    // A question folds too; a new question starts unfolded.
    m.ask({ sessionId: 's1', questionId: 'q1', createdAt: 'x', purpose: 'question', questions: form });
    await show(page, m);
    const bar = page.locator('form.question-bar');
    await bar.locator('.panel-head > button.panel-toggle').click();
    assert.equal(await bar.locator('[data-field="name"]').isVisible(), false);
    assert.ok((await newestInView(page)).ok, 'folding keeps the newest line in view');
    m.ask({ sessionId: 's1', questionId: 'q2', createdAt: 'x', purpose: 'question', questions: form });
    await show(page, m);
    assert.equal(await page.locator('form.question-bar [data-field="name"]').isVisible(), true);
    await page.screenshot({ path: path.join(out, 'panels.png') });
    await page.close();
  });

  test('a form taller than the view scrolls inside itself and leaves the transcript ≥ 40 %', async () => {
    const page = await open(420, 600);
    const m = model();
    longTalk(m, 10, 'Four fields, please.');
    withPlan(m);
    m.ask({ sessionId: 's1', questionId: 'q1', createdAt: 'x', purpose: 'question', questions: [...form, ...form.map((q) => ({ ...q, name: `${q.name}2` }))] });
    await show(page, m);
    const bar = page.locator('form.question-bar');
    await bar.waitFor();
    const share = await page.evaluate(() => document.querySelector('.messages')!.getBoundingClientRect().height / window.innerHeight);
    assert.ok(share >= 0.4, `transcript share ${share.toFixed(3)} ≥ 0.4`);
    assert.ok(await bar.evaluate((el) => el.scrollHeight > el.clientHeight), 'the form scrolls inside itself');
    await fitsWindow(page);
    assert.ok((await newestInView(page)).ok);
    await page.close();
  });
});

describe('narrow sidebar (300 px)', () => {
  test('the picker is usable, the placeholder fits, tables and code stay inside the view; Copy and Insert post the code', async () => {
    const page = await open(300, 800);
    const m = model();
    m.upsertSession({ sessionId: 's2', title: 'Another chat with a long title', mode: 'build', planFile: null, createdAt: '2026-11-26T11:00:00Z', updatedAt: '2026-11-26T11:00:00Z' });
    m.addPrompt('s1', 'Compare them.');
    const table = '| Option | What it does | Cost |\n|---|---|---|\n| cache | keeps the last answers in memory for a while | low |\n| tracing | sends spans to the collector at every request | medium |\n';
    const code = `\`\`\`go\nfunc main() {\n\tif err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {\n\t\tfmt.Fprintln(os.Stderr, "error:", err)\n\t\tos.Exit(1)\n\t}\n}\n\`\`\``;
    say(m, `Here:\n\n${table}\nAnd the code:\n\n${code}\n\nDone.`);
    withPlan(m);
    await show(page, m);
    // The chat picker is not a sliver.
    const select = await page.locator('select.sessions').boundingBox();
    assert.ok(select && select.width >= 120, `the chat picker is ${select?.width} px wide`);
    // The placeholder fits in the prompt box (written as the value, it does not overflow).
    const fits = await page.locator('textarea.prompt').evaluate((el) => {
      const ta = el as HTMLTextAreaElement;
      const v = ta.value;
      ta.value = ta.placeholder;
      const ok = ta.scrollHeight <= ta.clientHeight && ta.scrollWidth <= ta.clientWidth;
      ta.value = v;
      return ok;
    });
    assert.ok(fits, 'the placeholder is not cut');
    // The table and the code stay inside the transcript and scroll in their own box.
    const inside = await page.evaluate(() => {
      const box = document.querySelector('.messages')!.getBoundingClientRect();
      const wrap = document.querySelector('.markdown .table-wrap') as HTMLElement;
      const pre = document.querySelector('.markdown pre') as HTMLElement;
      const cell = document.querySelector('.markdown td') as HTMLElement;
      const w = wrap.getBoundingClientRect();
      const p = pre.getBoundingClientRect();
      return {
        table: w.left >= box.left && w.right <= box.right + 0.5,
        code: p.left >= box.left && p.right <= box.right + 0.5,
        tableScrolls: wrap.scrollWidth > wrap.clientWidth,
        codeScrolls: pre.scrollWidth > pre.clientWidth,
        cellWidth: cell.getBoundingClientRect().width,
        tab: getComputedStyle(pre).tabSize,
        transcriptOverflowX: (document.querySelector('.messages') as HTMLElement).scrollWidth > (document.querySelector('.messages') as HTMLElement).clientWidth,
      };
    });
    assert.ok(inside.table, 'the table stays inside the view');
    assert.ok(inside.code, 'the code block stays inside the view');
    assert.ok(inside.tableScrolls, 'the table scrolls sideways in its box rather than squeezing');
    assert.ok(inside.codeScrolls, 'the long code line scrolls in its box');
    assert.ok(inside.cellWidth >= 70, `a cell keeps a readable width (${inside.cellWidth} px)`);
    assert.ok(Number(inside.tab) >= 2 && Number(inside.tab) <= 4, `tab size ${inside.tab}`);
    assert.equal(inside.transcriptOverflowX, false, 'the transcript itself does not scroll sideways');
    // The plan panel folds.
    await page.locator('section.plan-panel .panel-toggle').click();
    assert.equal(await page.locator('section.plan-panel .plan-steps').isVisible(), false);
    await fitsWindow(page);
    // Copy and Insert.
    const block = page.locator('.code-block').first();
    assert.equal(await block.locator('.code-lang').innerText(), 'go');
    await block.locator('button.code-copy').click();
    await block.locator('button.code-insert').click();
    const want = 'func main() {\n\tif err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {\n\t\tfmt.Fprintln(os.Stderr, "error:", err)\n\t\tos.Exit(1)\n\t}\n}';
    assert.deepEqual((await posted(page)).filter((p) => p.type === 'copyCode' || p.type === 'insertCode'), [{ type: 'copyCode', text: want }, { type: 'insertCode', text: want }]);
    await page.screenshot({ path: path.join(out, 'narrow-300.png') });
    await page.close();
  });
});
