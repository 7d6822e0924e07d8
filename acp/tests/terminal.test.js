// @ts-check
// `run` through the client's terminal (terminal/* requests), when the client declares terminal: true.
import assert from "node:assert/strict";
import { test } from "node:test";
import { agentText, choose, findCall, startSession, within } from "./harness.js";

test("with terminal: true, an allowed run goes through the client's terminal/create in the workspace, its output comes back into the tool call, and the terminal is released", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    caps: { terminal: true },
    script: `name: terminal
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "echo hello-from-terminal"}}
  - expect:
      tool_result_contains: {r1: ["hello-from-terminal"]}
    text: "Echoed."
`,
  });
  await agent.setMode(sessionId, "build");
  const turn = agent.prompt(sessionId, "echo");
  const ask = await agent.nextPermission("running `echo hello-from-terminal`");
  choose(ask, "allow_once");
  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());

  assert.equal(agent.terminals.size, 1, "one terminal/create");
  const [term] = agent.terminals.values();
  assert.equal(term.req.sessionId, sessionId);
  assert.match([term.req.command, ...(term.req.args ?? [])].join(" "), /echo hello-from-terminal/);
  assert.equal(term.req.cwd, ws.dir, "the command runs in the workspace");
  assert.equal(term.released, true, "the terminal was released");
  const call = findCall(agent.updates, "for the run", (c) => c.rawInput?.command === "echo hello-from-terminal");
  assert.ok((call.content ?? []).some((/** @type {any} */ c) => c.type === "terminal" && c.terminalId === term.id), `the tool call shows the terminal: ${JSON.stringify(call)}`);
  assert.equal(call.status, "completed", JSON.stringify(call));
  assert.match(agentText(agent.updates), /Echoed\./);
});

test("session/cancel while the command runs in the client's terminal ends the turn with `cancelled`, kills the command and releases the terminal", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    caps: { terminal: true },
    script: `name: terminal-cancel
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "sleep 30"}}
  - text: "unused"
`,
  });
  await agent.setMode(sessionId, "build");
  const turn = agent.prompt(sessionId, "wait");
  choose(await agent.nextPermission("running `sleep 30`"), "allow_once");
  // Mid-run: the agent waits for the command (terminal/wait_for_exit) when the user cancels.
  const term = await agent.waitFor("terminal/wait_for_exit on the `sleep 30` terminal", () => [...agent.terminals.values()].find((x) => x.calls.includes("wait_for_exit")));
  const res = await agent.cancel(sessionId, turn);
  assert.equal(res.stopReason, "cancelled", agent.describe());
  await within(term.exit, "the terminal's command to stop", undefined, () => `terminal/* calls: ${term.calls}\n${agent.describe()}`);
  await agent.waitFor("terminal/release", () => (term.released ? true : undefined));
  assert.ok(term.calls.includes("kill"), `terminal/kill was sent: ${term.calls}`);
});
