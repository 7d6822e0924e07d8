// @ts-check
// One workspace, two faces: a session made through the LSP face (`agentls serve`) is the ACP
// face's too, and the per-session lock keeps two processes from driving it at once.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { Agent, WAIT_MS, agentBinary, agentText, cleanEnv, makeWorkspace, within } from "./harness.js";

/** A minimal LSP client of `agentls serve` (Content-Length framing), like the project's plugins. */
class LspPeer {
  /** @param {ReturnType<typeof makeWorkspace>} ws */
  constructor(ws) {
    this.child = spawn(agentBinary(), ["--config", ws.config, "serve"], { cwd: ws.dir, stdio: ["pipe", "pipe", "pipe"], env: cleanEnv(ws.root) });
    this.stderr = "";
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d) => { this.stderr += d; });
    this.buf = Buffer.alloc(0);
    this.nextId = 1;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.pending = new Map();
    this.child.stdout.on("data", (d) => this.receive(d));
    this.exited = new Promise((resolve) => this.child.on("exit", resolve));
  }

  /** @param {Buffer} data */
  receive(data) {
    this.buf = Buffer.concat([this.buf, data]);
    for (;;) {
      const end = this.buf.indexOf("\r\n\r\n");
      if (end < 0) return;
      const m = /Content-Length: (\d+)/i.exec(this.buf.subarray(0, end).toString());
      if (!m) throw new Error(`bad LSP header: ${this.buf.subarray(0, end)}`);
      const len = Number(m[1]);
      if (this.buf.length < end + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString("utf8"));
      this.buf = this.buf.subarray(end + 4 + len);
      if (msg.method && msg.id !== undefined) this.send({ jsonrpc: "2.0", id: msg.id, result: null }); // server → client requests
      else if (!msg.method) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`${msg.error.code}: ${msg.error.message}`));
        else p?.resolve(msg.result);
      }
    }
  }

  /** @param {object} msg */
  send(msg) {
    const body = Buffer.from(JSON.stringify(msg), "utf8");
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  /**
   * @param {string} method
   * @param {unknown} params
   * @returns {Promise<any>}
   */
  call(method, params) {
    const id = this.nextId++;
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.send({ jsonrpc: "2.0", id, method, params });
    return within(answer, `the LSP answer to ${method}`, WAIT_MS, () => `stderr:\n${this.stderr.slice(-3000)}`);
  }

  async close() {
    await this.call("shutdown", null).catch(() => {});
    this.send({ jsonrpc: "2.0", method: "exit" });
    this.child.stdin.end();
    const killer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.exited;
    clearTimeout(killer);
  }
}

test("a session made through the LSP face is locked while that process drives it, then session/load over ACP replays it", async (t) => {
  const ws = makeWorkspace({ files: { "app.txt": "alpha\n" }, script: "name: lsp\nsteps:\n  - text: \"Hello from the LSP face.\"\n" });
  t.after(() => ws.remove());

  const lsp = new LspPeer(ws);
  const uri = "file://" + ws.dir;
  await lsp.call("initialize", { rootUri: uri, workspaceFolders: [{ uri, name: "ws" }], capabilities: { experimental: { agent: {} } } });
  lsp.send({ jsonrpc: "2.0", method: "initialized", params: {} });
  const { sessionId } = await lsp.call("agent/newSession", {});
  const turn = await lsp.call("agent/prompt", { sessionId, text: "hello over LSP" });
  assert.equal(turn.stopReason, "end_turn", lsp.stderr);

  const acp = new Agent(ws);
  t.after(() => acp.close());
  await acp.initialize();
  // The LSP process still drives the session: the ACP face may not.
  await assert.rejects(acp.request(methods.agent.session.load, { sessionId, cwd: ws.dir, mcpServers: [] }),
    (/** @type {any} */ e) => e.code === -32602 && /another agentls process/.test(String(e.message)));

  await lsp.close();
  const loaded = await acp.request(methods.agent.session.load, { sessionId, cwd: ws.dir, mcpServers: [] });
  assert.equal(loaded.modes?.currentModeId, "plan");
  const mine = acp.updates.filter((n) => n.sessionId === sessionId);
  assert.match(JSON.stringify(mine.filter((n) => n.update.sessionUpdate === "user_message_chunk")), /hello over LSP/, acp.describe());
  assert.match(agentText(mine), /Hello from the LSP face\./, acp.describe());
});
