// @ts-check
// PLAN → approval → BUILD over ACP, through the official SDK client against the real binary.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { agentText, callText, choose, findCall, startSession, within } from "./harness.js";

const plan = "# Goal\nUppercase alpha.\n\n## Steps\n- [ ] Replace alpha with ALPHA in app.txt\n";
const planWrite = `{id: p1, name: plan_write, args: {title: Shout, path: plans/shout.plan, content: ${JSON.stringify(plan)}}}`;

test("plan mode: writes to source files and commands are refused (failed tool calls with the refusal, files unchanged, nothing sent to fs/write_text_file, no permission asked) while the .plan is written", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "app.txt": "alpha\n" },
    caps: { writeTextFile: true, readTextFile: true },
    script: `name: refusal
steps:
  - text: "Trying a direct edit."
    tool_calls:
      - {id: e1, name: edit, args: {path: app.txt, old_string: alpha, new_string: ALPHA}}
      - {id: w1, name: write, args: {path: new.go, content: "package x\\n"}}
      - {id: r1, name: run, args: {command: "touch pwned"}}
      - ${planWrite}
  - expect:
      tool_result_contains:
        e1: ["System is in Plan Mode"]
        w1: ["System is in Plan Mode"]
        r1: ["System is in Plan Mode"]
    text: "The plan is written."
`,
  });

  const res = await within(agent.prompt(sessionId, "uppercase alpha"), "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());

  for (const [name, file] of [["the edit", "app.txt"], ["the write", "new.go"]]) {
    const call = findCall(agent.updates, `for ${name} of ${file}`, (c) => c.rawInput?.path === file);
    assert.equal(call.status, "failed", `${name} of ${file} is a failed tool call: ${JSON.stringify(call)}`);
    assert.equal(call.kind, "edit", `${name} of ${file} has kind edit`);
    assert.match(callText(call), /System is in Plan Mode/, `${name} of ${file} carries the refusal sentence: ${JSON.stringify(call)}`);
  }
  const run = findCall(agent.updates, "for the run", (c) => c.rawInput?.command === "touch pwned");
  assert.equal(run.status, "failed", JSON.stringify(run));
  assert.equal(run.kind, "execute");
  assert.equal(agent.permissions.all.length, 0, "plan mode refuses a command without asking");
  assert.equal(existsSync(ws.path("pwned")), false, "the command did not run");
  assert.equal(ws.read("app.txt"), "alpha\n", "app.txt unchanged");
  assert.equal(existsSync(ws.path("new.go")), false, "new.go not created");
  const sent = agent.writes.map((w) => w.path);
  assert.ok(!sent.some((p) => p.endsWith("app.txt") || p.endsWith("new.go")), `no fs/write_text_file for source files: ${sent}`);

  assert.equal(ws.read("plans/shout.plan").includes("Replace alpha with ALPHA in app.txt"), true, "the .plan holds the plan");
  const planCall = findCall(agent.updates, "writing the plan", (c) => c.rawInput?.path === "plans/shout.plan");
  assert.equal(planCall.status, "completed", JSON.stringify(planCall));
  assert.match(agentText(agent.updates), /The plan is written\./);
});

test("approval: request_permission carries the plan text with Accept & Build / Keep Planning; allow_once flips the mode (current_mode_update), plan entries follow the plan's checkboxes, and the builder's edit arrives as fs/write_text_file and as diff content", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "app.txt": "alpha\n" },
    caps: { writeTextFile: true, readTextFile: true },
    script: `name: approve
steps:
  - tool_calls:
      - ${planWrite}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan}}
  - expect:
      tool_result_contains: {x1: ['"approved":true']}
      system_contains: ["You are in BUILD mode", "Replace alpha with ALPHA in app.txt"]
    tool_calls:
      - {id: e2, name: edit, args: {path: app.txt, old_string: alpha, new_string: ALPHA}}
  - expect:
      tool_result_contains: {e2: ['"success":true']}
    text: "Built."
`,
  });

  const turn = agent.prompt(sessionId, "uppercase alpha");
  const ask = await agent.nextPermission("the plan approval");
  assert.equal(ask.params.sessionId, sessionId);
  const tc = ask.params.toolCall;
  assert.equal(tc.kind, "switch_mode", `the approval's tool call has kind switch_mode: ${JSON.stringify(tc)}`);
  const shown = JSON.stringify(tc.content ?? []);
  assert.ok(shown.includes("Uppercase alpha.") && shown.includes("Replace alpha with ALPHA in app.txt"), `the approval carries the plan's text: ${shown}`);
  const options = ask.params.options.map((o) => `${o.kind}: ${o.name}`).sort();
  assert.deepEqual(options, ["allow_once: Accept & Build", "reject_once: Keep Planning"]);
  assert.ok(ask.params.options.every((o) => o.optionId === o.kind), `option ids equal their kinds: ${JSON.stringify(ask.params.options)}`);
  // Nothing has flipped or changed before the human answers.
  assert.ok(!agent.updates.some((n) => n.update.sessionUpdate === "current_mode_update"), "no mode change before the answer");
  assert.equal(ws.read("app.txt"), "alpha\n");

  const from = agent.updates.length;
  choose(ask, "allow_once");
  await agent.waitUpdate("current_mode_update to build", (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "build", { from });

  // The attached plan's checkboxes as ACP plan entries.
  await agent.waitUpdate("a plan update with the plan's step", (u) => u.sessionUpdate === "plan" && u.entries.some((e) => e.content.includes("Replace alpha with ALPHA in app.txt")), { from });

  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());

  const write = agent.writes.find((w) => w.path === ws.path("app.txt"));
  assert.ok(write, `fs/write_text_file for ${ws.path("app.txt")}; got ${JSON.stringify(agent.writes)}`);
  assert.equal(write.sessionId, sessionId);
  assert.equal(write.content, "ALPHA\n");
  assert.equal(ws.read("app.txt"), "ALPHA\n", "the client saved the edit");

  const edit = findCall(agent.updates.slice(from), "for the builder's edit of app.txt", (c) => c.rawInput?.path === "app.txt");
  const diff = edit.content.find((/** @type {any} */ x) => x.type === "diff");
  assert.deepEqual({ path: diff.path, oldText: diff.oldText, newText: diff.newText }, { path: ws.path("app.txt"), oldText: "alpha\n", newText: "ALPHA\n" });
  assert.equal(edit.kind, "edit");
  assert.equal(edit.status, "completed", JSON.stringify(edit));
  assert.match(agentText(agent.updates), /Built\./);
});

test("Keep Planning (reject_once) keeps plan mode, changes nothing, and tells the model to keep planning", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "app.txt": "alpha\n" },
    caps: { writeTextFile: true },
    script: `name: reject
steps:
  - tool_calls:
      - ${planWrite}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan}}
  - expect:
      tool_result_contains: {x1: ["Plan rejected by the user.", "present a revised plan"]}
      system_contains: ["You are in PLAN mode"]
    text: "Still planning."
`,
  });
  const turn = agent.prompt(sessionId, "uppercase alpha");
  const ask = await agent.nextPermission("the plan approval");
  choose(ask, "reject_once");
  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.ok(!agent.updates.some((n) => n.update.sessionUpdate === "current_mode_update" && n.update.currentModeId === "build"), "no switch to build");
  assert.equal(ws.read("app.txt"), "alpha\n");
  assert.deepEqual(agent.writes.filter((w) => !w.path.endsWith(".plan")), []);
  assert.match(agentText(agent.updates), /Still planning\./);
});

test("a `cancelled` outcome for the plan approval cancels the turn (stopReason cancelled) and the session stays in plan mode", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    files: { "app.txt": "alpha\n" },
    script: `name: approval-cancelled
steps:
  - tool_calls:
      - ${planWrite}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan}}
  - text: "unused"
`,
  });
  const turn = agent.prompt(sessionId, "uppercase alpha");
  const ask = await agent.nextPermission("the plan approval");
  ask.respond({ outcome: { outcome: "cancelled" } });
  const res = await within(turn, "the end of the turn after the cancelled outcome", undefined, () => agent.describe());
  assert.equal(res.stopReason, "cancelled", agent.describe());
  assert.ok(!agent.updates.some((n) => n.update.sessionUpdate === "current_mode_update"), "no mode change");
  assert.equal(ws.read("app.txt"), "alpha\n");
});

test("an approval that grants commands lists them in request_permission beside the plan", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    files: { "app.txt": "alpha\n" },
    script: `name: grants
steps:
  - tool_calls:
      - ${planWrite}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan, allowed_commands: ["go test ./...", "git diff *"]}}
  - text: "Still planning."
`,
  });
  const turn = agent.prompt(sessionId, "uppercase alpha");
  const ask = await agent.nextPermission("the plan approval");
  const shown = (ask.params.toolCall.content ?? []).map((/** @type {any} */ c) => c.content?.text ?? "").join("\n");
  assert.ok(shown.includes("Approving also allows these commands for this session:\n- `go test ./...`\n- `git diff *`"), `the grants are shown: ${shown}`);
  assert.ok(shown.includes("Replace alpha with ALPHA"), `the plan is shown too: ${shown}`);
  choose(ask, "reject_once");
  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
});
