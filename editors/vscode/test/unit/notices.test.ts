// Notifications never turn text from outside agentls into a link. VS Code
// renders `[label](command:…)`, `[label](https://…)` and `[label](file:…)` in
// a notification as a link, and a click on a command: link runs the command.
// A file's path, a server or endpoint error, model output: none may carry one.
// The vscode module is a stub that records each notification's message.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';

/** VS Code's own link pattern for notifications (src/vs/base/common/linkedText.ts). */
const linkedText = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const links = (s: string) => [...s.matchAll(linkedText)].map((m) => m[0]);

const shown: string[] = [];
/** Records the message and picks the first button (the modal question's "Restore"; "Undo" only later, when the test is done). */
const show = (message: string, ...rest: unknown[]) => {
  shown.push(message);
  return Promise.resolve(rest.find((r) => typeof r === 'string' && r !== 'Undo'));
};
const vscodeStub = {
  window: { showInformationMessage: show, showWarningMessage: show, showErrorMessage: show },
  workspace: { registerTextDocumentContentProvider: () => ({ dispose() {} }) },
  Uri: { parse: (s: string) => ({ toString: () => s }) },
};

before(() => {
  const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load = (req: string, ...rest: unknown[]) => (req === 'vscode' ? vscodeStub : load(req, ...rest));
});

const hostile = ['[Approve](command:agentls.approvePlan?%5B%22x%22%5D)', '[Open](https://evil.example/x)', 'a [b](file:///etc/passwd "t") c'];

describe('notifications carry no link from untrusted text', () => {
  test('Restore: the files left alone and the files restored, named in notifications, link nowhere', async () => {
    const { ReviewFeature } = await import('../../src/reviewFeature');
    shown.length = 0;
    const review = new ReviewFeature({
      request: (async (method: string) => {
        if (method.endsWith('loadSession')) return { messages: [{ id: 'm1', role: 'user', content: 'go' }] };
        return { restored: [hostile[0]], conflicts: hostile.map((p) => ({ path: p, reason: 'changed' })), skipped: [], undoMessageId: 'u1' };
      }) as never,
      reload: async () => {},
      save: async () => {},
      saveEdits: () => false,
      showChanges: () => {},
      log: () => {},
      error: (e) => assert.fail(String(e)),
    });
    await review.restore('s1', 'go', 0);
    const notices = shown.slice(1); // the first is the modal question, agentls's own words
    assert.ok(notices.some((m) => m.includes('left as they are')), `a conflict notice is shown: ${JSON.stringify(shown)}`);
    assert.ok(notices.some((m) => m.includes('restored')), 'a restored notice is shown');
    for (const m of notices) {
      assert.deepEqual(links(m), [], `no link in ${JSON.stringify(m)}`);
      assert.match(m, /Approve\]/, 'the text still reads the same');
    }
    review.dispose();
  });

  test('plainNotice neutralises every link form and keeps the words', async () => {
    const { plainNotice } = await import('../../src/notify');
    for (const h of [...hostile, '[[x]](command:a)', '[x]]((command:a)', '[x](command:a)[y](https://b)']) {
      const p = plainNotice(h);
      assert.deepEqual(links(p), [], `no link in ${JSON.stringify(p)}`);
      assert.equal(p.replace(/\\\(/g, '('), h, 'only a backslash before "(" is added');
    }
    assert.equal(plainNotice('src/a (copy).ts [draft]'), 'src/a (copy).ts [draft]', 'brackets that make no link stay as they are');
  });

  test('no notification is shown but through src/notify.ts', () => {
    const src = path.resolve('src');
    const direct = fs
      .readdirSync(src)
      .filter((f) => f.endsWith('.ts') && f !== 'notify.ts')
      .filter((f) => /\bshow(Information|Warning|Error)Message\b/.test(fs.readFileSync(path.join(src, f), 'utf8')));
    assert.deepEqual(direct, [], 'these files call window.show*Message directly');
  });
});
