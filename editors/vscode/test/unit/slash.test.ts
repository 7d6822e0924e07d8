// The composer's slash-command completion, as pure functions: which word is
// being completed, which commands match it, and the text a choice leaves.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CommandInfo } from '../../src/protocol';
import { completion, matchCommands, slashWord } from '../../webview/slashMenu';

const commands: CommandInfo[] = [
  { name: 'plan', description: 'Switch to plan mode' },
  { name: 'plans', description: 'List the plans' },
  { name: 'reject', description: 'Reject the plan', hint: '<reason>' },
  { name: 'Review', description: 'Review a file (project)', hint: '<file>' },
];

describe('slash completion', () => {
  test('the word after a leading slash, until a blank', () => {
    const cases: [string, string | null][] = [
      ['/', ''],
      ['/pl', 'pl'],
      ['  /re', 're'],
      ['/plan ', null],
      ['/reject too vague', null],
      ['//literal', null],
      ['a /plan', null],
      ['', null],
      ['/модель', 'модель'],
    ];
    for (const [text, want] of cases) assert.equal(slashWord(text), want, JSON.stringify(text));
  });
  test('matches by prefix, case-insensitive, in the server order', () => {
    assert.deepEqual(matchCommands(commands, 'pl').map((c) => c.name), ['plan', 'plans']);
    assert.deepEqual(matchCommands(commands, 'RE').map((c) => c.name), ['reject', 'Review']);
    assert.deepEqual(matchCommands(commands, '').length, 4);
    assert.deepEqual(matchCommands(commands, 'x'), []);
  });
  test('a choice leaves "/name " for the argument', () => {
    assert.equal(completion(commands[2]), '/reject ');
  });
});
