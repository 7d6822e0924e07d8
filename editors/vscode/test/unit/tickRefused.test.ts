// A refused tick in the state model: the plan update right after it keeps the
// refusal for the plan panel; the next plan update clears it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TickRefusal } from '../../src/protocol';
import { ChatModel, findTool } from '../../src/state';

const refusal: TickRefusal = {
  steps: ['Change the greeting'],
  problems: [
    { path: 'main.go', line: 7, severity: 'error', message: 'cannot use 42 (untyped int constant) as string value in argument to Greet', source: 'compiler', code: 'IncompatibleAssign' },
    { path: 'main.go', line: 9, severity: 'warning', message: 'unused parameter', source: 'unusedparams' },
  ],
  message: 'step not ticked: …',
};

test('the plan update after a refused tick carries why; the next one does not', () => {
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 't', mode: 'build', planFile: 'plans/g.plan', createdAt: 'x', updatedAt: 'x' });
  const entries = [{ content: 'Change the greeting', priority: 'medium', status: 'in_progress' as const }];
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/g.plan', entries, tickRefused: refusal });
  assert.deepEqual(m.get('s1')?.plan?.tickRefused, refusal);
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/g.plan', entries: [{ ...entries[0], status: 'completed' }] });
  assert.equal(m.get('s1')?.plan?.tickRefused, undefined, 'the accepted tick clears the refusal');
});

test("the refused tick's tool row carries the refusal; another failed call does not", () => {
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 't', mode: 'build', planFile: 'plans/g.plan', createdAt: 'x', updatedAt: 'x' });
  const entries = [{ content: 'Change the greeting', priority: 'medium', status: 'in_progress' as const }];
  m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'other', title: 'edit x', kind: 'edit', status: 'in_progress' });
  m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'plan_edit plans/g.plan', kind: 'edit', status: 'in_progress' });
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/g.plan', entries, tickRefused: refusal });
  m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'other', status: 'failed', rawOutput: { success: false, error: 'old_string not found' } });
  m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', rawOutput: { success: false, error: refusal.message } });
  const items = m.get('s1')!.items;
  assert.deepEqual(findTool(items, 't1')?.item.tickRefused, refusal);
  assert.equal(findTool(items, 'other')?.item.tickRefused, undefined);
});
