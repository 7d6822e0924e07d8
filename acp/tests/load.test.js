// @ts-check
// session/load after a restart: a second `agentls acp` process replays the stored conversation as
// session/update notifications and answers with the session's mode.
import assert from "node:assert/strict";
import { test } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { Agent, agentText, makeWorkspace, within } from "./harness.js";

test("session/load after a restart replays the conversation (user and agent text) with the session's mode, and session/list lists it", async (t) => {
  const ws = makeWorkspace({
    files: { "app.txt": "alpha\n" },
    script: `name: load
steps:
  - text: "Hello from the first process."
`,
  });
  t.after(() => ws.remove());

  // First process: a session switched to build, one turn.
  const first = new Agent(ws);
  let sessionId = "";
  try {
    const init = await first.initialize();
    assert.equal(init.agentCapabilities?.loadSession, true);
    sessionId = (await first.newSession()).sessionId;
    await first.setMode(sessionId, "build");
    const res = await within(first.prompt(sessionId, "say hello"), "the first turn", undefined, () => first.describe());
    assert.equal(res.stopReason, "end_turn", first.describe());
  } finally {
    await first.close();
  }

  // Second process on the same workspace.
  const second = new Agent(ws);
  t.after(() => second.close());
  await second.initialize();
  // Before any session of this process: without cwd, the process's working directory (the project).
  for (const params of [{}, { cwd: ws.dir }]) {
    const list = await second.request(methods.agent.session.list, params);
    assert.ok(list.sessions.some((/** @type {any} */ s) => s.sessionId === sessionId), `session/list ${JSON.stringify(params)} has ${sessionId}: ${JSON.stringify(list)}`);
  }

  const loaded = await second.request(methods.agent.session.load, { sessionId, cwd: ws.dir, mcpServers: [] });
  // ACP: the history is replayed before the session/load response.
  const users = second.updates
    .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "user_message_chunk")
    .map((n) => (n.update.sessionUpdate === "user_message_chunk" && n.update.content.type === "text" ? n.update.content.text : ""))
    .join("");
  assert.match(users, /say hello/, `the user's prompt is replayed: ${second.describe()}`);
  assert.match(agentText(second.updates.filter((n) => n.sessionId === sessionId)), /Hello from the first process\./, `the agent's answer is replayed: ${second.describe()}`);
  const userAt = second.updates.findIndex((n) => n.update.sessionUpdate === "user_message_chunk");
  const agentAt = second.updates.findIndex((n) => n.update.sessionUpdate === "agent_message_chunk");
  assert.ok(userAt < agentAt, "replayed in conversation order");
  assert.equal(loaded.modes?.currentModeId, "build", `session/load answers with the session's mode: ${JSON.stringify(loaded)}`);
});

test("session/load of an unknown session is a JSON-RPC error and the process lives", async (t) => {
  const ws = makeWorkspace({ script: "name: none\nsteps:\n  - text: unused\n" });
  const agent = new Agent(ws);
  t.after(async () => { await agent.close(); ws.remove(); });
  await agent.initialize();
  await assert.rejects(agent.request(methods.agent.session.load, { sessionId: "no-such-session", cwd: ws.dir, mcpServers: [] }),
    (/** @type {any} */ e) => typeof e.code === "number" && /no-such-session|not found|unknown/i.test(String(e.message) + JSON.stringify(e.data ?? "")));
  const s = await agent.newSession();
  assert.match(s.sessionId, /\S/);
});
