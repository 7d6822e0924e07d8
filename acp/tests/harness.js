// @ts-check
// The harness of the ACP client tests: it starts the real `agentls acp` binary ($AGENTLS_BIN) on a
// throw-away workspace with the scripted model, connects the official TypeScript SDK's client to
// its stdin/stdout, and records everything the agent sends. Every wait has its own deadline and
// fails with what it waited for, the updates seen so far and the agent's stderr: no test sleeps.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";

/** @typedef {import("@agentclientprotocol/sdk").SessionNotification} SessionNotification */
/** @typedef {import("@agentclientprotocol/sdk").SessionUpdate} SessionUpdate */
/** @typedef {import("@agentclientprotocol/sdk").RequestPermissionRequest} RequestPermissionRequest */
/** @typedef {import("@agentclientprotocol/sdk").RequestPermissionResponse} RequestPermissionResponse */
/** @typedef {import("@agentclientprotocol/sdk").WriteTextFileRequest} WriteTextFileRequest */
/** @typedef {import("@agentclientprotocol/sdk").ReadTextFileRequest} ReadTextFileRequest */
/** @typedef {import("@agentclientprotocol/sdk").ClientCapabilities} ClientCapabilities */
/** @typedef {import("@agentclientprotocol/sdk").ClientContext} ClientContext */
/** @typedef {{writeTextFile?: boolean, readTextFile?: boolean, elicitation?: boolean, terminal?: boolean}} Caps */

/** The default deadline of one wait, in ms: generous for a loaded 2-core CI machine. */
export const WAIT_MS = 15000;
/** How long a person takes to read a permission question before answering it (over 300 ms). */
export const PERSON_READS_MS = 350;

/** The binary under test: scripts/test and acp/tests/run build it from this tree. */
export function agentBinary() {
  const bin = process.env.AGENTLS_BIN;
  if (!bin) throw new Error("AGENTLS_BIN is not set: run the tests with acp/tests/run (it builds agentls)");
  return bin;
}

/**
 * A throw-away workspace: `dir` holds the files, `config` (outside it, so the agent cannot read it)
 * selects the scripted model replaying `script`. Remove it with `remove()`.
 * @param {{files?: Record<string, string>, script: string, config?: string}} opts `config`: more
 *   configuration (YAML) after the model's
 */
export function makeWorkspace(opts) {
  const root = mkdtempSync(join(tmpdir(), "agentls-acp-"));
  const dir = join(root, "ws");
  mkdirSync(dir);
  for (const [name, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const script = join(root, "script.yaml");
  writeFileSync(script, opts.script);
  const config = join(root, "config.yaml");
  writeFileSync(config, `model:\n  provider: scripted\n  script: ${JSON.stringify(script)}\n${opts.config ?? ""}`);
  mkdirSync(join(root, "xdg"));
  return {
    root,
    dir,
    config,
    /** @param {string} name */
    path: (name) => join(dir, name),
    /** @param {string} name */
    read: (name) => readFileSync(join(dir, name), "utf8"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Rejects with a clear message when `promise` has not settled within `ms`.
 * @template T
 * @param {Promise<T>} promise
 * @param {string} what what is awaited, for the failure message
 * @param {number} [ms]
 * @param {() => string} [context] more to say on failure
 * @returns {Promise<T>}
 */
export function within(promise, what, ms = WAIT_MS, context) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms}ms waiting for ${what}${context ? "\n" + context() : ""}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * One request from the agent that the test answers when it chooses.
 * @template P, R
 * @typedef {{params: P, respond: (r: R) => void, answered: boolean}} Pending
 */

/**
 * A queue of requests from the agent: the client handler parks each one until the test takes it
 * (take()) and answers it (respond()).
 * @template P, R
 */
class Inbox {
  constructor() {
    /** @type {Pending<P, R>[]} */
    this.queue = [];
    /** @type {Pending<P, R>[]} every request received, in order */
    this.all = [];
    /** @type {((p: Pending<P, R>) => void)[]} */
    this.takers = [];
  }

  /** @param {P} params @returns {Promise<R>} */
  receive(params) {
    return new Promise((resolve) => {
      /** @type {Pending<P, R>} */
      const p = {
        params,
        answered: false,
        respond: (r) => { p.answered = true; resolve(r); },
      };
      this.all.push(p);
      const taker = this.takers.shift();
      if (taker) taker(p);
      else this.queue.push(p);
    });
  }

  /** @returns {Promise<Pending<P, R>>} */
  take() {
    const p = this.queue.shift();
    if (p) return Promise.resolve(p);
    return new Promise((resolve) => this.takers.push(resolve));
  }

  /** The requests received but not taken or not answered. */
  unanswered() {
    return this.all.filter((p) => !p.answered);
  }
}

/**
 * A running `agentls acp` with a connected SDK client.
 */
export class Agent {
  /**
   * @param {ReturnType<typeof makeWorkspace>} ws
   * @param {Caps} [caps] the client's capabilities: with writeTextFile the client writes the
   *   agent's edits to disk itself (as an editor saving its buffer would), with readTextFile it
   *   serves reads from disk, with elicitation it declares form elicitation.
   */
  constructor(ws, caps = {}) {
    this.ws = ws;
    this.caps = caps;
    /** @type {SessionNotification[]} every session/update, in order */
    this.updates = [];
    /** @type {(() => void)[]} */
    this.wakers = [];
    /** @type {Inbox<RequestPermissionRequest, RequestPermissionResponse>} */
    this.permissions = new Inbox();
    /** @type {Inbox<import("@agentclientprotocol/sdk").CreateElicitationRequest, import("@agentclientprotocol/sdk").CreateElicitationResponse>} */
    this.elicitations = new Inbox();
    /** @type {WriteTextFileRequest[]} */
    this.writes = [];
    /** @type {Map<string, Terminal>} the client's terminals (terminal/create), by id */
    this.terminals = new Map();
    /** @type {Promise<void> | undefined} while set, terminal/create answers only once it settles */
    this.createGate = undefined;
    /** @type {ReadTextFileRequest[]} */
    this.reads = [];
    /** @type {Map<string, string>} the client's unsaved buffers by absolute path: fs/read_text_file serves them before the disk */
    this.buffers = new Map();
    this.stderr = "";
    /** @type {number | null} */
    this.exitCode = null;

    this.child = spawn(agentBinary(), ["--config", ws.config, "--log-level", "debug", "acp"], {
      cwd: ws.dir,
      stdio: ["pipe", "pipe", "pipe"],
      env: cleanEnv(ws.root),
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d) => { this.stderr += d; });
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        this.exitCode = code ?? (signal ? 128 : -1);
        resolve(this.exitCode);
        this.wake();
      });
    });

    const app = client({ name: "agentls-acp-tests" })
      .onNotification(methods.client.session.update, ({ params }) => {
        this.updates.push(params);
        this.wake();
      })
      .onRequest(methods.client.session.requestPermission, ({ params }) => {
        const answer = this.permissions.receive(params);
        this.wake();
        return answer;
      })
      .onRequest(methods.client.elicitation.create, ({ params }) => {
        const answer = this.elicitations.receive(params);
        this.wake();
        return answer;
      })
      .onRequest(methods.client.terminal.create, async ({ params }) => {
        const term = new Terminal(params, `term-${this.terminals.size + 1}`);
        this.terminals.set(term.id, term);
        this.wake();
        await this.createGate; // a test may hold the answer back
        return { terminalId: term.id };
      })
      .onRequest(methods.client.terminal.output, ({ params }) => this.terminal(params.terminalId, "output").output())
      .onRequest(methods.client.terminal.waitForExit, ({ params }) => this.terminal(params.terminalId, "wait_for_exit").exit)
      .onRequest(methods.client.terminal.kill, ({ params }) => {
        this.terminal(params.terminalId, "kill").kill();
        return {};
      })
      .onRequest(methods.client.terminal.release, ({ params }) => {
        this.terminal(params.terminalId, "release").release();
        return {};
      })
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        this.writes.push(params);
        writeFileSync(params.path, params.content);
        this.buffers.delete(params.path); // saved
        this.wake();
        return {};
      })
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        this.reads.push(params);
        let content = this.buffers.get(params.path) ?? readFileSync(params.path, "utf8");
        if (params.line != null || params.limit != null) {
          const lines = content.split("\n");
          const start = Math.max((params.line ?? 1) - 1, 0);
          content = lines.slice(start, params.limit != null ? start + params.limit : undefined).join("\n");
        }
        return { content };
      });
    const stream = ndJsonStream(
      /** @type {WritableStream<Uint8Array>} */ (Writable.toWeb(this.child.stdin)),
      /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(this.child.stdout)),
    );
    this.connection = app.connect(stream);
    /** @type {ClientContext} */
    this.ctx = this.connection.agent;
  }

  /**
   * The terminal `id`, noting the terminal/* request `method` made on it.
   * @param {string} id
   * @param {string} method
   */
  terminal(id, method) {
    const t = this.terminals.get(id);
    if (!t) throw new Error(`no terminal ${id}`);
    t.calls.push(method);
    this.wake();
    return t;
  }

  wake() {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /** What the agent said, for failure messages. */
  describe() {
    const ups = this.updates.slice(-25).map((n) => "  " + summarize(n.update)).join("\n");
    const perms = this.permissions.all.map((p) => "  " + JSON.stringify(p.params).slice(0, 300)).join("\n");
    return `updates (last 25 of ${this.updates.length}):\n${ups}\npermission requests:\n${perms}\nfs/write_text_file: ${this.writes.map((w) => w.path).join(", ")}\nagent stderr (tail):\n${this.stderr.slice(-3000)}`;
  }

  /**
   * Sends an agent-side request with a deadline.
   * @param {string} method
   * @param {unknown} params
   * @param {number} [ms]
   * @returns {Promise<any>}
   */
  request(method, params, ms = WAIT_MS) {
    return within(this.ctx.request(method, params), `the answer to ${method}`, ms, () => this.describe());
  }

  /** initialize with this client's capabilities. */
  initialize() {
    /** @type {ClientCapabilities} */
    const clientCapabilities = {
      fs: { writeTextFile: !!this.caps.writeTextFile, readTextFile: !!this.caps.readTextFile },
      terminal: !!this.caps.terminal,
      ...(this.caps.elicitation ? { elicitation: { form: {} } } : {}),
    };
    return this.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities,
      clientInfo: { name: "agentls-acp-tests", version: "1.0.0" },
    });
  }

  /**
   * session/new on the workspace, with the client's MCP servers (none by default).
   * @param {import("@agentclientprotocol/sdk").McpServer[]} [mcpServers]
   * @returns {Promise<import("@agentclientprotocol/sdk").NewSessionResponse>}
   */
  newSession(mcpServers = []) {
    return this.request(methods.agent.session.new, { cwd: this.ws.dir, mcpServers });
  }

  /**
   * Switches the session's mode with session/set_mode and waits for its current_mode_update.
   * @param {string} sessionId
   * @param {string} modeId
   */
  async setMode(sessionId, modeId) {
    const from = this.updates.length;
    await this.request(methods.agent.session.setMode, { sessionId, modeId });
    await this.waitUpdate(`current_mode_update to ${modeId} after session/set_mode`, (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === modeId, { from });
  }

  /**
   * Sends session/cancel and waits, with a deadline, for the running turn's session/prompt answer.
   * @param {string} sessionId
   * @param {Promise<import("@agentclientprotocol/sdk").PromptResponse>} turn
   */
  async cancel(sessionId, turn) {
    await this.ctx.notify(methods.agent.session.cancel, { sessionId });
    return within(turn, "session/prompt to end after session/cancel", WAIT_MS, () => this.describe());
  }

  /**
   * Starts a turn; the returned promise is the session/prompt response (awaited with a deadline
   * by the caller, e.g. with `within`).
   * @param {string} sessionId
   * @param {string} text
   * @returns {Promise<import("@agentclientprotocol/sdk").PromptResponse>}
   */
  prompt(sessionId, text) {
    return this.ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  }

  /**
   * Waits until an update (from `from` on) satisfies pred, and returns it.
   * @param {string} what
   * @param {(u: SessionUpdate, n: SessionNotification) => boolean} pred
   * @param {{from?: number, ms?: number}} [opts]
   * @returns {Promise<SessionUpdate>}
   */
  async waitUpdate(what, pred, opts = {}) {
    const found = await this.waitFor(what, () => {
      for (let i = opts.from ?? 0; i < this.updates.length; i++) {
        if (pred(this.updates[i].update, this.updates[i])) return this.updates[i].update;
      }
      return undefined;
    }, opts.ms);
    return found;
  }

  /**
   * Waits until check() returns something other than undefined, re-checking on every message
   * from the agent; fails after ms with `what` and what the agent said.
   * @template T
   * @param {string} what
   * @param {() => T | undefined} check
   * @param {number} [ms]
   * @returns {Promise<T>}
   */
  waitFor(what, check, ms = WAIT_MS) {
    return new Promise((resolve, reject) => {
      let settled = false;
      /** @param {() => void} f */
      const settle = (f) => { if (!settled) { settled = true; clearTimeout(timer); f(); } };
      const timer = setTimeout(() => settle(() => reject(new Error(`timed out after ${ms}ms waiting for ${what}\n${this.describe()}`))), ms);
      const attempt = () => {
        if (settled) return;
        let v;
        try {
          v = check();
        } catch (e) {
          settle(() => reject(e));
          return;
        }
        if (v !== undefined) settle(() => resolve(v));
        else if (this.exitCode !== null) settle(() => reject(new Error(`agentls exited (code ${this.exitCode}) while waiting for ${what}\n${this.describe()}`)));
        else this.wakers.push(attempt);
      };
      attempt();
    });
  }

  /**
   * Takes the next session/request_permission the agent sends (answer it with respond()).
   * @param {string} what
   * @param {number} [ms]
   */
  async nextPermission(what, ms = WAIT_MS) {
    const ask = await within(this.permissions.take(), `session/request_permission (${what})`, ms, () => this.describe());
    // A person reads the question before answering: agentls takes an answer within 300 ms as the
    // client's own, which allows one call and approves no plan (docs/guard.md).
    await new Promise((resolve) => setTimeout(resolve, PERSON_READS_MS));
    return ask;
  }

  /**
   * Takes the next elicitation/create the agent sends (answer it with respond()).
   * @param {string} what
   * @param {number} [ms]
   */
  nextElicitation(what, ms = WAIT_MS) {
    return within(this.elicitations.take(), `elicitation/create (${what})`, ms, () => this.describe());
  }

  /** Closes the connection and stops the process (SIGTERM, then SIGKILL). */
  async close() {
    for (const p of this.permissions.unanswered()) p.respond({ outcome: { outcome: "cancelled" } });
    for (const p of this.elicitations.unanswered()) p.respond({ action: "cancel" });
    for (const t of this.terminals.values()) t.release();
    this.connection.close();
    if (this.exitCode === null) {
      this.child.stdin.destroy();
      this.child.kill("SIGTERM");
      const killer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await this.exited;
      clearTimeout(killer);
    }
  }
}

/**
 * A terminal as an editor gives one to terminal/create: the command runs as a real process in
 * the requested folder and environment; its output is kept (up to outputByteLimit).
 */
class Terminal {
  /**
   * @param {import("@agentclientprotocol/sdk").CreateTerminalRequest} req
   * @param {string} id
   */
  constructor(req, id) {
    this.req = req;
    this.id = id;
    this.out = "";
    this.truncated = false;
    this.released = false;
    this.killed = false;
    /** @type {string[]} the terminal/* requests made on it (output, wait_for_exit, kill, release), in order */
    this.calls = [];
    /** @type {{exitCode: number | null, signal: string | null} | null} */
    this.status = null;
    const env = { ...process.env };
    for (const v of req.env ?? []) env[v.name] = v.value;
    // Its own process group, as a terminal's shell has: kill() stops the command and its children.
    this.child = spawn(req.command, req.args ?? [], { cwd: req.cwd ?? undefined, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    /** @param {Buffer} d */
    const take = (d) => {
      this.out += d.toString("utf8");
      const limit = req.outputByteLimit;
      if (limit != null && Buffer.byteLength(this.out) > limit) {
        this.out = Buffer.from(this.out).subarray(-limit).toString("utf8");
        this.truncated = true;
      }
    };
    this.child.stdout?.on("data", take);
    this.child.stderr?.on("data", take);
    /** @type {Promise<{exitCode: number | null, signal: string | null}>} */
    this.exit = new Promise((resolve) => {
      this.child.on("error", (e) => { take(Buffer.from(String(e))); this.status = { exitCode: 127, signal: null }; resolve(this.status); });
      this.child.on("close", (code, signal) => { this.status = { exitCode: code, signal }; resolve(this.status); });
    });
  }

  output() {
    return { output: this.out, truncated: this.truncated, ...(this.status ? { exitStatus: this.status } : {}) };
  }

  kill() {
    this.killed = true;
    this.stop();
  }

  release() {
    this.released = true;
    if (!this.status) this.stop();
  }

  /** Kills the command's process group. */
  stop() {
    try {
      if (this.child.pid) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * The environment of the agent: no model key, no user configuration, nothing written into the
 * user's state or cache folders (HOME and every XDG folder point into the throw-away folder).
 * @param {string} root
 */
export function cleanEnv(root) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(OPENAI_|AGENTLS_|XDG_(STATE|CACHE|DATA)_HOME$)/.test(k)) env[k] = v;
  }
  env.XDG_CONFIG_HOME = join(root, "xdg");
  env.HOME = root;
  return env;
}

/**
 * One line per update, for failure messages.
 * @param {SessionUpdate} u
 */
export function summarize(u) {
  switch (u.sessionUpdate) {
    case "agent_message_chunk":
    case "agent_thought_chunk":
    case "user_message_chunk":
      return `${u.sessionUpdate} ${u.content.type === "text" ? JSON.stringify(u.content.text) : u.content.type}`;
    case "tool_call":
    case "tool_call_update":
      return `${u.sessionUpdate} ${u.toolCallId} ${u.kind ?? ""} ${u.status ?? ""} ${JSON.stringify(u.title ?? "")} ${JSON.stringify(u.content ?? []).slice(0, 200)}`;
    case "current_mode_update":
      return `current_mode_update ${u.currentModeId}`;
    default:
      return JSON.stringify(u).slice(0, 200);
  }
}

/**
 * The text of every agent_message_chunk in updates (from index `from`).
 * @param {SessionNotification[]} updates
 * @param {number} [from]
 */
export function agentText(updates, from = 0) {
  return updates
    .slice(from)
    .map((n) => (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" ? n.update.content.text : ""))
    .join("");
}

/**
 * The latest state of each tool call (tool_call merged with its tool_call_updates), by id.
 * @param {SessionNotification[]} updates
 * @returns {Map<string, Record<string, any>>}
 */
export function toolCalls(updates) {
  /** @type {Map<string, Record<string, any>>} */
  const calls = new Map();
  for (const { update: u } of updates) {
    if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") continue;
    const prev = calls.get(u.toolCallId) ?? {};
    /** @type {Record<string, any>} */
    const next = { ...prev };
    for (const [k, v] of Object.entries(u)) if (v !== undefined && v !== null) next[k] = v;
    calls.set(u.toolCallId, next);
  }
  return calls;
}

/**
 * Starts an agent on a new workspace, initializes it and opens a session; the test's end closes
 * the agent and removes the workspace.
 * @param {import("node:test").TestContext} t
 * @param {{files?: Record<string, string>, script: string, config?: string, caps?: Caps, mcpServers?: (ws: ReturnType<typeof makeWorkspace>) => import("@agentclientprotocol/sdk").McpServer[]}} opts
 *   `mcpServers`: the MCP servers session/new passes, made for the workspace
 */
export async function startSession(t, opts) {
  const ws = makeWorkspace(opts);
  const agent = new Agent(ws, opts.caps);
  t.after(async () => {
    await agent.close();
    ws.remove();
  });
  const init = await agent.initialize();
  const session = await agent.newSession(opts.mcpServers?.(ws));
  return { ws, agent, init, session, sessionId: session.sessionId };
}

/**
 * Answers a session/request_permission with its option of the given kind (allow_once,
 * reject_once, …); fails, listing the options, when there is none.
 * @param {Pending<RequestPermissionRequest, RequestPermissionResponse>} ask
 * @param {string} kind
 */
export function choose(ask, kind) {
  const option = ask.params.options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option among ${JSON.stringify(ask.params.options)}`);
  ask.respond({ outcome: { outcome: "selected", optionId: option.optionId } });
}

/**
 * The one tool call whose id is `id` or, failing that, whose JSON mentions `needle`; fails with
 * every call seen otherwise.
 * @param {SessionNotification[]} updates
 * @param {string} what
 * @param {(call: Record<string, any>) => boolean} pred
 */
export function findCall(updates, what, pred) {
  const calls = [...toolCalls(updates).values()];
  const found = calls.filter(pred);
  if (found.length !== 1) {
    throw new Error(`expected one tool call ${what}, found ${found.length} among:\n${calls.map((c) => "  " + JSON.stringify(c).slice(0, 400)).join("\n")}`);
  }
  return found[0];
}

/**
 * The text of a tool call's `content` items of type content/text, joined.
 * @param {Record<string, any>} call
 */
export function callText(call) {
  return (call.content ?? [])
    .map((/** @type {any} */ c) => (c.type === "content" && c.content?.type === "text" ? c.content.text : ""))
    .join("\n");
}

/** A raw line-oriented peer of `agentls acp`. */
export class RawPeer {
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

/**
 * Whether m answers request id.
 * @param {any} m
 * @param {number | string} id
 */
export const answers = (m, id) => m.id === id && ("result" in m || "error" in m);
