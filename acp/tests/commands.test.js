// @ts-check
// Slash commands through the official SDK client, against the real binary: the agent's
// available_commands_update (with a user command from .agentls/commands and its input hint,
// without /new), and each built-in typed as the prompt's text (docs/commands.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { agentText, startSession, within } from "./harness.js";

const oneStep = "name: idle\nsteps:\n  - text: unused\n";
const review = "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS.\n/build\n";

test("available_commands_update lists the built-ins and .agentls/commands, with input hints and without /new", async (t) => {
  const { agent } = await startSession(t, { script: oneStep, files: { ".agentls/commands/review.md": review } });
  const u = await agent.waitUpdate("available_commands_update after session/new", (x) => x.sessionUpdate === "available_commands_update");
  assert.ok(u.sessionUpdate === "available_commands_update");
  const names = u.availableCommands.map((c) => c.name + (c.input && "hint" in c.input ? ` ${c.input.hint}` : ""));
  assert.deepEqual(names, ["plan", "build", "approve", "reject <reason>", "plans", "compact", "model <model id>", "init [what to stress]", "rewind [message id]", "review <file>"]);
  assert.equal(u.availableCommands.find((c) => c.name === "review")?.description, "Review a file (project)");
});

test("each built-in typed as the prompt: /build and /plan switch with current_mode_update; answers as agent text; mistakes are -32602", async (t) => {
  const { agent, sessionId } = await startSession(t, { script: oneStep });
  /** @param {string} text */
  const run = async (text) => {
    const from = agent.updates.length;
    const res = await within(agent.prompt(sessionId, text), `${text} to answer`, 10_000, () => agent.describe());
    assert.equal(res.stopReason, "end_turn", text);
    return agentText(agent.updates, from);
  };
  let from = agent.updates.length;
  assert.match(await run("/build"), /Mode: build\./);
  await agent.waitUpdate("current_mode_update to build", (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "build", { from });
  assert.match(await run("/init"), /./, "/init in build mode is a prompt"); // the script's one step answers it
  from = agent.updates.length;
  assert.match(await run("/plan"), /Mode: plan\./);
  await agent.waitUpdate("current_mode_update to plan", (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "plan", { from });
  assert.match(await run("/plans"), /No plans in plans yet\./);
  assert.match(await run("/compact"), /Nothing to compact yet/);
  assert.match(await run("/model"), /Model in plan mode:/);
  assert.match(await run("/init"), /needs build mode/);
  assert.match(await run("/rewind"), /Rewound the code|Nothing to rewind yet/);
  /** @type {[string, RegExp][]} */
  const mistakes = [["/approve", /no plan is awaiting approval/], ["/reject", /\/reject needs a reason/], ["/new", /\/new is not offered here/], ["/deploy", /unknown command \/deploy/]];
  for (const [text, want] of mistakes) {
    await assert.rejects(agent.prompt(sessionId, text), (/** @type {any} */ e) => e.code === -32602 && want.test(e.message), text);
  }
});
