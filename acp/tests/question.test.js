// @ts-check
// ask_user over ACP: a free-text question without elicitation ends the turn with the question as
// agent text (answered by the next prompt); a single choice question goes as
// session/request_permission with one option per choice; with form elicitation the batch goes as
// one elicitation/create form. Also usage_update's used/size.
import assert from "node:assert/strict";
import { test } from "node:test";
import { agentText, startSession, within } from "./harness.js";

test("question_pending: a free-text question ends the turn with end_turn and the question as agent text; the next prompt answers it", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    script: `name: free-text
steps:
  - tool_calls:
      - {id: q1, name: ask_user, args: {questions: [{name: release, question: "Which release name should the plan use?", schema: {type: string}}]}}
  - expect:
      last_message_contains: ['"release":"prod-eu"']
    text: "Planning for prod-eu."
`,
  });
  const res = await within(agent.prompt(sessionId, "plan the release"), "the end of the asking turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates), /Which release name should the plan use\?/, `the question is agent text: ${agent.describe()}`);
  assert.equal(agent.permissions.all.length, 0, "no permission request for a free-text question");

  const from = agent.updates.length;
  const next = await within(agent.prompt(sessionId, "prod-eu"), "the answering turn", undefined, () => agent.describe());
  assert.equal(next.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates, from), /Planning for prod-eu\./, agent.describe());
});

test("a single choice question goes as session/request_permission with one option per choice, and the choice is the answer", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    script: `name: choice
steps:
  - tool_calls:
      - {id: q1, name: ask_user, args: {questions: [{name: env, question: "Which environment?", schema: {type: string, enum: [dev, prod]}}]}}
  - expect:
      tool_result_contains: {q1: ['"env":"prod"']}
    text: "Deploying to prod."
`,
  });
  const turn = agent.prompt(sessionId, "deploy");
  const ask = await agent.nextPermission("the environment question");
  assert.match(JSON.stringify(ask.params.toolCall), /Which environment\?/, JSON.stringify(ask.params));
  const names = ask.params.options.map((o) => o.name);
  assert.ok(names.some((n) => /dev/.test(n)) && names.some((n) => /prod/.test(n)), `one option per choice: ${JSON.stringify(ask.params.options)}`);
  const prod = ask.params.options.find((o) => /prod/.test(o.name));
  ask.respond({ outcome: { outcome: "selected", optionId: prod?.optionId ?? "" } });
  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates), /Deploying to prod\./);
});

test("with form elicitation, the question batch goes as one elicitation/create form with the questions' schemas", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    caps: { elicitation: true },
    script: `name: form
steps:
  - tool_calls:
      - id: q1
        name: ask_user
        args:
          questions:
            - {name: env, question: "Which environment?", schema: {type: string, enum: [dev, prod]}}
            - {name: replicas, question: "How many replicas?", schema: {type: integer, minimum: 1, maximum: 5}}
  - expect:
      tool_result_contains: {q1: ['"env":"prod"', '"replicas":3']}
    text: "Three replicas in prod."
`,
  });
  const turn = agent.prompt(sessionId, "deploy");
  const ask = await agent.nextElicitation("the question form");
  const p = /** @type {any} */ (ask.params);
  assert.equal(p.mode, "form", JSON.stringify(p));
  assert.equal(p.sessionId, sessionId);
  assert.deepEqual(Object.keys(p.requestedSchema?.properties ?? {}).sort(), ["env", "replicas"], JSON.stringify(p.requestedSchema));
  ask.respond({ action: "accept", content: { env: "prod", replicas: 3 } });
  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates), /Three replicas in prod\./);
});

test("usage_update reports used and size (context tokens and window) after a model step", async (t) => {
  const { agent, sessionId } = await startSession(t, { script: "name: usage\nsteps:\n  - text: \"Counted.\"\n" });
  const res = await within(agent.prompt(sessionId, "count"), "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  const usage = await agent.waitUpdate("a usage_update", (u) => u.sessionUpdate === "usage_update");
  assert.ok(usage.sessionUpdate === "usage_update" && usage.used > 0 && usage.size >= usage.used, JSON.stringify(usage));
});
