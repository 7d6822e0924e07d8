// @ts-check
// A request whose "jsonrpc" member is not the string "2.0" is an invalid request; its id is still
// readable, so JSON-RPC 2.0 wants the error answer to carry that id (the client's call must end).
import assert from "node:assert/strict";
import { test } from "node:test";
import { RawPeer, answers, makeWorkspace } from "./harness.js";

for (const version of [2, null, "1.0"]) {
  test(`a request with "jsonrpc": ${JSON.stringify(version)} is answered -32600 with its own id`, async (t) => {
    const ws = makeWorkspace({ script: "name: none\nsteps:\n  - text: unused\n" });
    const peer = new RawPeer(ws);
    t.after(async () => { await peer.close(); ws.remove(); });
    peer.send(JSON.stringify({ jsonrpc: version, id: 7, method: "session/list", params: {} }));
    const reply = await peer.waitFor("the answer to request 7", (m) => answers(m, 7));
    assert.equal(reply.error?.code, -32600, JSON.stringify(reply));
    assert.match(String(reply.error?.message), /jsonrpc/, JSON.stringify(reply));
  });
}
