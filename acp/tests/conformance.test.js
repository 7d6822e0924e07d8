// @ts-check
// The requirements of acp-tck v1 (agentclientprotocol/acp-tck, the ACP Test Compatibility Kit),
// ported: acp-tck is a Python tool run with `uv`, and neither uv nor PyPI is reachable here, so
// each of its v1 requirements is a test below, named by its id and tier, driving the real
// `agentls acp` over raw stdio (no SDK in between, so framing and envelopes are seen as sent).
// Messages are validated with the zod schemas the ACP TypeScript SDK generates from the v1
// schema. MANDATORY requirements must pass; CAPABILITY ones apply to what agentls advertises
// (each checks the advertisement first and fails if the capability it needs is gone); ADVISORY
// ones are held to as well. The last line printed is the verdict, as acp-tck prints it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { after, test } from "node:test";
import { agentBinary, cleanEnv, makeWorkspace, within, WAIT_MS } from "./harness.js";

/** The SDK's zod schemas of the v1 wire (not exported by name: found beside its entry point). */
const schema = await import(new URL("../schema/zod.gen.js", import.meta.resolve("@agentclientprotocol/sdk")).href);

const STOP_REASONS = ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"];

/** @type {Map<string, {tier: string, passed: boolean}>} requirement id → outcome */
const outcomes = new Map();

/**
 * A test bound to one acp-tck requirement: its name carries the id and tier, and its outcome
 * feeds the verdict.
 * @param {string} id
 * @param {"MANDATORY" | "CAPABILITY" | "ADVISORY" | "INFORMATIONAL"} tier
 * @param {string} text
 * @param {(t: import("node:test").TestContext) => Promise<void>} fn
 */
function requirement(id, tier, text, fn) {
  test(`${id} [${tier}] ${text}`, async (t) => {
    outcomes.set(id, { tier, passed: false });
    await fn(t);
    outcomes.set(id, { tier, passed: true });
  });
}

after(() => {
  const failed = [...outcomes].filter(([, o]) => !o.passed && (o.tier === "MANDATORY" || o.tier === "CAPABILITY"));
  const count = (/** @type {string} */ tier) => [...outcomes.values()].filter((o) => o.tier === tier && o.passed).length;
  console.log(
    `acp-tck v1 (ported): ${count("MANDATORY")} MANDATORY, ${count("CAPABILITY")} CAPABILITY, ${count("ADVISORY")} ADVISORY, ` +
      `${count("INFORMATIONAL")} INFORMATIONAL passed — VERDICT: ${failed.length === 0 ? "CONFORMANT" : `NOT CONFORMANT (${failed.map(([id]) => id).join(", ")})`}`,
  );
});

/** A plain answer for every prompt that needs no tools. */
const HELLO = "name: hello\nsteps:\n  - text: \"Héllo ✓ — done.\"\n  - text: \"Again ✓.\"\n  - text: \"Third.\"\n";

/**
 * `agentls acp` on a throw-away workspace, spoken to line by line. Requests from the agent are
 * recorded and answered by `answer` (default: method not found).
 */
class Wire {
  /**
   * @param {ReturnType<typeof makeWorkspace>} ws
   * @param {(m: any) => any} [answer] the result for a request from the agent (a promise: when it
   *   settles; never, for one that never does); undefined: -32601
   */
  constructor(ws, answer) {
    this.ws = ws;
    this.answer = answer;
    this.child = spawn(agentBinary(), ["--config", ws.config, "acp"], { cwd: ws.dir, stdio: ["pipe", "pipe", "pipe"], env: cleanEnv(ws.root) });
    /** @type {Buffer[]} stdout as received */
    this.bytes = [];
    /** @type {string[]} stdout's lines */
    this.lines = [];
    /** @type {any[]} stdout's lines parsed (null for a line that is not JSON) */
    this.messages = [];
    /** @type {any[]} requests the agent sent */
    this.calls = [];
    this.stderr = "";
    /** @type {number | null} */
    this.exitCode = null;
    /** @type {(() => void)[]} */
    this.wakers = [];
    this.nextId = 1;
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d) => { this.stderr += d; });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => { this.exitCode = code ?? -1; resolve(this.exitCode); this.wake(); }));
    let pending = Buffer.alloc(0);
    this.child.stdout.on("data", (/** @type {Buffer} */ chunk) => {
      this.bytes.push(chunk);
      pending = Buffer.concat([pending, chunk]);
      let nl;
      while ((nl = pending.indexOf(10)) >= 0) {
        this.line(pending.subarray(0, nl).toString("utf8"));
        pending = pending.subarray(nl + 1);
      }
    });
  }

  /** @param {string} line */
  line(line) {
    this.lines.push(line);
    let m = null;
    try { m = JSON.parse(line); } catch { /* recorded as null: TRANSPORT-001 fails on it */ }
    this.messages.push(m);
    if (m && typeof m.method === "string" && m.id !== undefined) {
      this.calls.push(m);
      const result = this.answer?.(m);
      if (result === undefined) this.send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: `the test client does not serve ${m.method}` } });
      // A promise is answered when it settles: one that never does is a request left unanswered
      // (sent as is, it would go out as `{}`, which agentls reads as an invalid answer).
      else if (result instanceof Promise) result.then((r) => this.send({ jsonrpc: "2.0", id: m.id, result: r }));
      else this.send({ jsonrpc: "2.0", id: m.id, result });
    }
    this.wake();
  }

  wake() {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /** @param {any} msg */
  send(msg) {
    this.child.stdin.write((typeof msg === "string" ? msg : JSON.stringify(msg)) + "\n");
  }

  /**
   * The first message from index `from` on that satisfies pred, and its index.
   * @param {string} what
   * @param {(m: any) => boolean} pred
   * @param {number} [from]
   * @returns {Promise<{m: any, at: number}>}
   */
  waitFor(what, pred, from = 0) {
    /** @returns {Promise<{m: any, at: number}>} */
    const attempt = () => {
      for (let i = from; i < this.messages.length; i++) if (this.messages[i] && pred(this.messages[i])) return Promise.resolve({ m: this.messages[i], at: i });
      if (this.exitCode !== null) return Promise.reject(new Error(`agentls exited (code ${this.exitCode}) before ${what}\nstderr:\n${this.stderr.slice(-3000)}`));
      return new Promise((resolve) => this.wakers.push(() => resolve(undefined))).then(attempt);
    };
    return within(attempt(), what, WAIT_MS, () => `received:\n${this.lines.slice(-20).join("\n").slice(-4000)}\nstderr:\n${this.stderr.slice(-3000)}`);
  }

  /**
   * Sends a request and waits for its response (result or error).
   * @param {string} method
   * @param {any} params
   * @param {number | string} [id]
   */
  async request(method, params, id = this.nextId++) {
    this.send({ jsonrpc: "2.0", id, method, params });
    return this.response(id, method);
  }

  /**
   * The response to request `id`.
   * @param {number | string} id
   * @param {string} [what]
   */
  async response(id, what = `request ${id}`) {
    const { m, at } = await this.waitFor(`the response to ${what}`, (m) => m.id === id && m.method === undefined);
    return { ...m, at };
  }

  /** A request that must succeed: its result. @param {string} method @param {any} params */
  async ok(method, params) {
    const r = await this.request(method, params);
    assert.ok("result" in r, `${method} failed: ${JSON.stringify(r)}`);
    return r.result;
  }

  /** @param {string} method @param {any} params */
  notify(method, params) {
    this.send({ jsonrpc: "2.0", method, params });
  }

  /** @param {any} [clientCapabilities] */
  async initialize(clientCapabilities = {}) {
    return this.ok("initialize", { protocolVersion: 1, clientCapabilities, clientInfo: { name: "acp-tck-port", version: "1" } });
  }

  /** @param {any} [extra] */
  async newSession(extra = {}) {
    return this.ok("session/new", { cwd: this.ws.dir, mcpServers: [], ...extra });
  }

  /**
   * The session/update notifications for session id between two message indexes.
   * @param {string} id @param {number} [from] @param {number} [to]
   */
  updates(id, from = 0, to = this.messages.length) {
    return this.messages.slice(from, to).filter((m) => m?.method === "session/update" && m.params?.sessionId === id);
  }

  /**
   * A round trip after everything sent so far: once its answer is in, the agent has written all
   * it wrote before handling it (one writer, in order).
   */
  async settle() {
    return this.request("session/list", {});
  }

  async close() {
    this.child.stdin.end();
    if (this.exitCode === null) {
      const killer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await this.exited;
      clearTimeout(killer);
    }
  }
}

/**
 * A workspace and a Wire on it, both gone at the test's end.
 * @param {import("node:test").TestContext} t
 * @param {{script?: string, config?: string, files?: Record<string, string>, answer?: (m: any) => any}} [opts]
 */
function start(t, opts = {}) {
  const ws = makeWorkspace({ script: opts.script ?? HELLO, config: opts.config, files: opts.files });
  const wire = new Wire(ws, opts.answer);
  t.after(async () => { await wire.close(); ws.remove(); });
  return wire;
}

/**
 * Asserts a zod schema accepts value.
 * @param {any} zschema @param {any} value @param {string} what
 */
function valid(zschema, value, what) {
  const r = zschema.safeParse(value);
  assert.ok(r.success, `${what} does not validate against the v1 schema: ${r.error?.message ?? ""}\n${JSON.stringify(value).slice(0, 2000)}`);
}

// ---- transport, JSON-RPC envelope, schema ----

requirement("ACP-TRANSPORT-001", "MANDATORY", "every line on stdout is one JSON-RPC 2.0 message", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  await wire.settle();
  assert.ok(wire.lines.length >= 4, `too few lines: ${wire.lines.length}`);
  wire.messages.forEach((m, i) => {
    assert.ok(m && typeof m === "object" && !Array.isArray(m), `line ${i} is not one JSON object: ${wire.lines[i].slice(0, 300)}`);
    assert.equal(m.jsonrpc, "2.0", `line ${i}: ${wire.lines[i].slice(0, 300)}`);
  });
});

requirement("ACP-TRANSPORT-002", "MANDATORY", "stdout is valid UTF-8 (non-ASCII text included)", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "naïve ✓ 日本" }] });
  await wire.settle();
  const all = Buffer.concat(wire.bytes);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(all); // throws on invalid UTF-8
  assert.match(text, /Héllo ✓/, "the scripted model's non-ASCII answer came through intact");
});

requirement("ACP-JSONRPC-001", "MANDATORY", "a response echoes the request id exactly, integer or string", async (t) => {
  const wire = start(t);
  for (const id of [0, 7, 2147483647, "abc", "ß-✓-id", ""]) {
    const r = await wire.request("initialize", { protocolVersion: 1, clientCapabilities: {} }, id);
    assert.strictEqual(r.id, id, JSON.stringify(r));
    assert.ok("result" in r, JSON.stringify(r));
  }
});

requirement("ACP-JSONRPC-002", "MANDATORY", "a response carries exactly one of result/error; an error has an integer code and a string message", async (t) => {
  const wire = start(t);
  await wire.initialize();
  await wire.request("no/such/method", {});
  await wire.request("session/prompt", { sessionId: "no-such-session", prompt: [{ type: "text", text: "x" }] });
  await wire.request("session/new", { cwd: 42 });
  const { sessionId } = await wire.newSession();
  await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  const responses = wire.messages.filter((m) => m && m.method === undefined);
  assert.ok(responses.length >= 5);
  let errors = 0;
  for (const r of responses) {
    assert.ok(("result" in r) !== ("error" in r), `exactly one of result/error: ${JSON.stringify(r)}`);
    if ("error" in r) {
      errors++;
      assert.ok(Number.isInteger(r.error.code), JSON.stringify(r));
      assert.equal(typeof r.error.message, "string", JSON.stringify(r));
    }
  }
  assert.ok(errors >= 3, `the three bad requests were answered with errors: ${JSON.stringify(responses)}`);
});

requirement("ACP-JSONRPC-003", "MANDATORY", "notifications never get a response", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  const from = wire.messages.length;
  wire.notify("session/cancel", { sessionId });
  wire.notify("session/cancel", { sessionId: "no-such-session" });
  wire.notify("_acp_tck/unknown_notification", { x: 1 });
  wire.notify("no/such/notification", {});
  const { at } = await wire.settle();
  const stray = wire.messages.slice(from, at).filter((m) => m && m.method === undefined);
  assert.deepEqual(stray, [], "no response to any of the four notifications");
});

requirement("ACP-JSONRPC-004", "ADVISORY", "an unknown method gets -32601", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const r = await wire.request("no/such/method", {});
  assert.equal(r.error?.code, -32601, JSON.stringify(r));
});

requirement("ACP-JSONRPC-005", "ADVISORY", "after an erroneous request the connection stays usable", async (t) => {
  const wire = start(t);
  await wire.initialize();
  assert.ok("error" in (await wire.request("no/such/method", {})));
  assert.ok("error" in (await wire.request("session/new", { cwd: "relative/path", mcpServers: [] })));
  const { sessionId } = await wire.newSession();
  const res = await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  assert.equal(res.stopReason, "end_turn");
});

requirement("ACP-SCHEMA-001", "MANDATORY", "every message of a basic exchange validates against the v1 schema", async (t) => {
  const wire = start(t);
  valid(schema.zInitializeResponse, await wire.initialize(), "initialize's result");
  const session = await wire.newSession();
  valid(schema.zNewSessionResponse, session, "session/new's result");
  const from = wire.messages.length;
  valid(schema.zPromptResponse, await wire.ok("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hello" }] }), "session/prompt's result");
  valid(schema.zListSessionsResponse, await wire.ok("session/list", {}), "session/list's result");
  const updates = wire.updates(session.sessionId, from);
  assert.ok(updates.length > 0, "the turn sent updates");
  for (const u of updates) valid(schema.zSessionNotification, u.params, "a session/update");
});

requirement("ACP-SCHEMA-002", "ADVISORY", "results carry no root-level keys the schema does not define (extensions go in _meta)", async (t) => {
  const wire = start(t);
  /** @type {[string, any, any][]} */
  const seen = [];
  seen.push(["initialize", schema.zInitializeResponse, await wire.initialize({ fs: { readTextFile: true, writeTextFile: true }, terminal: true })]);
  const s = await wire.newSession();
  seen.push(["session/new", schema.zNewSessionResponse, s]);
  seen.push(["session/prompt", schema.zPromptResponse, await wire.ok("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "hello" }] })]);
  seen.push(["session/list", schema.zListSessionsResponse, await wire.ok("session/list", {})]);
  seen.push(["session/set_mode", schema.zSetSessionModeResponse, await wire.ok("session/set_mode", { sessionId: s.sessionId, modeId: "build" })]);
  for (const [method, z, result] of seen) {
    const known = new Set([...Object.keys(z.shape), "_meta"]);
    const extra = Object.keys(result ?? {}).filter((k) => !known.has(k));
    assert.deepEqual(extra, [], `${method}'s result has keys outside the v1 schema`);
  }
});

// ---- initialize ----

requirement("ACP-INIT-001", "MANDATORY", "initialize succeeds with a schema-valid result and an integer protocolVersion", async (t) => {
  const wire = start(t);
  const init = await wire.initialize();
  valid(schema.zInitializeResponse, init, "initialize's result");
  assert.ok(Number.isInteger(init.protocolVersion), JSON.stringify(init));
});

requirement("ACP-INIT-002", "MANDATORY", "a client asking for version 1 gets 1", async (t) => {
  const wire = start(t);
  assert.equal((await wire.initialize()).protocolVersion, 1);
});

requirement("ACP-INIT-003", "MANDATORY", "a client asking for an unsupported version (65535) gets a version the agent supports, not an echo", async (t) => {
  const wire = start(t);
  const v1 = await wire.initialize();
  const r = await wire.request("initialize", { protocolVersion: 65535, clientCapabilities: {}, info: { name: "future-client", version: "9" } });
  assert.ok("result" in r, JSON.stringify(r));
  assert.ok(Number.isInteger(r.result.protocolVersion) && r.result.protocolVersion !== 65535, JSON.stringify(r));
  assert.ok(r.result.protocolVersion >= v1.protocolVersion, JSON.stringify(r));
});

requirement("ACP-INIT-004", "ADVISORY", "agentInfo has a name and a version", async (t) => {
  const wire = start(t);
  const init = await wire.initialize();
  assert.equal(init.agentInfo?.name, "agentls");
  assert.ok(typeof init.agentInfo?.version === "string" && init.agentInfo.version !== "", JSON.stringify(init.agentInfo));
});

// ---- sessions ----

requirement("ACP-SESSION-001", "MANDATORY", "session/new with an absolute cwd and no MCP servers gives a non-empty sessionId", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const s = await wire.newSession();
  valid(schema.zNewSessionResponse, s, "session/new's result");
  assert.ok(typeof s.sessionId === "string" && s.sessionId !== "");
});

requirement("ACP-SESSION-002", "MANDATORY", "two session/new calls give distinct ids", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const a = await wire.newSession();
  const b = await wire.newSession();
  assert.notEqual(a.sessionId, b.sessionId);
});

requirement("ACP-PROMPT-001", "MANDATORY", "a text prompt resolves with a defined stopReason", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  const res = await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  assert.ok(STOP_REASONS.includes(res.stopReason), JSON.stringify(res));
});

requirement("ACP-PROMPT-002", "MANDATORY", "every session/update of a turn validates and names the prompted session", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const other = await wire.newSession();
  // The other session's commands follow its session/new answer: let them arrive first.
  await wire.waitFor("the other session's commands", (m) => m.params?.sessionId === other.sessionId && m.params?.update?.sessionUpdate === "available_commands_update");
  const { sessionId } = await wire.newSession();
  await wire.waitFor("the session's commands", (m) => m.params?.sessionId === sessionId && m.params?.update?.sessionUpdate === "available_commands_update");
  const from = wire.messages.length;
  const res = await wire.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  const during = wire.messages.slice(from, res.at).filter((m) => m?.method === "session/update");
  assert.ok(during.length > 0);
  for (const u of during) {
    valid(schema.zSessionNotification, u.params, "a session/update");
    assert.equal(u.params.sessionId, sessionId, `an update of the turn names another session (${other.sessionId}?): ${JSON.stringify(u)}`);
  }
});

requirement("ACP-PROMPT-003", "ADVISORY", "a prompt with a resource_link beside text is accepted", async (t) => {
  const wire = start(t, { files: { "notes.md": "# Notes\n" } });
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  const res = await wire.ok("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "read this" }, { type: "resource_link", uri: `file://${wire.ws.path("notes.md")}`, name: "notes.md" }],
  });
  assert.ok(STOP_REASONS.includes(res.stopReason));
});

requirement("ACP-META-001", "ADVISORY", "a prompt carrying _meta (traceparent) resolves normally", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  const res = await wire.ok("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "hello" }],
    _meta: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
  });
  assert.equal(res.stopReason, "end_turn");
});

/** A script whose first step runs a command, so a build-mode turn waits on its permission. */
const RUN_SCRIPT = "name: waits\nsteps:\n  - tool_calls:\n      - {id: r1, name: run, args: {command: \"touch ran.txt\"}}\n  - text: \"unused\"\n";

/**
 * Starts a build-mode turn that waits on a run permission; returns the session, the prompt's
 * request id and the permission request.
 * @param {Wire} wire
 */
async function turnWaitingOnPermission(wire) {
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  await wire.ok("session/set_mode", { sessionId, modeId: "build" });
  const id = wire.nextId++;
  wire.send({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "touch a file" }] } });
  const { m: ask } = await wire.waitFor("the run's permission request", (m) => m.method === "session/request_permission");
  return { sessionId, id, ask };
}

requirement("ACP-CANCEL-001", "MANDATORY", "session/cancel during a turn resolves the prompt with stopReason cancelled, not an error", async (t) => {
  const wire = start(t, { script: RUN_SCRIPT, answer: () => new Promise(() => {}) });
  const { sessionId, id } = await turnWaitingOnPermission(wire);
  wire.notify("session/cancel", { sessionId });
  const r = await wire.response(id, "the cancelled prompt");
  assert.ok("result" in r, JSON.stringify(r));
  assert.equal(r.result.stopReason, "cancelled");
  assert.equal(existsSync(wire.ws.path("ran.txt")), false, "the command did not run");
});

requirement("ACP-CANCEL-002", "MANDATORY", "every update of the cancelled turn comes before the prompt's response, none after", async (t) => {
  const wire = start(t, { script: RUN_SCRIPT, answer: () => new Promise(() => {}) });
  const { sessionId, id } = await turnWaitingOnPermission(wire);
  wire.notify("session/cancel", { sessionId });
  const r = await wire.response(id, "the cancelled prompt");
  const { at } = await wire.settle();
  assert.deepEqual(wire.updates(sessionId, r.at + 1, at), [], "no session/update after the prompt's response");
});

requirement("ACP-LOAD-001", "CAPABILITY", "session/load of a known session succeeds with a schema-valid result (loadSession advertised)", async (t) => {
  const ws = makeWorkspace({ script: HELLO });
  t.after(() => ws.remove());
  const first = new Wire(ws);
  assert.equal((await first.initialize()).agentCapabilities?.loadSession, true, "agentls advertises loadSession");
  const { sessionId } = await first.newSession();
  await first.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  await first.close();
  const second = new Wire(ws);
  t.after(() => second.close());
  await second.initialize();
  const loaded = await second.ok("session/load", { sessionId, cwd: ws.dir, mcpServers: [] });
  valid(schema.zLoadSessionResponse, loaded, "session/load's result");
});

requirement("ACP-LOAD-002", "CAPABILITY", "the replay of session/load arrives before its response, none after", async (t) => {
  const ws = makeWorkspace({ script: HELLO });
  t.after(() => ws.remove());
  const first = new Wire(ws);
  await first.initialize();
  const { sessionId } = await first.newSession();
  await first.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  await first.close();
  const second = new Wire(ws);
  t.after(() => second.close());
  await second.initialize();
  const r = await second.request("session/load", { sessionId, cwd: ws.dir, mcpServers: [] });
  assert.ok("result" in r, JSON.stringify(r));
  assert.ok(second.updates(sessionId, 0, r.at).length > 0, "the history was replayed before the response");
  const { at } = await second.settle();
  assert.deepEqual(second.updates(sessionId, r.at + 1, at), [], "no replay after the response");
});

requirement("ACP-LOAD-003", "ADVISORY", "session/load's result is an object, not null", async (t) => {
  const ws = makeWorkspace({ script: HELLO });
  t.after(() => ws.remove());
  const first = new Wire(ws);
  await first.initialize();
  const { sessionId } = await first.newSession();
  await first.close();
  const second = new Wire(ws);
  t.after(() => second.close());
  await second.initialize();
  const loaded = await second.ok("session/load", { sessionId, cwd: ws.dir, mcpServers: [] });
  assert.ok(loaded !== null && typeof loaded === "object" && !Array.isArray(loaded), JSON.stringify(loaded));
});

requirement("ACP-RESUME-001", "CAPABILITY", "session/resume without mcpServers succeeds with a schema-valid result", async (t) => {
  const ws = makeWorkspace({ script: HELLO });
  t.after(() => ws.remove());
  const first = new Wire(ws);
  assert.ok((await first.initialize()).agentCapabilities?.sessionCapabilities?.resume, "agentls advertises resume");
  const { sessionId } = await first.newSession();
  await first.close();
  const second = new Wire(ws);
  t.after(() => second.close());
  await second.initialize();
  valid(schema.zResumeSessionResponse, await second.ok("session/resume", { sessionId, cwd: ws.dir }), "session/resume's result");
});

requirement("ACP-RESUME-002", "CAPABILITY", "no history (message or thought chunks) arrives before session/resume's response", async (t) => {
  const ws = makeWorkspace({ script: HELLO });
  t.after(() => ws.remove());
  const first = new Wire(ws);
  await first.initialize();
  const { sessionId } = await first.newSession();
  await first.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  await first.close();
  const second = new Wire(ws);
  t.after(() => second.close());
  await second.initialize();
  const r = await second.request("session/resume", { sessionId, cwd: ws.dir });
  assert.ok("result" in r, JSON.stringify(r));
  const history = second.updates(sessionId, 0, r.at).filter((u) => /^(user_message|agent_message|agent_thought)_chunk$/.test(u.params.update.sessionUpdate));
  assert.deepEqual(history, []);
});

requirement("ACP-LIST-001", "CAPABILITY", "session/list with {} gives a schema-valid result with a sessions array", async (t) => {
  const wire = start(t);
  assert.ok((await wire.initialize()).agentCapabilities?.sessionCapabilities?.list, "agentls advertises list");
  await wire.newSession();
  const list = await wire.ok("session/list", {});
  valid(schema.zListSessionsResponse, list, "session/list's result");
  assert.ok(Array.isArray(list.sessions));
});

requirement("ACP-LIST-002", "CAPABILITY", "session/list filtered by a cwd no session uses gives an empty array", async (t) => {
  const wire = start(t);
  await wire.initialize();
  await wire.newSession();
  assert.deepEqual((await wire.ok("session/list", { cwd: `${wire.ws.root}/nowhere` })).sessions, [], "a folder that does not exist");
  const empty = `${wire.ws.root}/empty`;
  (await import("node:fs")).mkdirSync(empty);
  assert.deepEqual((await wire.ok("session/list", { cwd: empty })).sessions, [], "a folder without sessions");
});

requirement("ACP-DELETE-001", "CAPABILITY", "session/delete of a session made earlier succeeds with an empty object", async (t) => {
  const wire = start(t);
  assert.ok((await wire.initialize()).agentCapabilities?.sessionCapabilities?.delete, "agentls advertises delete");
  const { sessionId } = await wire.newSession();
  const r = await wire.ok("session/delete", { sessionId });
  assert.deepEqual(r, {});
});

requirement("ACP-DELETE-002", "ADVISORY", "deleting a deleted or never-made session succeeds silently", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  await wire.ok("session/delete", { sessionId });
  assert.deepEqual(await wire.ok("session/delete", { sessionId }), {});
  assert.deepEqual(await wire.ok("session/delete", { sessionId: "never-made" }), {});
});

requirement("ACP-CLOSE-001", "CAPABILITY", "session/close of an idle session succeeds with an empty object", async (t) => {
  const wire = start(t);
  assert.ok((await wire.initialize()).agentCapabilities?.sessionCapabilities?.close, "agentls advertises close");
  const { sessionId } = await wire.newSession();
  assert.deepEqual(await wire.ok("session/close", { sessionId }), {});
});

requirement("ACP-CLOSE-002", "CAPABILITY", "session/close during a turn cancels it: the prompt resolves with cancelled", async (t) => {
  const wire = start(t, { script: RUN_SCRIPT, answer: () => new Promise(() => {}) });
  const { sessionId, id } = await turnWaitingOnPermission(wire);
  const closing = wire.request("session/close", { sessionId });
  const r = await wire.response(id, "the prompt of the closed session");
  assert.equal(r.result?.stopReason, "cancelled", JSON.stringify(r));
  assert.ok("result" in (await closing));
});

requirement("ACP-ADDDIRS-001", "CAPABILITY", "session/new with an absolute additionalDirectories entry is accepted", async (t) => {
  const wire = start(t);
  assert.ok((await wire.initialize()).agentCapabilities?.sessionCapabilities?.additionalDirectories, "agentls advertises additionalDirectories");
  const extra = wire.ws.root + "/extra";
  (await import("node:fs")).mkdirSync(extra);
  const s = await wire.newSession({ additionalDirectories: [extra] });
  assert.ok(s.sessionId);
});

// ---- modes and config options ----

requirement("ACP-MODES-001", "CAPABILITY", "session/new's modes validate and currentModeId is one of availableModes", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const s = await wire.newSession();
  assert.ok(s.modes, "agentls offers modes (plan, build)");
  valid(schema.zSessionModeState, s.modes, "modes");
  assert.ok(s.modes.availableModes.some((/** @type {any} */ m) => m.id === s.modes.currentModeId), JSON.stringify(s.modes));
});

requirement("ACP-MODES-002", "CAPABILITY", "session/set_mode to another mode succeeds; a current_mode_update carries currentModeId", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const s = await wire.newSession();
  const other = s.modes.availableModes.find((/** @type {any} */ m) => m.id !== s.modes.currentModeId);
  const from = wire.messages.length;
  await wire.ok("session/set_mode", { sessionId: s.sessionId, modeId: other.id });
  const { at } = await wire.settle();
  for (const u of wire.updates(s.sessionId, from, at).filter((u) => u.params.update.sessionUpdate === "current_mode_update")) {
    assert.equal(u.params.update.currentModeId, other.id, JSON.stringify(u));
  }
});

requirement("ACP-CONFIG-001", "CAPABILITY", "every configOption's currentValue fits its type", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const s = await wire.newSession();
  assert.ok(Array.isArray(s.configOptions) && s.configOptions.length > 0, "agentls offers config options");
  for (const o of s.configOptions) {
    if (o.type === "boolean") assert.equal(typeof o.currentValue, "boolean", JSON.stringify(o));
    if (o.type === "select") {
      const values = o.options.flatMap((/** @type {any} */ x) => ("options" in x ? x.options : [x])).map((/** @type {any} */ x) => x.value);
      assert.ok(values.includes(o.currentValue), JSON.stringify(o));
    }
  }
});

requirement("ACP-CONFIG-002", "CAPABILITY", "session/set_config_option answers with the complete list, the change applied", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const s = await wire.newSession();
  const select = s.configOptions.find((/** @type {any} */ o) => o.type === "select");
  assert.ok(select, JSON.stringify(s.configOptions));
  const values = select.options.flatMap((/** @type {any} */ x) => ("options" in x ? x.options : [x])).map((/** @type {any} */ x) => x.value);
  const value = values.find((/** @type {string} */ v) => v !== select.currentValue) ?? select.currentValue;
  const r = await wire.ok("session/set_config_option", { sessionId: s.sessionId, configId: select.id, value });
  assert.deepEqual(r.configOptions.map((/** @type {any} */ o) => o.id).sort(), s.configOptions.map((/** @type {any} */ o) => o.id).sort());
  assert.equal(r.configOptions.find((/** @type {any} */ o) => o.id === select.id).currentValue, value);
});

requirement("ACP-CONFIG-003", "MANDATORY", "no boolean config option unless the client advertised boolean config options", async (t) => {
  const wire = start(t);
  await wire.initialize({});
  const s = await wire.newSession();
  assert.deepEqual((s.configOptions ?? []).filter((/** @type {any} */ o) => o.type === "boolean"), []);
});

requirement("ACP-PROMPTCAP-003", "CAPABILITY", "with embeddedContext advertised, a prompt with an embedded resource resolves normally", async (t) => {
  const wire = start(t);
  assert.equal((await wire.initialize()).agentCapabilities?.promptCapabilities?.embeddedContext, true);
  const { sessionId } = await wire.newSession();
  const res = await wire.ok("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "see" }, { type: "resource", resource: { uri: "file:///tmp/x.txt", mimeType: "text/plain", text: "x\n" } }],
  });
  assert.ok(STOP_REASONS.includes(res.stopReason));
});

// ---- authentication ----

requirement("ACP-AUTH-001", "ADVISORY", "authMethods' ids are unique", async (t) => {
  const wire = start(t);
  const init = await wire.initialize({ auth: { terminal: true } });
  const ids = (init.authMethods ?? []).map((/** @type {any} */ m) => m.id);
  assert.deepEqual(ids, [...new Set(ids)]);
});

requirement("ACP-AUTH-002", "MANDATORY", "no terminal auth method unless the client advertised terminal auth", async (t) => {
  const wire = start(t);
  const init = await wire.initialize({});
  assert.deepEqual((init.authMethods ?? []).filter((/** @type {any} */ m) => m.type === "terminal"), [], JSON.stringify(init.authMethods));
});

requirement("ACP-AUTH-003", "CAPABILITY", "authenticate with an advertised method gives an object, and session/new then works", async (t) => {
  const wire = start(t);
  const init = await wire.initialize();
  const method = (init.authMethods ?? []).find((/** @type {any} */ m) => m.id === "agentls-check");
  assert.ok(method, JSON.stringify(init.authMethods));
  const r = await wire.ok("authenticate", { methodId: method.id });
  assert.ok(r !== null && typeof r === "object", JSON.stringify(r));
  const s = await wire.request("session/new", { cwd: wire.ws.dir, mcpServers: [] });
  assert.notEqual(s.error?.code, -32000, JSON.stringify(s));
  assert.ok("result" in s);
});

// ---- what the client did not offer ----

requirement("ACP-CLIENTCAP-001", "MANDATORY", "no fs/* request to a client that advertised no fs (a plan is still written)", async (t) => {
  const wire = start(t, {
    script: `name: plan
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: "# Goal\\nG.\\n\\n## Steps\\n- [ ] one\\n"}}
      - {id: r1, name: read, args: {path: app.txt}}
  - text: done
`,
    files: { "app.txt": "alpha\n" },
  });
  await wire.initialize({});
  const { sessionId } = await wire.newSession();
  await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "plan" }] });
  assert.deepEqual(wire.calls.filter((m) => m.method.startsWith("fs/")), []);
  assert.ok(existsSync(wire.ws.path("plans/t.plan")), "agentls wrote the plan itself");
});

requirement("ACP-CLIENTCAP-002", "MANDATORY", "no terminal/* request to a client that did not advertise terminal (the command still runs)", async (t) => {
  const wire = start(t, {
    config: "run:\n  allow: [\"touch ran.txt\"]\n",
    script: "name: run\nsteps:\n  - tool_calls:\n      - {id: r1, name: run, args: {command: \"touch ran.txt\"}}\n  - text: done\n",
  });
  await wire.initialize({});
  const { sessionId } = await wire.newSession();
  await wire.ok("session/set_mode", { sessionId, modeId: "build" });
  await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "run" }] });
  assert.deepEqual(wire.calls.filter((m) => m.method.startsWith("terminal/")), []);
  assert.ok(existsSync(wire.ws.path("ran.txt")), `the command ran in agentls's own shell\n${wire.stderr.slice(-2000)}`);
});

requirement("ACP-CLIENTCAP-003", "MANDATORY", "no elicitation/create to a client that advertised no elicitation (a question is still asked)", async (t) => {
  const wire = start(t, {
    script: "name: ask\nsteps:\n  - tool_calls:\n      - {id: q1, name: ask_user, args: {questions: [{name: env, question: \"Which environment?\", schema: {type: string, enum: [dev, prod]}}]}}\n  - text: done\n",
    answer: (m) => (m.method === "session/request_permission" ? { outcome: { outcome: "selected", optionId: m.params.options[0].optionId } } : undefined),
  });
  await wire.initialize({});
  const { sessionId } = await wire.newSession();
  await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "ask" }] });
  assert.deepEqual(wire.calls.filter((m) => m.method.startsWith("elicitation/")), []);
});

// ---- extensibility, errors, shutdown ----

requirement("ACP-EXT-001", "MANDATORY", "a request to an unknown _-prefixed method gets a response", async (t) => {
  const wire = start(t);
  await wire.initialize();
  for (const method of ["_acp_tck/unknown", "_agentls/no_such_method", "_x"]) {
    const r = await wire.request(method, { probe: true });
    assert.ok("result" in r || "error" in r, JSON.stringify(r));
  }
});

requirement("ACP-ERROR-001", "ADVISORY", "error messages are non-empty single lines", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const errors = [
    await wire.request("no/such/method", {}),
    await wire.request("session/new", { cwd: 42 }),
    await wire.request("session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "x" }] }),
    await wire.request("session/new", { cwd: "relative", mcpServers: [] }),
  ];
  for (const e of errors) {
    assert.ok("error" in e, JSON.stringify(e));
    assert.ok(e.error.message.length > 0 && !e.error.message.includes("\n"), JSON.stringify(e));
  }
});

requirement("ACP-SHUTDOWN-001", "ADVISORY", "closing stdin makes agentls exit on its own, promptly", async (t) => {
  const wire = start(t);
  await wire.initialize();
  await wire.newSession();
  wire.child.stdin.end();
  const code = await within(wire.exited, "agentls to exit after stdin closed", 5000);
  assert.equal(code, 0, wire.stderr.slice(-2000));
});

// ---- informational probes (acp-tck records these; agentls is held to them) ----

requirement("ACP-INFO-PARSE-001", "INFORMATIONAL", "a malformed JSON line gets a parse error and the connection stays usable", async (t) => {
  const wire = start(t);
  await wire.initialize();
  wire.send("{\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": ");
  const { m } = await wire.waitFor("the parse error", (m) => m.error?.code === -32700);
  assert.equal(m.id, null, JSON.stringify(m));
  const s = await wire.newSession();
  assert.ok(s.sessionId);
});

requirement("ACP-INFO-INVALIDREQ-001", "INFORMATIONAL", "structurally invalid requests get errors with their ids and the connection stays usable", async (t) => {
  const wire = start(t);
  await wire.initialize();
  wire.send({ jsonrpc: "2.0", id: 41, method: 42 });
  wire.send({ jsonrpc: "2.0", id: 42 });
  wire.send({ jsonrpc: "2.0", id: 43, method: "session/new", params: "not an object" });
  for (const id of [41, 42, 43]) {
    const r = await wire.response(id);
    assert.ok("error" in r, JSON.stringify(r));
  }
  assert.ok((await wire.newSession()).sessionId);
});

requirement("ACP-STDERR-001", "INFORMATIONAL", "stderr stays quiet in a plain exchange (logs go to the log level chosen)", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const { sessionId } = await wire.newSession();
  await wire.ok("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  assert.ok(wire.stderr.length < 16 * 1024, `${wire.stderr.length} bytes on stderr`);
});

requirement("ACP-INFO-SESSION-001", "INFORMATIONAL", "a prompt for an unknown sessionId is an error, not a hang", async (t) => {
  const wire = start(t);
  await wire.initialize();
  const r = await wire.request("session/prompt", { sessionId: "no-such-session", prompt: [{ type: "text", text: "x" }] });
  assert.ok("error" in r, JSON.stringify(r));
});
