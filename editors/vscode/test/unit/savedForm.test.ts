// Whether a save writes back the file's bytes (the extension leaves a
// document unsaved when not), and the reason an annotation's label gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askedWhy, savesBack } from '../../src/savedForm';

test('savesBack: only a document VS Code encodes to the same bytes saves back', () => {
  const b = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
  for (const [name, disk, text, want] of [
    ['LF', b('one\ntwo\n'), 'one\ntwo\n', true],
    ['CRLF, the document CRLF', b('one\r\ntwo\r\n'), 'one\r\ntwo\r\n', true],
    ['a BOM, kept by VS Code', b([0xef, 0xbb, 0xbf], 'one\n'), 'one\n', true],
    ['UTF-8 beyond ASCII', b('café\n'), 'café\n', true],
    ['empty', b(''), '', true],
    ['Latin-1 decoded as U+FFFD', b('caf', [0xe9], '\n'), 'caf\uFFFD\n', false],
    ['a lone CR made CRLF', b('one\rtwo\r'), 'one\r\ntwo\r\n', false],
    ['mixed breaks made one kind', b('one\r\ntwo\n'), 'one\r\ntwo\r\n', false],
    ['the text differs (unsaved changes)', b('one\n'), 'uno\n', false],
    ['a BOM alone in the text (not on disk)', b('one\n'), '\uFEFFone\n', false],
  ] as const) {
    assert.equal(savesBack(disk, text), want, name);
  }
});

test('askedWhy: the reason after the dash of an annotation label, none for review mode', () => {
  assert.deepEqual(askedWhy("agentls: write .vscode/tasks.json — your editor or shell runs what it names by itself, outside agentls's sandbox"), {
    what: 'write .vscode/tasks.json',
    why: "your editor or shell runs what it names by itself, outside agentls's sandbox",
  });
  assert.equal(askedWhy('agentls: edit src/store.go'), undefined);
});
