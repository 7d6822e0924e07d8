// @ts-check
// Malformed messages get JSON-RPC errors and the process lives. These bytes are what no SDK would
// send, so this test writes raw newline-delimited JSON to `agentls acp` itself.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RawPeer, answers, makeWorkspace } from "./harness.js";

test("malformed messages get JSON-RPC errors (parse error, unknown method, invalid params, unknown session) and the process lives", async (t) => {
  const ws = makeWorkspace({ script: "name: none\nsteps:\n  - text: unused\n" });
  const peer = new RawPeer(ws);
  t.after(async () => { await peer.close(); ws.remove(); });

  peer.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }));
  const init = await peer.waitFor("the initialize result", (m) => answers(m, 1));
  assert.equal(init.result?.protocolVersion, 1, JSON.stringify(init));

  /** @type {{what: string, line: string, id: number | null, code: number | number[]}[]} */
  const cases = [
    { what: "not JSON", line: "{this is not json", id: null, code: -32700 },
    { what: "an unknown method", line: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/no_such_method", params: {} }), id: 2, code: -32601 },
    { what: "session/new with params of the wrong type", line: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "session/new", params: "not an object" }), id: 3, code: -32602 },
    { what: "session/prompt with a number for sessionId", line: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "session/prompt", params: { sessionId: 42, prompt: [] } }), id: 4, code: -32602 },
    // Unknown session: ACP's "resource not found" (-32002) or invalid params.
    { what: "session/prompt for an unknown session", line: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "session/prompt", params: { sessionId: "no-such-session", prompt: [{ type: "text", text: "hi" }] } }), id: 5, code: [-32002, -32602] },
    { what: "session/set_mode to an unknown mode", line: JSON.stringify({ jsonrpc: "2.0", id: 6, method: "session/set_mode", params: { sessionId: "no-such-session", modeId: "yolo" } }), id: 6, code: [-32002, -32602] },
  ];
  for (const c of cases) {
    const from = peer.received.length;
    peer.send(c.line);
    const reply = await peer.waitFor(`the error answering ${c.what}`, (m) => m.id === c.id && ("error" in m || "result" in m), from);
    assert.ok(reply.error, `${c.what}: an error, not ${JSON.stringify(reply)}`);
    const codes = Array.isArray(c.code) ? c.code : [c.code];
    assert.ok(codes.includes(reply.error.code), `${c.what}: code ${reply.error.code}, want ${codes.join(" or ")}: ${JSON.stringify(reply)}`);
    assert.match(String(reply.error.message ?? ""), /\S/, `${c.what}: the error has a message`);
  }
  assert.deepEqual(peer.garbage, [], "stdout carries only JSON-RPC");

  // Still alive and serving.
  peer.send(JSON.stringify({ jsonrpc: "2.0", id: 10, method: "session/new", params: { cwd: ws.dir, mcpServers: [] } }));
  const created = await peer.waitFor("the session/new result after the malformed messages", (m) => answers(m, 10));
  assert.match(created.result?.sessionId ?? "", /\S/, JSON.stringify(created));
  assert.equal(peer.exitCode, null);
});

/**
 * A small deterministic PRNG (mulberry32), so that a failure can be replayed.
 * @param {number} seed
 */
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("200 mangled requests (wrong types, truncated JSON, stray values) each get an answer or are dropped as notifications, stdout stays JSON-RPC, and the process keeps serving", async (t) => {
  const ws = makeWorkspace({ script: "name: none\nsteps:\n  - text: unused\n" });
  const peer = new RawPeer(ws);
  t.after(async () => { await peer.close(); ws.remove(); });
  peer.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }));
  await peer.waitFor("the initialize result", (m) => answers(m, 0));

  const rand = prng(11);
  const pick = (/** @type {any[]} */ xs) => xs[Math.floor(rand() * xs.length)];
  const odd = [null, 0, -1, 1e308, "", "x".repeat(300), [], {}, [1, [2, [3]]], true, { sessionId: 7 }, "../../etc/passwd", "\u0000\ud800"];
  const methodsList = ["initialize", "session/new", "session/load", "session/prompt", "session/set_mode", "session/set_config_option", "session/list", "session/cancel", "authenticate", "fs/read_text_file", ""];
  const valid = { cwd: ws.dir, mcpServers: [], sessionId: "s", prompt: [{ type: "text", text: "hi" }], modeId: "plan", configId: "mode", value: "plan" };
  /** @type {Map<number, string>} the complete requests, by id */
  const sent = new Map();
  for (let i = 1; i <= 200; i++) {
    /** @type {Record<string, any>} */
    const params = {};
    for (const [k, v] of Object.entries(valid)) if (rand() < 0.6) params[k] = rand() < 0.5 ? v : pick(odd);
    const msg = { jsonrpc: pick(["2.0", "2.0", "2.0", "1.0", 2, null]), id: 1000 + i, method: pick(methodsList), params: rand() < 0.9 ? params : pick(odd) };
    let line = JSON.stringify(msg);
    if (rand() < 0.15) line = line.slice(0, Math.floor(rand() * line.length)); // truncated: a parse error
    else sent.set(1000 + i, line);
    peer.send(line);
  }
  // Every complete request with an id is answered (a result or an error).
  for (const [id, line] of sent) {
    const reply = await peer.waitFor(`an answer to ${line.slice(0, 300)}`, (m) => m.id === id && ("result" in m || "error" in m));
    if (reply.error) assert.match(String(reply.error.message ?? ""), /\S/, `request ${id}: the error has a message`);
  }
  assert.deepEqual(peer.garbage, [], "stdout carries only JSON-RPC");
  peer.send(JSON.stringify({ jsonrpc: "2.0", id: 9999, method: "session/new", params: { cwd: ws.dir, mcpServers: [] } }));
  const created = await peer.waitFor("session/new after the mangled requests", (m) => answers(m, 9999));
  assert.match(created.result?.sessionId ?? "", /\S/, JSON.stringify(created));
  assert.equal(peer.exitCode, null);
});
