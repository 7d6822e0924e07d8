// @ts-check
// ask_user over ACP: a free-text or choice question without elicitation ends the turn with the
// question as agent text (answered by the next prompt); a single yes/no question goes as
// session/request_permission with a Yes (allow_once) and a No (reject_once) option; with form
// elicitation the batch goes as one elicitation/create form. Also usage_update's used/size.
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

test("a yes/no question goes as session/request_permission with one option of each kind, and the pick is the answer", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    script: `name: yes-no
steps:
  - tool_calls:
      - {id: q1, name: ask_user, args: {questions: [{name: keep, question: "Keep the old API?", schema: {type: boolean}}]}}
  - expect:
      tool_result_contains: {q1: ['"keep":false']}
    text: "Removing it."
`,
  });
  const turn = agent.prompt(sessionId, "clean up");
  const ask = await agent.nextPermission("the yes/no question");
  assert.match(JSON.stringify(ask.params.toolCall), /Keep the old API\?/, JSON.stringify(ask.params));
  assert.deepEqual(
    ask.params.options.map((o) => [o.name, o.kind]),
    [["Yes", "allow_once"], ["No", "reject_once"]],
    `one option of each kind: clients that answer by kind (CodeCompanion, avante) can tell them apart: ${JSON.stringify(ask.params.options)}`,
  );
  const no = ask.params.options.find((o) => o.kind === "reject_once");
  ask.respond({ outcome: { outcome: "selected", optionId: no?.optionId ?? "" } });
  const res = await within(turn, "the end of the turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates), /Removing it\./);
});

test("a choice of values goes as text, not as options of one kind; the next prompt answers it", async (t) => {
  const { agent, sessionId } = await startSession(t, {
    script: `name: choice
steps:
  - tool_calls:
      - {id: q1, name: ask_user, args: {questions: [{name: env, question: "Which environment?", schema: {type: string, enum: [dev, prod]}}]}}
  - expect:
      last_message_contains: ["prod"]
    text: "Deploying to prod."
`,
  });
  const res = await within(agent.prompt(sessionId, "deploy"), "the end of the asking turn", undefined, () => agent.describe());
  assert.equal(res.stopReason, "end_turn", agent.describe());
  assert.equal(agent.permissions.all.length, 0, "no permission request for a choice of values");
  assert.match(agentText(agent.updates), /Which environment\?/, agent.describe());
  assert.match(agentText(agent.updates), /dev/, `the choices are in the text: ${agent.describe()}`);
  const from = agent.updates.length;
  const next = await within(agent.prompt(sessionId, "prod"), "the answering turn", undefined, () => agent.describe());
  assert.equal(next.stopReason, "end_turn", agent.describe());
  assert.match(agentText(agent.updates, from), /Deploying to prod\./, agent.describe());
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
