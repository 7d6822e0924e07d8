// @ts-check
// Malformed messages get JSON-RPC errors and the process lives. These bytes are what no SDK would
// send, so this test writes raw newline-delimited JSON to `agentls acp` itself.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { WAIT_MS, agentBinary, cleanEnv, makeWorkspace, within } from "./harness.js";

/** A raw line-oriented peer of `agentls acp`. */
class RawPeer {
  /** @param {ReturnType<typeof makeWorkspace>} ws */
  constructor(ws) {
    this.child = spawn(agentBinary(), ["--config", ws.config, "acp"], { cwd: ws.dir, stdio: ["pipe", "pipe", "pipe"], env: cleanEnv(ws.root) });
    this.stderr = "";
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d) => { this.stderr += d; });
    /** @type {any[]} every message from the agent */
    this.received = [];
    /** @type {string[]} lines from the agent that are not JSON */
    this.garbage = [];
    /** @type {(() => void)[]} */
    this.wakers = [];
    /** @type {number | null} */
    this.exitCode = null;
    this.child.on("exit", (code) => { this.exitCode = code ?? -1; this.wake(); });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      if (line.trim() === "") return;
      try {
        this.received.push(JSON.parse(line));
      } catch {
        this.garbage.push(line);
      }
      this.wake();
    });
  }

  wake() {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /** @param {string} line */
  send(line) {
    this.child.stdin.write(line + "\n");
  }

  /**
   * The first message (from index `from`) satisfying pred.
   * @param {string} what
   * @param {(m: any) => boolean} pred
   * @param {number} [from]
   */
  waitFor(what, pred, from = 0) {
    /** @returns {Promise<any>} */
    const attempt = () => {
      const m = this.received.slice(from).find(pred);
      if (m) return Promise.resolve(m);
      if (this.exitCode !== null) return Promise.reject(new Error(`agentls exited (code ${this.exitCode}) before ${what}\nstderr:\n${this.stderr.slice(-3000)}`));
      return new Promise((resolve) => this.wakers.push(() => resolve(undefined))).then(attempt);
    };
    return within(attempt(), what, WAIT_MS, () => `received: ${JSON.stringify(this.received).slice(-2000)}\nstderr:\n${this.stderr.slice(-3000)}`);
  }

  async close() {
    this.child.stdin.end();
    if (this.exitCode === null) {
      const killer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await new Promise((resolve) => this.child.on("exit", resolve));
      clearTimeout(killer);
    }
  }
}

/** @param {any} m @param {number | string} id */
const answers = (m, id) => m.id === id && ("result" in m || "error" in m);

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
