// @ts-check
// The registry-grade surface as the official SDK's client sees it: authMethods and authenticate,
// sessionCapabilities.delete and session/delete, the title (session_info_update) from the first
// prompt, messageId on the agent's chunks.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { startSession } from "./harness.js";

test("authMethods, authenticate, a title from the first prompt, messageId, session/delete", async (t) => {
  const { ws, agent, init, sessionId } = await startSession(t, { script: 'steps:\n  - text: "Looking."\n' });
  assert.deepEqual(init.authMethods?.map((/** @type {any} */ m) => m.id), ["agentls-check"], JSON.stringify(init.authMethods));
  const caps = /** @type {any} */ (init.agentCapabilities?.sessionCapabilities);
  assert.ok(caps?.delete && caps?.close && caps?.additionalDirectories, JSON.stringify(caps));
  await agent.request(methods.agent.authenticate, { methodId: "agentls-check" });

  await agent.prompt(sessionId, "  Tidy the README\nthen more");
  const info = agent.updates.map((n) => /** @type {any} */ (n.update)).filter((u) => u.sessionUpdate === "session_info_update");
  assert.equal(info.length, 1, JSON.stringify(info));
  assert.equal(info[0].title, "Tidy the README");
  const chunks = agent.updates.map((n) => /** @type {any} */ (n.update)).filter((u) => u.sessionUpdate === "agent_message_chunk");
  assert.ok(chunks.length > 0 && chunks.every((c) => /^[0-9a-f-]{36}$/.test(c.messageId ?? "")), JSON.stringify(chunks));
  const listed = await agent.request(methods.agent.session.list, { cwd: ws.dir });
  assert.equal(listed.sessions.find((/** @type {any} */ s) => s.sessionId === sessionId)?.title, "Tidy the README");

  await agent.request(methods.agent.session.delete, { sessionId });
  assert.equal(existsSync(join(ws.dir, ".agentls", "chats", `${sessionId}.chat`)), false);
  const after = await agent.request(methods.agent.session.list, { cwd: ws.dir });
  assert.equal(after.sessions.some((/** @type {any} */ s) => s.sessionId === sessionId), false, JSON.stringify(after));
  // Deleting it again succeeds silently: it is gone (the spec's SHOULD; acp-tck ACP-DELETE-002).
  assert.deepEqual(await agent.request(methods.agent.session.delete, { sessionId }), {});
});
