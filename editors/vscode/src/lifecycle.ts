// The server's starts, stops and restarts, one at a time.

/** A step of the server's life: what the controller asks the Lifecycle to run. */
export type Step = 'start' | 'stop' | 'restart';

/**
 * Runs the server's lifecycle steps one after another, never two at once: a
 * restart asked while another one runs (two settings saved in a row, the API
 * key set right after) would otherwise stop a client that is still starting,
 * which vscode-languageclient refuses, and leave its server running beside the
 * new one. A step asked while the same step already waits to run is that step:
 * it reads the settings and the key when it runs, so one run serves both.
 */
export class Lifecycle {
  private tail: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<Step, Promise<void>>();
  private running = false;

  /**
   * Whether a step runs now. What a step awaits must not ask for another step (it would wait for
   * the one that waits for it): the controller's requests start a given-up server only when false.
   */
  get busy(): boolean {
    return this.running;
  }

  /** Runs `run` as `step` once the steps asked before it have ended (failed ones too). */
  run(step: Step, run: () => Promise<void>): Promise<void> {
    const queued = this.waiting.get(step);
    if (queued) return queued;
    const next = this.tail.then(async () => {
      this.waiting.delete(step);
      this.running = true;
      try {
        await run();
      } finally {
        this.running = false;
      }
    });
    this.waiting.set(step, next);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
