// The tabs VS Code opened by itself for an agent's edit (src/selfOpenedTabs.ts):
// only a saved document of the edit, which had no tab before, loses its tab.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selfOpened, type TabFacts } from '../../src/selfOpened';

const main = 'file:///w/main.ts';
const plan = 'file:///w/plans/greet.plan';
const other = 'file:///w/other.ts';

const cases: { name: string; edited: string[]; before: string[]; opened: TabFacts[]; closed: (string | undefined)[] }[] = [
  { name: 'the edited file in no tab before, saved: closed', edited: [main], before: [plan], opened: [{ uri: main, dirty: false }], closed: [main] },
  { name: 'left unsaved (re-encoded, or saveAgentEdits off): kept', edited: [main], before: [], opened: [{ uri: main, dirty: true }], closed: [] },
  { name: 'in a tab before the edit (the user opened it): kept', edited: [main], before: [main], opened: [{ uri: main, dirty: false }], closed: [] },
  { name: 'a file the edit did not touch: kept', edited: [main], before: [], opened: [{ uri: other, dirty: false }], closed: [] },
  { name: 'a tab that shows no text document: kept', edited: [main], before: [], opened: [{ dirty: false }], closed: [] },
  { name: 'each edited file judged alone', edited: [main, other], before: [], opened: [{ uri: main, dirty: false }, { uri: other, dirty: true }], closed: [main] },
  { name: 'nothing opened: nothing closed', edited: [main], before: [], opened: [], closed: [] },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(selfOpened(c.edited, new Set(c.before), c.opened).map((t) => t.uri), c.closed);
  });
}
