// @ts-check
// initialize and session/new through the official SDK client, against the real binary.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { Agent, agentBinary, agentText, makeWorkspace, startSession, within } from "./harness.js";

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

test("session/set_config_option mode=build switches like session/set_mode: current_mode_update and the option's new value", async (t) => {
  const { agent, sessionId } = await startSession(t, { script: oneStep });
  const from = agent.updates.length;
  const res = await agent.request(methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "build" });
  const mode = (res.configOptions ?? []).find((/** @type {any} */ o) => o.id === "mode");
  assert.equal(mode?.currentValue, "build", JSON.stringify(res));
  await agent.waitUpdate("current_mode_update to build", (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "build", { from });
  // An unknown mode is a clear error, and the mode stays.
  await assert.rejects(agent.request(methods.agent.session.setMode, { sessionId, modeId: "yolo" }),
    (/** @type {any} */ e) => e.code === -32602 && /yolo/.test(String(e.message)));
});

test("session/new accepts the client's mcpServers; one that cannot start is named in the log and the turn still ends", async (t) => {
  const ws = makeWorkspace({ script: oneStep });
  const agent = new Agent(ws);
  t.after(async () => { await agent.close(); ws.remove(); });
  await agent.initialize();
  const res = await agent.request(methods.agent.session.new, {
    cwd: ws.dir,
    mcpServers: [{ name: "docs-server", command: "/bin/true", args: [], env: [] }],
  });
  assert.match(res.sessionId, /\S/);
  // Servers start at the session's first tool listing: /bin/true is no MCP server.
  const turn = await within(agent.prompt(res.sessionId, "hi"), "the end of the turn", undefined, () => agent.describe());
  assert.equal(turn.stopReason, "end_turn", agent.describe());
  await agent.waitFor("a log line naming the MCP server", () => (/docs-server/.test(agent.stderr) && /MCP/i.test(agent.stderr) ? true : undefined));
});

test("session/prompt: resource links and embedded resources become the prompt's context; an image (not offered) is a clear error", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "app.txt": "alpha\n" },
    script: `name: context
steps:
  - expect:
      last_message_contains: ["explain these", "app.txt", "an unsaved note: 42 lines to go"]
    text: "Explained."
`,
  });
  const res = await within(agent.ctx.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [
      { type: "text", text: "explain these" },
      { type: "resource_link", uri: "file://" + ws.path("app.txt"), name: "app.txt" },
      { type: "resource", resource: { uri: "file://" + ws.path("notes.md"), mimeType: "text/markdown", text: "an unsaved note: 42 lines to go" } },
    ],
  }), "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates), /Explained\./);

  await assert.rejects(agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] }),
    (/** @type {any} */ e) => e.code === -32602 && /image/i.test(String(e.message)));
});

test("with fs.readTextFile, the model reads the client's unsaved buffer through fs/read_text_file, not the disk", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "app.txt": "alpha on disk\n" },
    caps: { readTextFile: true },
    script: `name: buffer
steps:
  - tool_calls:
      - {id: r1, name: read, args: {path: app.txt}}
  - expect:
      tool_result_contains: {r1: ["alpha in the unsaved buffer"]}
    text: "Read the buffer."
`,
  });
  agent.buffers.set(ws.path("app.txt"), "alpha in the unsaved buffer\n");
  const res = await within(agent.prompt(sessionId, "read app.txt"), "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.ok(agent.reads.some((r) => r.path === ws.path("app.txt") && r.sessionId === sessionId), `fs/read_text_file for app.txt: ${JSON.stringify(agent.reads)}`);
  assert.equal(ws.read("app.txt"), "alpha on disk\n", "the disk is untouched");
  assert.match(agentText(agent.updates), /Read the buffer\./);
});
