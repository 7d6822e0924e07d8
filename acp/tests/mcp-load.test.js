// @ts-check
// MCP servers on session/load and session/resume (issue 18's settled detail: the client's
// mcpServers are honoured on all three): a second `agentls acp` process loads, or resumes, a stored
// session passing a stdio server (testdata/mcp/tiny-server.mjs, no npm install needed); the next
// turn offers its user-listed read-only tool, runs it, and refuses its writer in plan mode before
// the server sees it.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { Agent, callText, findCall, makeWorkspace, within } from "./harness.js";

const tiny = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "testdata", "mcp", "tiny-server.mjs");

const script = `name: mcp-load
steps:
  - text: "Looking it up."
    expect:
      system_contains: ["\`mcp__tiny__lookup\`"]
    tool_calls:
      - {id: l1, name: mcp__tiny__lookup, args: {word: "plan"}}
      - {id: w1, name: mcp__tiny__write_note, args: {text: "pwned"}}
  - text: "Looked up."
`;

for (const how of ["session/load", "session/resume"]) {
  test(`${how} with a stdio MCP server: the next turn runs its read-only tool and refuses its writer in plan mode`, async (t) => {
    assert.ok(existsSync(tiny), tiny);
    // A client's server has the network (docs/mcp.md): its read-only tool runs in plan mode
    // only when plan_mode.allow_network_tools lists it.
    const ws = makeWorkspace({ script, config: `mcp: {read_only: ["tiny/lookup"]}\nplan_mode: {allow_network_tools: [mcp__tiny__lookup]}\n` });
    t.after(() => ws.remove());
    const callLog = ws.path("calls.log");

    // First process: the session, without MCP servers.
    const first = new Agent(ws);
    let sessionId = "";
    try {
      await first.initialize();
      sessionId = (await first.newSession()).sessionId;
    } finally {
      await first.close();
    }

    // Second process: the session again, with the client's server.
    const second = new Agent(ws);
    t.after(() => second.close());
    await second.initialize();
    const mcpServers = [{ name: "tiny", command: "node", args: [tiny], env: [{ name: "TINY_LOG", value: callLog }] }];
    await second.request(how === "session/load" ? methods.agent.session.load : "session/resume", { sessionId, cwd: ws.dir, mcpServers });
    const res = await within(second.prompt(sessionId, "look it up"), "the turn", 60000, () => second.describe());
    assert.equal(res.stopReason, "end_turn", second.describe());
    const looked = findCall(second.updates, "l1 (lookup)", (c) => c.toolCallId === "l1");
    assert.equal(looked.status, "completed", JSON.stringify(looked));
    assert.match(callText(looked), /plan: a tiny word/);
    const refused = findCall(second.updates, "w1 (write_note in plan mode)", (c) => c.toolCallId === "w1");
    assert.equal(refused.status, "failed", JSON.stringify(refused));
    assert.match(callText(refused), /System is in Plan Mode/);
    assert.equal(readFileSync(callLog, "utf8"), 'lookup {"word":"plan"}\n', "the server saw the lookup, never the refused writer");
  });
}
