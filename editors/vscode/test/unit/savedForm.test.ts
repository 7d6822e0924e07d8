// Whether a save writes back the file's bytes (the extension leaves a
// document unsaved when not), and the reason an annotation's label gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askedWhy, openedText, savesBack } from '../../src/savedForm';

/** Bytes of UTF-8 text and raw byte values. */
const b = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

test('savesBack: only a document VS Code encodes to the same bytes saves back', () => {
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

test('openedText: a dirty document is judged by the file as VS Code opens it', () => {
  for (const [name, disk, eol, want] of [
    ['LF', b('one\ntwo\n'), '\n', true],
    ['CRLF', b('one\r\ntwo\r\n'), '\r\n', true],
    ['a BOM', b([0xef, 0xbb, 0xbf], 'one\n'), '\n', true],
    ['astral', b('\u{1F600} \u{1D11E}\n'), '\n', true],
    ['Latin-1', b('caf', [0xe9], '\n'), '\n', false],
    ['a lone CR', b('one\rtwo\r'), '\n', false],
    ['mixed breaks', b('one\r\ntwo\n'), '\r\n', false],
  ] as const) {
    assert.equal(savesBack(disk, openedText(disk, eol)), want, name);
  }
  assert.equal(openedText(b([0xef, 0xbb, 0xbf], 'caf', [0xe9], '\r\nx\r'), '\n'), 'caf\uFFFD\nx\n');
});

test('askedWhy: the reason after the dash of an annotation label, none for review mode', () => {
  assert.deepEqual(askedWhy("agentls: write .vscode/tasks.json — your editor or shell runs what it names by itself, outside agentls's sandbox"), {
    what: 'write .vscode/tasks.json',
    why: "your editor or shell runs what it names by itself, outside agentls's sandbox",
  });
  assert.equal(askedWhy('agentls: edit src/store.go'), undefined);
});
