// @ts-check
// Sub-agents (issue 23, docs/subagents.md) seen by the official ACP TypeScript SDK's client: a
// plan-mode session's `task` calls start three explorers in parallel; the sub-agents' tool calls
// arrive as tool calls of the parent session with `_meta["agentls/parentToolCallId"]` (and
// `agentls/childSessionId`); every mutating call of an explorer (the built-in writers, `run`, an
// MCP writer claiming readOnlyHint, a nested `task`, the plan tools, the mode switches) is
// refused and changes nothing; usage_update's `_meta` names each sub-agent's tokens and the total;
// session/cancel mid-tree ends every sub-agent; a build sub-agent's question is the parent's and
// its allow_always lands there; user kinds are never wider than their base. The hostile MCP
// server (mcpclient/testdata/hostile, built by acp/tests/run as $AGENTLS_HOSTILE_MCP) logs every
// call it receives.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Agent, callText, choose, makeWorkspace, startSession, toolCalls, within } from "./harness.js";

const PARENT = "agentls/parentToolCallId";
const CHILD = "agentls/childSessionId";

/**
 * The hostile MCP server as "evil" in the configuration, without the network (its echo and hang,
 * listed read-only, are then of reach process: explorers are given them in plan mode; its
 * write_note claims readOnlyHint but is not listed), logging its calls to a file of a throw-away
 * folder that the test removes.
 * @param {import("node:test").TestContext} t
 */
function hostileServer(t) {
  const bin = process.env.AGENTLS_HOSTILE_MCP;
  if (!bin) throw new Error("AGENTLS_HOSTILE_MCP is not set: run the tests with acp/tests/run (it builds the hostile MCP server)");
  const dir = mkdtempSync(join(tmpdir(), "agentls-acp-mcp-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, "calls.log");
  const config = `sandbox: {allow_write: [${JSON.stringify(dir)}]}
mcp:
  servers:
    evil: {command: ${JSON.stringify(bin)}, network: false, env: {HOSTILE_LOG: ${JSON.stringify(log)}}}
  read_only: ["evil/echo", "evil/hang"]
  call_timeout_secs: 120
`;
  return { config, calls: () => (existsSync(log) ? readFileSync(log, "utf8") : "") };
}

/** The mutating calls explore-1 tries, each to be refused by its grant: id → [tool, args]. */
const MUTATING = {
  w: ["write", { path: "a.txt", content: "x" }],
  wp: ["write", { path: "plans/y.plan", content: "x" }],
  e: ["edit", { path: "main.go", old_string: "main", new_string: "x" }],
  rn: ["rename", { path: "main.go", line: 3, column: 6, new_name: "x" }],
  mv: ["mv", { from: "main.go", to: "b.go" }],
  rm: ["rm", { path: "main.go" }],
  mk: ["mkdir", { path: "d" }],
  to: ["touch", { path: "t.txt" }],
  r: ["run", { command: "touch r.txt" }],
  mw: ["mcp__evil__write_note", { path: "m.txt", content: "pwned" }],
  n: ["task", { kind: "explore", prompt: "nested" }],
  pw: ["plan_write", { title: "T", content: "# Goal\n## Steps\n- [ ] a\n" }],
  pe: ["plan_edit", { path: "plans/x.plan", old_string: "a", new_string: "b" }],
  ex: ["exit_plan_mode", { plan_file_path: "plans/x.plan" }],
  en: ["enter_plan_mode", {}],
  au: ["ask_user", { question: "may I?" }],
};

const explorersScript = `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: "try to change things"}}
      - {id: t2, name: task, args: {kind: explore, prompt: "where is main?"}}
      - {id: t3, name: task, args: {kind: explore, prompt: "ask the server"}}
      - {id: t4, name: task, args: {kind: build, prompt: "build it now"}}
  - expect:
      tool_result_contains:
        t4: ['"success":false', "System is in Plan Mode", "only in build mode"]
        t1: ['"status":"completed"', "all refused"]
        t2: ['"status":"completed"', "main is in main.go"]
        t3: ['"status":"completed"', "the server says hello"]
    tool_calls:
      - {id: p1, name: plan_write, args: {path: plans/x.plan, title: X, content: "# Goal\\nmain is in main.go; the server says hello\\n## Steps\\n- [ ] do it\\n"}}
  - text: planned
children:
  explore-1:
    - tool_calls:
${Object.entries(MUTATING).map(([id, [name, args]]) => `        - {id: ${id}, name: ${name}, args: ${JSON.stringify(args)}}`).join("\n")}
    - expect:
        tool_result_contains:
${Object.keys(MUTATING).map((id) => `          ${id}: ['"success":false', "not given this tool"]`).join("\n")}
      text: all refused
  explore-2:
    - tool_calls:
        - {id: g, name: grep, args: {pattern: "func main"}}
    - expect:
        tool_result_contains: {g: ["main.go"]}
      text: main is in main.go
  explore-3:
    - tool_calls:
        - {id: ec, name: mcp__evil__echo, args: {path: x, content: "hello"}}
    - expect:
        tool_result_contains: {ec: ["hello"]}
      text: the server says hello
`;

const MAIN_GO = "package main\n\nfunc main() {}\n";

test("plan mode: three explorers in parallel; their calls carry _meta parent ids, every mutating call of one is refused, usage_update names each sub-agent's tokens and the total", async (t) => {
  const mcp = hostileServer(t);
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "main.go": MAIN_GO, "plans/.keep": "" },
    config: mcp.config,
    script: explorersScript,
  });
  const res = await within(agent.prompt(sessionId, "plan"), "the plan-mode turn", 90000, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());

  // The plan comes out of the three explorers' answers.
  assert.match(ws.read("plans/x.plan"), /main is in main\.go; the server says hello/);

  // Every sub-agent call is a tool call of the parent session whose _meta names its task call
  // and its sub-agent's session, on the tool_call and on each tool_call_update.
  /** @type {Map<string, string>} child call id → task call id */
  const parentOf = new Map();
  /** @type {Map<string, Set<string>>} task call id → child session ids */
  const sessionsOf = new Map();
  for (const { sessionId: sid, update: u } of agent.updates) {
    if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") continue;
    assert.equal(sid, sessionId, "every tool call is shown in the parent session");
    const meta = /** @type {Record<string, unknown> | null | undefined} */ (u._meta);
    const parent = meta?.[PARENT];
    if (["t1", "t2", "t3", "t4", "p1"].includes(u.toolCallId)) {
      assert.equal(parent, undefined, `the parent's own call ${u.toolCallId} has no parent id: ${JSON.stringify(u)}`);
      continue;
    }
    assert.ok(typeof parent === "string" && ["t1", "t2", "t3"].includes(parent), `${u.sessionUpdate} ${u.toolCallId}: _meta ${JSON.stringify(meta)}`);
    const child = meta?.[CHILD];
    assert.ok(typeof child === "string" && child !== sessionId, `${u.toolCallId}: agentls/childSessionId ${JSON.stringify(child)}`);
    assert.ok(u.toolCallId.startsWith(child.slice(-8) + "/"), `${u.toolCallId} is prefixed with its sub-agent's short id ${child.slice(-8)}`);
    const known = parentOf.get(u.toolCallId);
    assert.ok(known === undefined || known === parent, `${u.toolCallId}: parent ${known} then ${parent}`);
    parentOf.set(u.toolCallId, parent);
    sessionsOf.set(parent, (sessionsOf.get(parent) ?? new Set()).add(child));
  }
  /** @type {Record<string, number>} */
  const perTask = {};
  for (const p of parentOf.values()) perTask[p] = (perTask[p] ?? 0) + 1;
  assert.deepEqual(perTask, { t1: Object.keys(MUTATING).length, t2: 1, t3: 1 }, "child calls per task call");
  const sessions = [...sessionsOf.values()].map((s) => [...s]);
  assert.ok(sessions.every((s) => s.length === 1) && new Set(sessions.flat()).size === 3, `one sub-agent session per task call: ${JSON.stringify(sessions)}`);

  // Every mutating call of explore-1 failed with its grant's refusal; the others ran.
  const calls = toolCalls(agent.updates);
  for (const [id, p] of parentOf) {
    const call = /** @type {Record<string, any>} */ (calls.get(id));
    const local = id.slice(id.indexOf("/") + 1);
    if (p === "t1") {
      assert.equal(call.status, "failed", `${local} (${MUTATING[/** @type {keyof typeof MUTATING} */ (local)]?.[0]}): ${JSON.stringify(call)}`);
      assert.match(callText(call), /not given this tool/, `${local}: ${JSON.stringify(call)}`);
      assert.match(callText(call), /sub-agent explore-1 \([0-9a-f]{8}\)/, `${local}: the refusal names the sub-agent`);
    } else {
      assert.equal(call.status, "completed", JSON.stringify(call));
    }
  }
  for (const id of ["t1", "t2", "t3"]) {
    const task = /** @type {Record<string, any>} */ (calls.get(id));
    assert.equal(task.status, "completed", JSON.stringify(task));
    assert.match(JSON.stringify(task), /\\"status\\":\\"completed\\"/, `${id}'s result says completed`);
  }
  // A build sub-agent is refused in plan mode before it starts: no sub-agent, no call under t4.
  const t4 = /** @type {Record<string, any>} */ (calls.get("t4"));
  assert.equal(t4.status, "failed", JSON.stringify(t4));
  assert.match(callText(t4), /System is in Plan Mode/, JSON.stringify(t4));
  assert.match(t4.rawOutput?.refusal?.hint ?? "", /only in build mode/, JSON.stringify(t4));
  assert.equal(agent.permissions.all.length, 0, "refusals come before any question");
  assert.equal(agent.elicitations.all.length, 0, "an explorer asks nothing");

  // Nothing changed: no file, no MCP write.
  for (const f of ["a.txt", "plans/y.plan", "b.go", "d", "t.txt", "r.txt", "m.txt"]) {
    assert.ok(!existsSync(ws.path(f)), `${f} exists: an explorer changed the workspace`);
  }
  assert.equal(ws.read("main.go"), MAIN_GO);
  assert.doesNotMatch(mcp.calls(), /write_note/, "the MCP writer never reached its server");
  assert.match(mcp.calls(), /echo hello/, "the read-only MCP tool did");

  // usage_update: each sub-agent's tokens by its task call, and the total.
  const usage = await agent.waitUpdate("a usage_update naming the three sub-agents", (u) => {
    const meta = /** @type {any} */ (u)._meta;
    return u.sessionUpdate === "usage_update" && Array.isArray(meta?.["agentls/children"]) && meta["agentls/children"].length === 3;
  });
  const meta = /** @type {any} */ (usage)._meta;
  /** @type {{toolCallId: string, inputTokens: number, outputTokens: number}[]} */
  const children = meta["agentls/children"];
  assert.deepEqual(children.map((c) => c.toolCallId).sort(), ["t1", "t2", "t3"], JSON.stringify(meta));
  for (const c of children) assert.ok(c.inputTokens > 0 && c.outputTokens > 0, `tokens of ${c.toolCallId}: ${JSON.stringify(c)}`);
  const total = meta["agentls/total"];
  const sum = (/** @type {"inputTokens" | "outputTokens"} */ k) => children.reduce((n, c) => n + c[k], 0);
  assert.ok(total.inputTokens > sum("inputTokens") && total.outputTokens > sum("outputTokens"),
    `the total (${JSON.stringify(total)}) is the parent's own tokens plus its sub-agents' (${sum("inputTokens")} in, ${sum("outputTokens")} out)`);

  // session/list shows the parent only.
  const list = await agent.request("session/list", { cwd: ws.dir });
  assert.deepEqual(list.sessions.map((/** @type {any} */ s) => s.sessionId), [sessionId], JSON.stringify(list));
});

test("session/cancel mid-tree ends every sub-agent and the turn within 10 s", async (t) => {
  const mcp = hostileServer(t);
  const { agent, sessionId } = await startSession(t, {
    files: { "main.go": MAIN_GO },
    config: mcp.config,
    script: `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: a}}
      - {id: t2, name: task, args: {kind: explore, prompt: b}}
      - {id: t3, name: task, args: {kind: explore, prompt: c}}
  - text: never
children:
  explore-1: [{tool_calls: [{id: h, name: mcp__evil__hang}]}]
  explore-2: [{tool_calls: [{id: h, name: mcp__evil__hang}]}]
  explore-3: [{tool_calls: [{id: h, name: mcp__evil__hang}]}]
`,
  });
  const turn = agent.prompt(sessionId, "go");
  const childIds = () => [...toolCalls(agent.updates).entries()].filter(([, c]) => c._meta?.[PARENT]).map(([id]) => id);
  // The three explorers are in their hang calls at once.
  await agent.waitFor("the three explorers' hang calls running at once", () => {
    const calls = toolCalls(agent.updates);
    const running = childIds().filter((id) => calls.get(id)?.status === "in_progress");
    return running.length === 3 ? running : undefined;
  }, 60000);
  const start = Date.now();
  await agent.ctx.notify("session/cancel", { sessionId });
  const res = await within(turn, "session/prompt to end after session/cancel", 10000, () => agent.describe());
  const took = Date.now() - start;
  assert.equal(res.stopReason, "cancelled", agent.describe());
  assert.ok(took < 10000, `the tree ended ${took} ms after session/cancel`);
  t.diagnostic(`the tree ended ${took} ms after session/cancel`);
  const calls = toolCalls(agent.updates);
  const children = childIds();
  assert.equal(children.length, 3, agent.describe());
  for (const id of [...children, "t1", "t2", "t3"]) {
    const call = /** @type {Record<string, any>} */ (calls.get(id));
    assert.ok(call && call.status !== "in_progress" && call.status !== "pending", `${id} ended: ${JSON.stringify(call)}`);
  }
});

test("build: a build sub-agent's edit goes through the client, its command is asked in the parent's session (allow_always lands on the parent), it ticks the parent's plan; the parent switched to plan mode refuses its next edit", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "main.go": MAIN_GO },
    caps: { writeTextFile: true, readTextFile: true },
    script: `
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {path: plans/x.plan, title: X, content: "# Goal\\nTwo files.\\n\\n## Steps\\n- [ ] write a\\n- [ ] write b\\n"}}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/x.plan}}
  - expect:
      tool_result_contains: {x1: ['"approved":true']}
    tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "write a", steps: ["write a"]}}
  - expect:
      tool_result_contains: {t1: ['"status":"completed"', "ticked"]}
    tool_calls:
      - {id: r0, name: run, args: {command: "echo checked"}}
  - expect:
      tool_result_contains: {r0: ['"success":true', "checked"]}
    tool_calls:
      - {id: t2, name: task, args: {kind: build, prompt: "write b", steps: ["write b"]}}
  - expect:
      tool_result_contains: {t2: ['"status":"completed"', "b refused"]}
    text: done
children:
  build-1:
    - expect:
        system_contains: ["APPROVED EXECUTION PLAN", "- [ ] write a"]
      tool_calls:
        - {id: wa, name: write, args: {path: a.txt, content: "a\\n"}}
    - expect:
        tool_result_contains: {wa: ['"success":true']}
      tool_calls:
        - {id: r1, name: run, args: {command: "echo checked"}}
    - expect:
        tool_result_contains: {r1: ['"success":true', "checked"]}
      tool_calls:
        - {id: e, name: plan_edit, args: {path: plans/x.plan, old_string: "- [ ] write a", new_string: "- [x] write a"}}
    - expect:
        tool_result_contains: {e: ['"success":true']}
      text: ticked
  build-2:
    - tool_calls:
        - {id: ls, name: run, args: {command: "ls"}}
    - tool_calls:
        - {id: wb, name: write, args: {path: b.txt, content: "b\\n"}}
    - expect:
        tool_result_contains: {wb: ['"success":false', "System is in Plan Mode"]}
      text: b refused
`,
  });
  const turn = agent.prompt(sessionId, "build it");
  choose(await agent.nextPermission("the plan's approval", 60000), "allow_once");

  // The build sub-agent's command, asked in the parent's session: its call is one shown there
  // with the task call as its parent; the question names the sub-agent.
  const ask = await agent.nextPermission("build-1's `echo checked`", 60000);
  assert.equal(ask.params.sessionId, sessionId);
  const asked = toolCalls(agent.updates).get(ask.params.toolCall.toolCallId);
  assert.equal(asked?._meta?.[PARENT], "t1", `the question's call is build-1's, under t1: ${JSON.stringify(asked)}`);
  assert.match(JSON.stringify(ask.params.toolCall), /echo checked/);
  // The question names the sub-agent and carries its call's _meta, as the call does.
  assert.match(JSON.stringify(ask.params.toolCall.content), /Asked by sub-agent build-1 [0-9a-f]{8}\./, `the question names the sub-agent: ${JSON.stringify(ask.params)}`);
  assert.equal(ask.params.toolCall._meta?.[PARENT], "t1", `the question's _meta: ${JSON.stringify(ask.params.toolCall)}`);
  assert.equal(ask.params.toolCall._meta?.[CHILD], asked?._meta?.[CHILD]);
  choose(ask, "allow_always");

  // build-2's `ls` is asked; meanwhile the person switches the parent to plan mode, then rejects.
  const ls = await agent.nextPermission("build-2's `ls`", 60000);
  assert.match(JSON.stringify(ls.params.toolCall), /"ls"|\bls\b/);
  await agent.setMode(sessionId, "plan");
  choose(ls, "reject_once");

  const res = await within(turn, "the build turn", 60000, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  // Two questions after the approval: the parent's own `echo checked` ran on build-1's
  // allow_always, stored on the parent.
  assert.equal(agent.permissions.all.length, 3, `the approval, build-1's echo, build-2's ls: ${agent.describe()}`);
  const r0 = /** @type {Record<string, any>} */ (toolCalls(agent.updates).get("r0"));
  assert.equal(r0.status, "completed", JSON.stringify(r0));
  // build-1's edit went through the client (fs/write_text_file, the same editor path) and it
  // ticked the parent's plan; build-2's edit after the switch was refused.
  const wa = agent.writes.find((w) => w.path === ws.path("a.txt"));
  assert.ok(wa && wa.sessionId === sessionId && wa.content === "a\n", `fs/write_text_file of a.txt in the parent's session: ${JSON.stringify(agent.writes)}`);
  assert.match(ws.read("plans/x.plan"), /- \[x\] write a/, "build-1 ticked the parent's plan");
  assert.ok(!existsSync(ws.path("b.txt")), "b.txt exists: build-2 edited after its parent went to plan mode");
  const wb = [...toolCalls(agent.updates).values()].find((c) => c._meta?.[PARENT] === "t2" && c.rawInput?.path === "b.txt");
  assert.ok(wb && wb.status === "failed" && /System is in Plan Mode/.test(callText(wb)), `build-2's write refused: ${JSON.stringify(wb)}`);
});

test("user kinds: the user's $XDG_CONFIG_HOME/agentls/agents kind is never wider than its base nor its tool list; an untrusted workspace's kind is unknown", async (t) => {
  const ws = makeWorkspace({
    files: {
      "main.go": MAIN_GO,
      // The workspace's own kind, a build one: repository content, unused until trusted.
      ".agentls/agents/local.md": "---\nbase: build\n---\nDo anything.\n",
    },
    script: `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: local, prompt: "x"}}
      - {id: t2, name: task, args: {kind: reviewer, prompt: "review main.go"}}
  - expect:
      tool_result_contains:
        t1: ['"success":false', "unknown sub-agent kind"]
        t2: ['"status":"completed"', "reviewed"]
    text: done
children:
  reviewer-1:
    - expect:
        system_contains: ["Review like a hawk."]
      tool_calls:
        - {id: r, name: read, args: {path: main.go}}
        - {id: w, name: write, args: {path: main.go, content: x}}
        - {id: g, name: grep, args: {pattern: main}}
    - expect:
        tool_result_contains:
          r: ["func main"]
          w: ["not given this tool"]
          g: ["not given this tool"]
      text: reviewed
`,
  });
  // The user's kind lists write, which its base (explore) lacks, and leaves grep out.
  mkdirSync(join(ws.root, "xdg", "agentls", "agents"), { recursive: true });
  writeFileSync(join(ws.root, "xdg", "agentls", "agents", "reviewer.md"), "---\ndescription: reviews\nbase: explore\ntools: [read, write]\n---\nReview like a hawk.\n");
  const agent = new Agent(ws);
  t.after(async () => {
    await agent.close();
    ws.remove();
  });
  await agent.initialize();
  const { sessionId } = await agent.newSession();
  const res = await within(agent.prompt(sessionId, "review"), "the turn", 60000, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  const calls = toolCalls(agent.updates);
  const t1 = /** @type {Record<string, any>} */ (calls.get("t1"));
  assert.equal(t1.status, "failed", JSON.stringify(t1));
  const under = [...calls.values()].filter((c) => c._meta?.[PARENT] === "t2");
  const byTool = Object.fromEntries(under.map((c) => [c.rawInput?.pattern ? "grep" : c.rawInput?.content !== undefined ? "write" : "read", c]));
  assert.equal(under.length, 3, agent.describe());
  assert.equal(byTool.read?.status, "completed", JSON.stringify(byTool.read));
  for (const k of ["write", "grep"]) {
    assert.equal(byTool[k]?.status, "failed", JSON.stringify(byTool[k]));
    assert.match(callText(byTool[k]), /sub-agent reviewer-1 \([0-9a-f]{8}\) is not given this tool/, JSON.stringify(byTool[k]));
  }
  assert.equal(ws.read("main.go"), MAIN_GO);
  assert.ok(![...calls.values()].some((c) => c._meta?.[PARENT] === "t1"), "no sub-agent ran under the unknown kind");
});
