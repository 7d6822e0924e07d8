// @ts-check
// initialize and session/new through the official SDK client, against the real binary.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Agent, agentBinary, makeWorkspace } from "./harness.js";

const oneStep = "name: idle\nsteps:\n  - text: unused\n";

test("initialize: protocol version 1, loadSession, embedded context, agentInfo with the binary's version", async (t) => {
  const ws = makeWorkspace({ script: oneStep });
  const agent = new Agent(ws);
  t.after(async () => { await agent.close(); ws.remove(); });

  const res = await agent.initialize();
  assert.equal(res.protocolVersion, 1);
  assert.equal(res.agentCapabilities?.loadSession, true, "agentCapabilities.loadSession");
  assert.equal(res.agentCapabilities?.promptCapabilities?.embeddedContext, true, "promptCapabilities.embeddedContext");
  assert.equal(res.agentInfo?.name, "agentls");
  // `agentls version` prints "agentls <version> (protocol N)": the same version, not a constant.
  const printed = execFileSync(agentBinary(), ["version"], { encoding: "utf8" });
  assert.ok(res.agentInfo?.version && printed.includes(` ${res.agentInfo.version} `),
    `agentInfo.version ${JSON.stringify(res.agentInfo?.version)} is not the one \`agentls version\` prints: ${printed}`);
});

test("session/new: starts in plan, advertises plan and build as modes and as a mode config option, and a model option; the session is stored in .agentls/chats", async (t) => {
  const ws = makeWorkspace({ script: oneStep });
  const agent = new Agent(ws);
  t.after(async () => { await agent.close(); ws.remove(); });
  await agent.initialize();

  const res = await agent.newSession();
  assert.match(res.sessionId, /\S/, "sessionId");
  assert.equal(res.modes?.currentModeId, "plan");
  assert.deepEqual(res.modes?.availableModes.map((m) => m.id), ["plan", "build"]);
  for (const m of res.modes?.availableModes ?? []) {
    assert.match(m.name, /\S/, `mode ${m.id} has a name`);
    assert.match(m.description ?? "", /\S/, `mode ${m.id} has a description`);
  }

  const options = res.configOptions ?? [];
  const mode = options.find((o) => o.category === "mode");
  assert.ok(mode, `a config option of category "mode" among ${JSON.stringify(options)}`);
  assert.equal(mode.type, "select");
  if (mode.type === "select") {
    assert.equal(mode.currentValue, "plan");
    const values = mode.options.flatMap((o) => ("value" in o ? [o.value] : o.options.map((g) => g.value)));
    assert.deepEqual(values, ["plan", "build"]);
  }
  assert.ok(options.some((o) => o.category === "model"), `a config option of category "model" among ${JSON.stringify(options)}`);

  // Persisted like the LSP face's sessions, where the LSP face looks for them.
  assert.ok(existsSync(join(ws.dir, ".agentls", "chats", res.sessionId + ".chat")), `.agentls/chats/${res.sessionId}.chat exists`);
});
