// @ts-check
// A session/cancel that arrives while terminal/create is being answered must not leave the
// client's terminal running: the agent kills and releases the terminal it was given.
import assert from "node:assert/strict";
import { test } from "node:test";
import { choose, startSession, within } from "./harness.js";

test("session/cancel while terminal/create is being answered: the turn ends `cancelled` and the terminal it created is killed and released", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    caps: { terminal: true },
    script: `name: terminal-race
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "sleep 30"}}
  - text: "unused"
`,
  });
  await agent.setMode(sessionId, "build");
  /** @type {() => void} */
  let answerCreate = () => {};
  agent.createGate = new Promise((resolve) => { answerCreate = resolve; });
  const turn = agent.prompt(sessionId, "wait");
  choose(await agent.nextPermission("running `sleep 30`"), "allow_once");
  const term = await agent.waitFor("terminal/create for `sleep 30`", () => [...agent.terminals.values()][0]);
  const cancelled = agent.cancel(sessionId, turn);
  answerCreate(); // the terminal's id reaches the agent after the cancel
  const res = await cancelled;
  assert.equal(res.stopReason, "cancelled", agent.describe());
  await within(term.exit, "the created terminal's command to stop", undefined, () => `terminal/* calls: ${term.calls}\n${agent.describe()}`);
  await agent.waitFor("terminal/release", () => (term.released ? true : undefined));
});
