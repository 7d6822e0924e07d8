// @ts-check
// MCP servers from the ACP client: session/new passes a stdio server (the real
// @modelcontextprotocol/server-filesystem from npm, scripts/install-mcp); its tools are offered
// under the plan guard. Plan mode runs the user-listed read-only tool and refuses a writer before
// any byte reaches the server; build mode asks for the writer with session/request_permission.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { callText, choose, findCall, startSession, within } from "./harness.js";

/** The entry point of the pinned @modelcontextprotocol/server-filesystem (scripts/install-mcp). */
const fsServer = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "mcpclient", "testdata", "servers",
  "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

test("session/new with a stdio MCP server: plan mode runs the read-only read_text_file and refuses write_file before the server; build mode asks, allow_once writes", async (t) => {
  if (!existsSync(fsServer)) {
    if (process.env.CI) assert.fail(`${fsServer} is missing: run scripts/install-mcp`);
    t.skip(`${fsServer} is missing: run scripts/install-mcp`);
    return;
  }
  // The server gets the workspace as its one allowed directory and runs in it: the script's
  // relative paths are the workspace's.
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "notes.txt": "original\n" },
    // A client's server has the network (docs/mcp.md): its read-only tool runs in plan mode
    // only when plan_mode.allow_network_tools lists it.
    config: `mcp: {read_only: ["fs/read_text_file"]}\nplan_mode: {allow_network_tools: [mcp__fs__read_text_file]}\n`,
    mcpServers: (w) => [{ name: "fs", command: "node", args: [fsServer, w.dir], env: [] }],
    script: `name: mcp-fs
steps:
  - text: "Reading, then trying a writer."
    expect:
      system_contains: ["\`mcp__fs__read_text_file\`"]
      system_not_contains: ["mcp__fs__write_file"]
    tool_calls:
      - {id: r1, name: mcp__fs__read_text_file, args: {path: "notes.txt"}}
      - {id: w1, name: mcp__fs__write_file, args: {path: "notes.txt", content: "pwned"}}
  - text: "Planned."
  - text: "Building."
    expect:
      system_contains: ["\`mcp__fs__write_file\`", "\`mcp__fs__read_text_file\`"]
    tool_calls:
      - {id: b1, name: mcp__fs__write_file, args: {path: "notes.txt", content: "built"}}
  - text: "Built."
`,
  });

  // Plan mode (the session's first mode).
  const planned = await within(agent.prompt(sessionId, "plan"), "the plan-mode turn", 60000, () => agent.describe());
  assert.equal(planned.stopReason, "end_turn", agent.describe());
  const read = findCall(agent.updates, "r1 (read_text_file)", (c) => c.toolCallId === "r1");
  assert.equal(read.status, "completed", JSON.stringify(read));
  assert.match(callText(read), /original/, "read_text_file returned the file's content");
  const refused = findCall(agent.updates, "w1 (write_file in plan mode)", (c) => c.toolCallId === "w1");
  assert.equal(refused.status, "failed", JSON.stringify(refused));
  assert.match(callText(refused), /System is in Plan Mode/, JSON.stringify(refused));
  assert.equal(agent.permissions.all.length, 0, "plan mode refuses before any question");
  assert.equal(ws.read("notes.txt"), "original\n", "the refused writer never reached the server");

  // Build mode: the writer asks first.
  await agent.setMode(sessionId, "build");
  const turn = agent.prompt(sessionId, "build");
  const ask = await agent.nextPermission("the MCP call write_file", 60000);
  assert.equal(ask.params.sessionId, sessionId);
  assert.equal(ask.params.toolCall.toolCallId, "b1", JSON.stringify(ask.params.toolCall));
  assert.match(JSON.stringify(ask.params.toolCall), /write_file/, "the request names the tool");
  const shown = JSON.stringify(ask.params.toolCall.content ?? []);
  assert.ok(/Network: (yes|no|not isolated)/.test(shown) && /Sandbox: (on \(.+\)|off)/.test(shown), `the request shows the network and the sandbox: ${shown}`);
  assert.match(shown, /built/, "the request shows the arguments");
  assert.equal(ws.read("notes.txt"), "original\n", "nothing written before the answer");
  choose(ask, "allow_once");
  const built = await within(turn, "the build-mode turn", 60000, () => agent.describe());
  assert.equal(built.stopReason, "end_turn", agent.describe());
  const wrote = findCall(agent.updates, "b1 (write_file allowed once)", (c) => c.toolCallId === "b1");
  assert.equal(wrote.status, "completed", JSON.stringify(wrote));
  assert.equal(ws.read("notes.txt"), "built", "allow_once let the server write the file");
});
