// @ts-check
// A client may answer fs/write_text_file with `"result": null` (valid JSON-RPC: CodeCompanion.nvim
// and avante.nvim do) or `{}`: both are success, the plan is written and the turn ends. The SDK
// client always answers an object, so this client writes raw newline-delimited JSON.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RawPeer, answers, makeWorkspace } from "./harness.js";

const script = `name: write-null
steps:
  - text: "Writing the plan."
    tool_calls:
      - {id: p1, name: plan_write, args: {title: Shout, path: plans/shout.plan, content: "# Goal\\nShout.\\n\\n## Steps\\n- [ ] Shout\\n"}}
  - expect:
      tool_result_contains: {p1: ['"success":true']}
    text: "The plan is written."
`;

for (const result of [null, {}]) {
  test(`fs/write_text_file answered with "result": ${JSON.stringify(result)} writes the plan and the turn ends`, async (t) => {
    const ws = makeWorkspace({ script });
    const peer = new RawPeer(ws);
    t.after(async () => { await peer.close(); ws.remove(); });

    peer.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: true } } } }));
    await peer.waitFor("the initialize result", (m) => answers(m, 1));
    peer.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: ws.dir, mcpServers: [] } }));
    const created = await peer.waitFor("the session/new result", (m) => answers(m, 2));
    const sessionId = created.result?.sessionId;
    assert.match(sessionId ?? "", /\S/, JSON.stringify(created));

    peer.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "plan a shout" }] } }));
    const write = await peer.waitFor("the fs/write_text_file request", (m) => m.method === "fs/write_text_file");
    assert.equal(write.params?.path, ws.path("plans/shout.plan"), JSON.stringify(write));
    peer.send(JSON.stringify({ jsonrpc: "2.0", id: write.id, result }));

    const done = await peer.waitFor("the end of the turn", (m) => answers(m, 3));
    assert.equal(done.result?.stopReason, "end_turn", JSON.stringify(done));
    const finished = peer.received.find((m) => m.method === "session/update" && m.params?.update?.sessionUpdate === "tool_call_update" &&
      m.params.update.toolCallId === "p1" && m.params.update.status != null && m.params.update.status !== "in_progress");
    assert.equal(finished?.params.update.status, "completed", JSON.stringify(finished));
    assert.deepEqual(peer.received.filter((m) => m.id == null && m.error), [], "no error was sent back for the answer");
  });
}
