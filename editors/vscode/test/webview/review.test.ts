// The chat's review controls in Debian's Chromium, on the built page (same
// HTML and CSP as in VS Code) with a fake acquireVsCodeApi: "Restore" on a
// user message, the last turn's changed files with Diff / Keep / Undo (and
// for the whole turn), and the "Review edits" toggle; each posts what the
// extension acts on (src/reviewFeature.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type TurnChanges, changeLabel } from '../../src/review';
import { chatPageEachTest, oneSessionModel } from './chatPage';

const chat = chatPageEachTest({ keepState: false });
const { send, show, posted } = chat;
const model = (review: 'off' | 'edits' = 'off') => oneSessionModel({ title: 'Review', mode: 'build', review });

const files = [
  { path: 'store.go', status: 'modified' as const, added: 17, removed: 2, restorable: true },
  { path: 'new.go', status: 'added' as const, added: 3, removed: 0, restorable: true },
  { path: 'logo.png', status: 'modified' as const, added: 0, removed: 0, restorable: false },
];
const turn: TurnChanges = { sessionId: 's1', messageId: 'm1', files: files.map((f) => ({ ...f, label: changeLabel(f) })) };

describe('review', () => {
  test('each user message has Restore, which names the message', async () => {
    const m = model();
    m.addPrompt('s1', 'first');
    m.addPrompt('s1', 'second');
    await show(m);
    const buttons = chat.page.locator('.msg.user button.restore');
    assert.equal(await buttons.count(), 2);
    await buttons.nth(1).click();
    const items = m.snapshot().current!.items.filter((i) => i.kind === 'user');
    assert.deepEqual((await posted()).filter((p) => p.type === 'restore'), [{ type: 'restore', itemId: items[1].id }]);
  });

  test("the turn's changes read like edits, with Diff, Keep and Undo per file and for the turn", async () => {
    await show(model());
    await send({ type: 'changes', changes: turn });
    const rows = chat.page.locator('.changes .change');
    assert.deepEqual(await rows.locator('.change-label').allInnerTexts(), ['Edited store.go +17 −2', 'Created new.go +3', 'Edited logo.png (binary or large: no undo)']);
    assert.equal(await rows.nth(2).locator('.undo-file').count(), 0, 'a file that cannot be restored has no Undo');
    await rows.nth(0).locator('.change-label').click();
    await rows.nth(0).locator('.keep-file').click();
    await rows.nth(1).locator('.undo-file').click();
    await chat.page.locator('.changes .undo-all').click();
    await chat.page.locator('.changes .keep-all').click();
    assert.deepEqual(
      (await posted()).filter((p) => ['diffFile', 'keepFile', 'undoFile'].includes(p.type)),
      [
        { type: 'diffFile', path: 'store.go' },
        { type: 'keepFile', path: 'store.go' },
        { type: 'undoFile', path: 'new.go' },
        { type: 'undoFile' },
        { type: 'keepFile' },
      ],
    );
    await send({ type: 'changes', changes: null });
    assert.equal(await chat.page.locator('.changes').count(), 0);
    assert.deepEqual(await chat.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp), []);
  });

  test("the Review edits toggle shows the session's choice and switches it", async () => {
    await show(model('edits'));
    const toggle = chat.page.locator('button.review-toggle');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await toggle.click();
    await show(model('off'));
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    assert.deepEqual((await posted()).filter((p) => p.type === 'setReview'), [
      { type: 'setReview', review: 'off' },
      { type: 'setReview', review: 'edits' },
    ]);
  });
});
