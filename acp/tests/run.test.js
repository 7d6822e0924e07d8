// @ts-check
// Commands and cancellation over ACP: `run` asks with session/request_permission, session/cancel
// ends a turn promptly with `cancelled`.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { agentText, callText, choose, findCall, startSession, within } from "./harness.js";

test("run asks permission (allow once / allow always / reject): reject_once runs nothing, allow_once runs the command", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    script: `name: run
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "touch rejected.txt"}}
  - tool_calls:
      - {id: r2, name: run, args: {command: "touch allowed.txt"}}
  - text: "Ran it."
`,
  });
  await agent.setMode(sessionId, "build");
  const turn = agent.prompt(sessionId, "touch two files");

  const first = await agent.nextPermission("running `touch rejected.txt`");
  assert.equal(first.params.sessionId, sessionId);
  assert.match(JSON.stringify(first.params.toolCall), /touch rejected\.txt/, "the request names the command");
  const kinds = first.params.options.map((o) => o.kind);
  assert.deepEqual([...kinds].sort(), ["allow_always", "allow_once", "reject_once"], JSON.stringify(first.params.options));
  // Option ids equal their kinds (clients such as avante.nvim decide by the id).
  assert.deepEqual(first.params.options.map((o) => o.optionId), kinds, JSON.stringify(first.params.options));
  // The request names the folder, the network and the sandbox.
  const shown = JSON.stringify(first.params.toolCall.content ?? []);
  assert.ok(shown.includes(`Folder: ${ws.dir}`) && /Network: (yes|no|not isolated)/.test(shown) && /Sandbox: (on \(.+\)|off)/.test(shown), shown);
  assert.equal(existsSync(ws.path("rejected.txt")), false, "nothing ran before the answer");
  choose(first, "reject_once");

  const second = await agent.nextPermission("running `touch allowed.txt`");
  assert.match(JSON.stringify(second.params.toolCall), /touch allowed\.txt/);
  choose(second, "allow_once");

  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.equal(existsSync(ws.path("rejected.txt")), false, "the rejected command did not run");
  assert.equal(existsSync(ws.path("allowed.txt")), true, "the allowed command ran");
  const rejected = findCall(agent.updates, "for the rejected run", (c) => JSON.stringify(c).includes("touch rejected.txt"));
  assert.equal(rejected.kind, "execute");
  assert.equal(rejected.status, "failed", JSON.stringify(rejected));
  const allowed = findCall(agent.updates, "for the allowed run", (c) => JSON.stringify(c).includes("touch allowed.txt"));
  assert.equal(allowed.status, "completed", JSON.stringify(allowed));
  assert.match(agentText(agent.updates), /Ran it\./);
});

test("session/cancel while a permission is pending ends the turn with `cancelled`, runs nothing, and the session takes the next prompt", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    script: `name: cancel
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "touch cancelled.txt"}}
  - text: "Fresh start."
`,
  });
  await agent.setMode(sessionId, "build");
  const turn = agent.prompt(sessionId, "touch a file");
  const ask = await agent.nextPermission("running `touch cancelled.txt`");

  // What an ACP client does on cancel: notify session/cancel and answer its pending permission
  // requests with the `cancelled` outcome.
  const cancelled = agent.cancel(sessionId, turn);
  ask.respond({ outcome: { outcome: "cancelled" } });
  const res = await cancelled;
  assert.equal(res.stopReason, "cancelled", agent.describe());
  assert.equal(existsSync(ws.path("cancelled.txt")), false, "the cancelled command did not run");

  const from = agent.updates.length;
  const next = await within(agent.prompt(sessionId, "again"), "the next turn", undefined, () => agent.describe());
  assert.equal(next.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates, from), /Fresh start\./);
});

test("session/cancel alone (the permission request left unanswered) still ends the turn with `cancelled`", async (t) => {
  const { ws, agent, sessionId } = await startSession(t, {
    script: `name: cancel-unanswered
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "touch cancelled.txt"}}
  - text: "unused"
`,
  });
  await agent.setMode(sessionId, "build");
  const turn = agent.prompt(sessionId, "touch a file");
  await agent.nextPermission("running `touch cancelled.txt`");
  const res = await agent.cancel(sessionId, turn);
  assert.equal(res.stopReason, "cancelled", agent.describe());
  assert.equal(existsSync(ws.path("cancelled.txt")), false);
});

test("a turn that reaches max_turn_requests ends with that stop reason", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    config: "max_turn_requests: 2\n",
    script: `name: limit
steps:
  - tool_calls:
      - {name: ls, args: {path: "."}}
  - tool_calls:
      - {name: ls, args: {path: "."}}
  - tool_calls:
      - {name: ls, args: {path: "."}}
  - text: "unused"
`,
  });
  const res = await within(agent.prompt(sessionId, "look around"), "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "max_turn_requests", agent.describe());
});

for (const { choice, kind, kept } of [
  { choice: "Remove (restore)", kind: "reject_once", kept: false },
  { choice: "Keep", kind: "allow_once", kept: true },
]) {
  test(`a command that creates .envrc is asked about after it ran (the run sentinel): ${choice} ${kept ? "keeps" : "removes"} it`, async (t) => {
    const { ws, agent, sessionId } = await startSession(t, {
      script: `name: sentinel
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "printf 'export X=1\\\\n' > .envrc"}}
  - text: "Done."
`,
    });
    await agent.setMode(sessionId, "build");
    const turn = agent.prompt(sessionId, "write an envrc");
    choose(await agent.nextPermission("running the command"), "allow_once");

    // After the command: the same tool call, titled "Keep what `…` did (created .envrc)?".
    const after = await agent.nextPermission("keep what the command did");
    const title = String(after.params.toolCall.title ?? "");
    assert.match(title, /^Keep what `printf .+` did \(created `\.envrc`\)/, title);
    const shown = JSON.stringify(after.params.toolCall.content ?? []);
    assert.ok(shown.includes("`.envrc`: created") && shown.includes("outside agentls's sandbox"), shown);
    assert.deepEqual(
      after.params.options.map((o) => `${o.name}/${o.kind}`),
      ["Remove (restore)/reject_once", "Keep/allow_once"],
    );
    assert.equal(existsSync(ws.path(".envrc")), true, "the command ran before the question");
    choose(after, kind);

    const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
    assert.equal(res.stopReason, "end_turn", agent.describe());
    assert.equal(existsSync(ws.path(".envrc")), kept, `.envrc there after ${choice}`);
    const call = findCall(agent.updates, "for the run", (c) => JSON.stringify(c).includes("export X=1"));
    assert.match(callText(call), kept ? /kept/ : /undid/, callText(call));
  });
}
