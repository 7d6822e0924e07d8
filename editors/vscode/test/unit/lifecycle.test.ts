// The server's starts, stops and restarts run one at a time (lifecycle.ts):
// a restart asked while another one runs waits for it, one waiting serves
// every ask of the same step, a failed step does not stop the next.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Lifecycle, type Step } from '../../src/lifecycle';

/** A step that records when it begins and ends and ends when `release` is called. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return {
    run: async () => {
      log.push(`${name} begins`);
      await done;
      log.push(`${name} ends`);
    },
    release: () => release(),
  };
}

/** Lets every queued promise callback run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('Lifecycle', () => {
  test('a restart asked while one runs begins after it ends', async () => {
    const lc = new Lifecycle();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const pa = lc.run('restart', a.run);
    await settle();
    const pb = lc.run('restart', b.run);
    await settle();
    assert.deepEqual(log, ['a begins'], 'b waits while a runs');
    a.release();
    await pa;
    await settle();
    assert.deepEqual(log, ['a begins', 'a ends', 'b begins']);
    b.release();
    await pb;
  });

  test('asks of a step that already waits are that step: it runs once', async () => {
    const lc = new Lifecycle();
    const log: string[] = [];
    const first = gate(log, 'first');
    const p1 = lc.run('start', first.run);
    await settle();
    let runs = 0;
    const again = async () => {
      runs++;
    };
    const waits = [lc.run('restart', again), lc.run('restart', again), lc.run('restart', again)];
    assert.equal(waits[1], waits[0]);
    assert.equal(waits[2], waits[0]);
    first.release();
    await Promise.all([p1, ...waits]);
    assert.equal(runs, 1);
    // Once it began, a new ask is a new run.
    await lc.run('restart', again);
    assert.equal(runs, 2);
  });

  test('steps of different kinds keep their order; none is dropped', async () => {
    const lc = new Lifecycle();
    const order: Step[] = [];
    const step = (s: Step) => async () => {
      await settle();
      order.push(s);
    };
    await Promise.all([lc.run('start', step('start')), lc.run('restart', step('restart')), lc.run('stop', step('stop'))]);
    assert.deepEqual(order, ['start', 'restart', 'stop']);
  });

  test('busy while a step runs, also one that fails; not before nor after', async () => {
    const lc = new Lifecycle();
    assert.equal(lc.busy, false);
    const seen: boolean[] = [];
    await lc.run('start', async () => {
      seen.push(lc.busy);
      await settle();
      seen.push(lc.busy);
    });
    assert.deepEqual(seen, [true, true]);
    assert.equal(lc.busy, false);
    await assert.rejects(
      lc.run('restart', async () => {
        throw new Error('no');
      }),
    );
    assert.equal(lc.busy, false);
  });

  test('a failed step rejects its own caller only; the next one runs', async () => {
    const lc = new Lifecycle();
    const failed = lc.run('start', async () => {
      throw new Error('did not start');
    });
    let ran = false;
    const next = lc.run('restart', async () => {
      ran = true;
    });
    await assert.rejects(failed, /did not start/);
    await next;
    assert.ok(ran);
  });
});
