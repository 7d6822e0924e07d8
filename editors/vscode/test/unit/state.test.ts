// The session/mode/question state model: what agent/update, agent/modeChanged
// and agent/askUser do to it, and what the status bar shows.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { AskUserParams, Session } from '../../src/protocol';
import { ChatModel, findTool, mcpLine, openReviewComments, otherMode, presentMode, requestChangesLabel, type ToolItem } from '../../src/state';
import { compactTokens, subagentOf, taskSummary } from '../../src/subagents';
import { usageText } from '../../webview/usage';

const session = (id: string, mode: 'plan' | 'build' = 'plan', updatedAt = '2026-11-23T10:00:00Z'): Session => ({
  sessionId: id, title: `chat ${id}`, mode, planFile: null, createdAt: updatedAt, updatedAt,
});

const approval = (sessionId: string): AskUserParams => ({
  sessionId,
  questionId: 'q-approve',
  createdAt: '2026-11-23T10:01:00Z',
  purpose: 'plan_approval',
  questions: [
    { name: 'approve', question: 'Review the plan', schema: { type: 'boolean' }, buttons: [{ label: 'Accept & Build', value: true, variant: 'primary' }, { label: 'Keep Planning', value: false }] },
    { name: 'feedback', question: 'What should change?', schema: { type: 'string' } },
  ],
});

describe('presentMode', () => {
  test('PLAN is the map icon in the plan colour, BUILD the tools icon in the build colour', () => {
    const p = presentMode('plan', null);
    assert.equal(p.text, '$(map) PLAN');
    assert.equal(p.color, 'agentls.planForeground');
    assert.match(p.tooltip, /No plan attached/);
    const b = presentMode('build', 'plans/x.plan');
    assert.equal(b.text, '$(tools) BUILD');
    assert.equal(b.color, 'agentls.buildForeground');
    assert.match(b.tooltip, /Plan: plans\/x\.plan/);
    assert.doesNotMatch(b.tooltip, /Sandbox/);
    assert.equal(otherMode('plan'), 'build');
    assert.equal(otherMode('build'), 'plan');
  });
});

describe('presentMode with MCP servers', () => {
  test("the tooltip names each MCP server's state, a failed one with why and its stderr tail", () => {
    const p = presentMode('plan', null, undefined, undefined, [
      { name: 'fs', state: 'running', origin: 'config', command: 'npx fs', tools: 2, toolNames: ['read_file', 'list_dir'], definitionBytes: 900 },
      { name: 'evil', state: 'failed', origin: '.mcp.json', command: 'node evil.js', reason: 'exited 3', stderrTail: 'boom\nat line 2', tools: 0, definitionBytes: 0 },
      { name: 'later', state: 'idle', origin: 'config', command: 'npx later', tools: 0, definitionBytes: 0 },
    ]);
    assert.match(p.tooltip, /\n\nMCP servers:\nfs running \(2 tools: read_file, list_dir\)\n⚠ evil failed: exited 3 \(stderr: boom at line 2\)\nlater idle\n/);
    assert.doesNotMatch(presentMode('plan', null).tooltip, /MCP servers/);
  });

  test("a running server's tools are listed by name, the first eight then +N more", () => {
    const toolNames = Array.from({ length: 11 }, (_, i) => `t${i + 1}`);
    const line = mcpLine([{ name: 'big', state: 'running', origin: 'config', command: 'big', tools: 11, toolNames, definitionBytes: 1 }]);
    assert.equal(line, '\n\nMCP servers:\nbig running (11 tools: t1, t2, t3, t4, t5, t6, t7, t8, +3 more)');
    const one = mcpLine([{ name: 'one', state: 'running', origin: 'config', command: 'one', tools: 1, toolNames: ['only'], definitionBytes: 1 }]);
    assert.equal(one, '\n\nMCP servers:\none running (1 tool: only)');
    // An older server (no toolNames) still shows the count.
    const old = mcpLine([{ name: 'old', state: 'running', origin: 'config', command: 'old', tools: 3, definitionBytes: 1 }]);
    assert.equal(old, '\n\nMCP servers:\nold running (3 tools)');
  });

  test("a server's names cannot break or reorder the tooltip: control and bidi characters are escaped", () => {
    const line = mcpLine([{ name: 'x\ny', state: 'running', origin: 'config', command: 'x', tools: 1, toolNames: ['a\u202Eb'], definitionBytes: 1 }]);
    assert.equal(line, '\n\nMCP servers:\nx\\u000Ay running (1 tool: a\\u202Eb)');
  });
});

describe('MCP server failures in the chat', () => {
  test('each failure is told once in the chat, again after the server recovered and failed anew', () => {
    const m = new ChatModel();
    m.upsertSession({ sessionId: 's1', title: 't', mode: 'plan', planFile: null, createdAt: 'x', updatedAt: 'x' });
    const failed = { name: 'evil', state: 'failed', origin: '.mcp.json', command: 'node evil.js', reason: 'exited 3', stderrTail: 'boom', tools: 0, definitionBytes: 0 };
    const running = { ...failed, state: 'running', reason: undefined, stderrTail: undefined, tools: 2 };
    const notices = () => m.get('s1')!.items.filter((i) => i.kind === 'notice').map((i) => (i as { text: string }).text);
    m.mcpStatus('s1', [failed]);
    m.mcpStatus('s1', [failed]);
    assert.deepEqual(notices(), ['MCP server evil failed: exited 3 (stderr: boom)']);
    m.mcpStatus('s1', [running]);
    m.mcpStatus('s1', [failed]);
    assert.equal(notices().length, 2);
  });
});

describe('presentMode with the sandbox', () => {
  test('the tooltip says what confines commands, with a warning when nothing does', () => {
    const on = presentMode('build', null, {
      mode: 'landlock+bwrap', landlock: 'ABI 7', bwrap: 'ok', network: true,
      summary: 'landlock+bwrap: writes only in the workspace, secrets unreadable, network off unless run.network allows it',
    });
    assert.match(on.tooltip, /\n\nSandbox: landlock\+bwrap: writes only in the workspace[^\n]*\(landlock: ABI 7; bwrap: ok\)/);
    assert.doesNotMatch(on.tooltip, /⚠/);
    const off = presentMode('plan', null, {
      mode: 'none', landlock: 'unavailable: Linux only', bwrap: 'not installed (install bubblewrap)', network: false,
      summary: 'no sandbox (mode auto; ...): every command is asked',
    });
    assert.match(off.tooltip, /⚠ Sandbox: no sandbox [^\n]*every command is asked \(landlock: unavailable: Linux only; bwrap: not installed \(install bubblewrap\)\)/);
  });
});

describe('presentMode with the language intelligence', () => {
  test('the tooltip says which source serves each file type', () => {
    const p = presentMode('plan', null, undefined, [
      { fileType: 'go', source: 'editor', detail: 'agent/diagnostics and agent/navigate, answered by the editor' },
      { fileType: 'rust', source: 'none', detail: 'rust-analyzer not found on PATH' },
    ]);
    assert.match(p.tooltip, /\n\nLanguage intelligence: go: VS Code; rust: none \(rust-analyzer not found on PATH\)/);
    assert.doesNotMatch(presentMode('plan', null).tooltip, /Language intelligence/);
  });
});

describe('ChatModel', () => {
  let m: ChatModel;
  test('a question keeps its permission request: what it grants reaches the question bar', () => {
    const cm = new ChatModel();
    cm.upsertSession(session('s1'));
    const permission = { kind: 'plan' as const, what: 'plans/x.plan', grants: ['sh *'], options: [] };
    cm.ask({ ...approval('s1'), permission });
    assert.deepEqual(cm.get('s1')?.question?.permission, permission);
  });
  beforeEach(() => {
    m = new ChatModel();
    m.upsertSession(session('s1'));
    m.setCurrent('s1');
  });

  test('the indicator shows the default mode until a session is in view', () => {
    const empty = new ChatModel();
    empty.defaultMode = 'build';
    assert.deepEqual(empty.indicator(), { mode: 'build', planFile: null });
    assert.deepEqual(m.indicator(), { mode: 'plan', planFile: null });
  });

  test('message chunks stream into one item; a tool call starts a new one', () => {
    m.addPrompt('s1', 'hello');
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' } });
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lo' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'read app.txt', kind: 'read', status: 'pending', rawInput: { path: 'app.txt' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'read app.txt', kind: 'read', status: 'in_progress' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'alpha' } }] });
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done.' } });
    const items = m.current!.items;
    assert.deepEqual(items.map((i) => i.kind), ['user', 'assistant', 'tool', 'assistant']);
    assert.equal(items[1].kind === 'assistant' && items[1].text, 'Hello');
    assert.equal(items[1].rev, 2, 'each chunk bumps the revision the webview re-renders by');
    const tool = items[2];
    assert.ok(tool.kind === 'tool');
    assert.equal(tool.status, 'completed');
    assert.equal(tool.output, 'alpha');
    assert.equal(tool.input, '{\n  "path": "app.txt"\n}');
    assert.equal(tool.refused, false);
    assert.equal(m.current!.busy, true);
  });

  test('a refused tool call is marked refused with its hint', () => {
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'edit app.txt', kind: 'edit', status: 'pending' });
    m.applyUpdate('s1', {
      sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'failed',
      rawOutput: { success: false, error: 'System is in Plan Mode.' }, refusal: { tool_name: 'edit', tool_kind: 'file_edit', hint: 'Write the plan instead.', entered_at: '', entered_reason: '' },
    });
    const t = m.current!.items[0];
    assert.ok(t.kind === 'tool' && t.refused && t.status === 'failed' && t.refusalHint === 'Write the plan instead.');
    assert.match(t.output ?? '', /System is in Plan Mode/);
  });

  test("a running call's progress: the newest line replaces the last, the end takes it away, a late line is dropped", () => {
    const line = (id: string, text: string) => m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text } }] });
    const row = (id = 'r1') => findTool(m.current!.items, id)!.item;
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'run go test ./...', kind: 'execute', status: 'pending', rawInput: { command: 'go test ./...' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'run go test ./...', kind: 'execute', status: 'in_progress' });
    const rev = row().rev;
    line('r1', 'compiling');
    assert.equal(row().progress, 'compiling');
    assert.equal(row().rev, rev + 1, 'a new line re-renders the row');
    assert.equal(row().status, 'in_progress');
    assert.equal(row().output, undefined, "a line is not the call's result");
    line('r1', '<img src=x onerror=alert(1)> **bold**');
    assert.equal(row().progress, '<img src=x onerror=alert(1)> **bold**', 'kept as the text it is');
    line('r1', '<img src=x onerror=alert(1)> **bold**');
    assert.equal(row().rev, rev + 2, 'the same line again draws nothing');
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'r1', status: 'completed', rawOutput: { success: true, result: { exit_code: 0, output: 'ok' } } });
    assert.equal(row().progress, undefined);
    assert.equal(row().status, 'completed');
    line('r1', 'late');
    assert.equal(row().progress, undefined, 'a line after the end is dropped');
    assert.equal(row().status, 'completed');
    line('nope', 'for no row');
    assert.equal(m.current!.items.length, 1, 'a line for an unknown call makes no row');
    // A turn lost with the connection ends its running calls, and their lines.
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'r2', title: 'run make', kind: 'execute', status: 'in_progress' });
    line('r2', 'building');
    m.endTurn('s1', { error: 'connection got disposed', lost: true });
    assert.equal(row('r2').status, 'failed');
    assert.equal(row('r2').progress, undefined);
  });

  test('updates for unknown sessions are ignored', () => {
    assert.equal(m.applyUpdate('nope', { sessionUpdate: 'current_mode_update', currentModeId: 'build' }), false);
  });

  test('plan updates, mode changes and usage', () => {
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: [{ content: 'Step one', priority: 'medium', status: 'pending' }] });
    assert.equal(m.current!.session.planFile, 'plans/x.plan');
    m.applyModeChanged({ sessionId: 's1', mode: 'build', planFile: 'plans/x.plan', source: 'tool' });
    assert.deepEqual(m.indicator(), { mode: 'build', planFile: 'plans/x.plan' });
    m.applyUpdate('s1', { sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
    assert.equal(m.indicator().mode, 'plan');
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 100, outputTokens: 10 });
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 50, outputTokens: 5, contextTokens: 150, contextWindow: 1000 });
    assert.deepEqual(m.current!.usage, { inputTokens: 150, outputTokens: 15, contextTokens: 150, contextWindow: 1000 });
  });

  test('askUser shows a question; answering clears it', () => {
    m.ask({ ...approval('s1'), purpose: 'question', questionId: 'q1' });
    assert.equal(m.current!.question?.via, 'request');
    m.clearQuestion('s1', 'other');
    assert.ok(m.current!.question, 'another id leaves it');
    m.clearQuestion('s1', 'q1');
    assert.equal(m.current!.question, null);
  });

  test('a dismissed plan approval stays visibly pending until resolved', () => {
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/x.plan', entries: [] });
    m.ask(approval('s1'));
    m.dismiss('s1', 'q-approve');
    assert.equal(m.current!.question, null);
    assert.deepEqual(m.current!.awaitingApproval, { planFile: 'plans/x.plan', grants: [] });
    m.approvalResolved('s1');
    assert.equal(m.current!.awaitingApproval, null);
  });

  test('a dismissed ordinary question leaves nothing pending', () => {
    m.ask({ ...approval('s1'), purpose: 'question' });
    m.dismiss('s1', 'q-approve');
    assert.equal(m.current!.awaitingApproval, null);
  });

  test('entering build mode ends a pending approval', () => {
    m.ask(approval('s1'));
    m.dismiss('s1', 'q-approve');
    m.applyModeChanged({ sessionId: 's1', mode: 'build', planFile: 'plans/x.plan', source: 'user' });
    assert.equal(m.current!.awaitingApproval, null);
  });

  test('question_pending (no askUser request) is answered with agent/answer', () => {
    m.applyUpdate('s1', { sessionUpdate: 'question_pending', questionId: 'q9', questions: approval('s1').questions, createdAt: 'x' });
    assert.equal(m.current!.question?.via, 'answer');
    m.ask({ ...approval('s1'), questionId: 'q9', purpose: 'question' });
    assert.equal(m.current!.question?.via, 'request', 'the request wins when both arrive');
    m.applyUpdate('s1', { sessionUpdate: 'question_pending', questionId: 'q9', questions: [], createdAt: 'x' });
    assert.equal(m.current!.question?.via, 'request');
  });

  test('a turn lost with the connection takes its question and pending approval along; a refused prompt does not', () => {
    m.addPrompt('s1', 'x');
    m.ask(approval('s1'));
    m.endTurn('s1', { error: 'session busy' });
    assert.equal(m.current!.question?.questionId, 'q-approve', 'the running turn keeps its question');
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'x1', title: 'Asking to approve plans/x.plan', kind: 'switch_mode', status: 'in_progress' });
    m.endTurn('s1', { error: 'Pending response rejected since connection got disposed', lost: true });
    assert.equal(m.current!.question, null, 'the lost turn\'s question goes');
    assert.equal(m.current!.awaitingApproval, null);
    assert.equal(m.current!.busy, false);
    assert.equal((m.current!.items.find((i) => i.kind === 'tool') as ToolItem).status, 'failed', 'its unfinished call ends as failed');
    const notice = [...m.current!.items].reverse().find((i) => i.kind === 'notice');
    assert.match(notice?.kind === 'notice' ? notice.text : '', /server stopped during this turn/, 'the notice in the user\'s words, not the library\'s');
  });

  test('turn endings leave notices', () => {
    m.addPrompt('s1', 'x');
    m.endTurn('s1', { stopReason: 'error', error: { message: 'approval timed out' } });
    m.endTurn('s1', { stopReason: 'cancelled' });
    m.endTurn('s1', { stopReason: 'end_turn' });
    m.endTurn('s1', { error: 'session busy' });
    m.endTurn('s1', { stopReason: 'max_tokens' });
    const notices = m.current!.items.filter((i) => i.kind === 'notice').map((i) => (i.kind === 'notice' ? `${i.level}:${i.text}` : ''));
    assert.deepEqual(notices, [
      'error:The turn stopped: approval timed out',
      'info:Cancelled.',
      'error:session busy',
      "info:Cut off: the model reached its output token limit (model.max_tokens, or the endpoint's own). Ask it to continue.",
    ]);
    assert.equal(m.current!.busy, false);
  });

  test('loadMessages rebuilds the conversation, refusals included', () => {
    const st = m.loadMessages(session('s2', 'build'), [
      { role: 'system', content: 'You are…' },
      { role: 'user', content: 'fix it' },
      { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 't1', name: 'edit', arguments: '{"path":"a"}' }, { id: 't2', name: 'read', arguments: '{}' }] },
      { role: 'tool', tool_call_id: 't1', content: '{"success":false,"error":"System is in Plan Mode. You can only modify the plan."}' },
      { role: 'tool', tool_call_id: 't2', content: '{"success":true,"result":"x"}' },
    ]);
    assert.deepEqual(st.items.map((i) => i.kind), ['user', 'assistant', 'tool', 'tool']);
    const [t1, t2] = st.items.slice(2);
    assert.ok(t1.kind === 'tool' && t1.refused && t1.status === 'failed');
    assert.ok(t2.kind === 'tool' && !t2.refused && t2.status === 'completed');
    assert.equal(st.loaded, true);
  });

  test('a loaded answer shows its thinking first, as the live chat showed it', () => {
    // Live: the thought streams, then the answer and its call.
    m.addPrompt('s1', 'fix it');
    m.applyUpdate('s1', { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'The test ' } });
    m.applyUpdate('s1', { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'fails first.' } });
    m.applyUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Looking.' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'read', kind: 'read', status: 'completed' });
    const live = m.current!.items.map((i) => [i.kind, 'text' in i ? i.text : i.id]);
    // Loaded: the same turn from agent/loadSession, and a thinking-only step before a call.
    const st = m.loadMessages(session('s2'), [
      { role: 'user', content: 'fix it' },
      { role: 'assistant', content: 'Looking.', thinking: 'The test fails first.', tool_calls: [{ id: 't1', name: 'read', arguments: '{}' }] },
      { role: 'tool', tool_call_id: 't1', content: '{"success":true,"result":"x"}' },
      { role: 'assistant', thinking: 'Now the other one.', tool_calls: [{ id: 't2', name: 'read', arguments: '{}' }] },
    ]);
    const loaded = st.items.map((i) => [i.kind, 'text' in i ? i.text : i.id]);
    assert.deepEqual(loaded.slice(0, 4), live);
    assert.deepEqual(loaded.slice(4), [['thought', 'Now the other one.'], ['tool', 't2']]);
    const thought = st.items[1];
    assert.ok(thought.kind === 'thought' && thought.rev === 1 && thought.id !== st.items[2].id);
  });

  test('a loaded answer without thinking (older servers) is its text and calls only', () => {
    const st = m.loadMessages(session('s2'), [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'assistant', content: 'Again.', thinking: '' },
    ]);
    assert.deepEqual(st.items.map((i) => i.kind), ['user', 'assistant', 'assistant']);
  });

  test('a stopped server ends turns and withdraws the questions it asked', () => {
    m.addPrompt('s1', 'x');
    m.ask({ ...approval('s1'), purpose: 'question' });
    m.serverStopped();
    assert.equal(m.current!.busy, false);
    assert.equal(m.current!.question, null);
    m.applyUpdate('s1', { sessionUpdate: 'question_pending', questionId: 'q2', questions: [], createdAt: 'x' });
    m.serverStopped();
    assert.equal(m.get('s1')?.question?.questionId, 'q2', 'a question_pending stays: agent/answer can still answer it');
  });

  test('snapshot lists sessions newest first', () => {
    m.upsertSession(session('s0', 'plan', '2026-11-22T00:00:00Z'));
    m.upsertSession(session('s9', 'build', '2026-11-24T00:00:00Z'));
    assert.deepEqual(m.snapshot().sessions.map((s) => s.sessionId), ['s9', 's1', 's0']);
    assert.equal(m.snapshot().current?.session.sessionId, 's1');
  });

  test('instructions_loaded is one small info line naming the files, their sizes and cuts', () => {
    m.applyUpdate('s1', {
      sessionUpdate: 'instructions_loaded',
      files: [{ path: 'AGENTS.md', bytes: 1200, cut: false }, { path: 'src/AGENTS.md', bytes: 300, cut: true }],
    });
    const items = m.snapshot().current!.items;
    assert.equal(items.length, 1);
    const item = items[0];
    assert.equal(item.kind, 'notice');
    assert.ok(item.kind === 'notice' && item.level === 'info');
    assert.equal(item.kind === 'notice' && item.text, 'Loaded project instructions: AGENTS.md (1.2 KB), src/AGENTS.md (300 B, cut)');
  });
});

describe('usage footer', () => {
  test('usage_update totals add up across turns; context and window show when reported', () => {
    const m = new ChatModel();
    m.upsertSession(session('s1'));
    assert.equal(usageText(m.get('s1')?.usage, 'en-US'), '', 'no footer before any usage_update');
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 1200, outputTokens: 34 });
    assert.equal(usageText(m.get('s1')?.usage, 'en-US'), 'Tokens: 1,200 in · 34 out');
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 800, outputTokens: 66, contextTokens: 5000, contextWindow: 128000 });
    assert.equal(usageText(m.get('s1')?.usage, 'en-US'), 'Tokens: 2,000 in · 100 out · context 5,000 / 128,000');
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 1, outputTokens: 1, contextTokens: 6000 });
    assert.equal(usageText(m.get('s1')?.usage, 'en-US'), 'Tokens: 2,001 in · 101 out · context 6,000 / 128,000', 'the window is kept when a later update leaves it out');
  });
});

describe('sub-agents', () => {
  test("a sub-agent's calls nest under their task row, a grandchild's under its parent's row, never top-level", () => {
    const m = new ChatModel();
    m.upsertSession(session('s1'));
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task build', kind: 'other', status: 'in_progress', rawInput: { kind: 'build', prompt: 'write a' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'aaaa1111/t9', title: 'task explore', kind: 'other', status: 'in_progress', rawInput: { kind: 'explore', prompt: 'look' }, parentToolCallId: 't1', childSessionId: 'x-aaaa1111' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'bbbb2222/g1', title: 'grep x', kind: 'search', status: 'in_progress', parentToolCallId: 'aaaa1111/t9', childSessionId: 'x-bbbb2222' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'bbbb2222/g1', status: 'completed', rawOutput: 'found', parentToolCallId: 'aaaa1111/t9', childSessionId: 'x-bbbb2222' });
    const items = m.get('s1')!.items;
    assert.equal(items.length, 1);
    const task = items[0] as ToolItem;
    assert.equal(task.subagent?.kind, 'build');
    assert.equal(task.subagent?.childSessionId, 'x-aaaa1111');
    assert.equal(task.children?.[0].id, 'aaaa1111/t9');
    assert.equal(task.children?.[0].subagent?.kind, 'explore');
    assert.equal(task.children?.[0].children?.[0].status, 'completed');
    assert.equal(findTool(items, 'bbbb2222/g1')?.top, task);
  });

  test("a child's call before its task row makes a placeholder the task row then fills", () => {
    const m = new ChatModel();
    m.upsertSession(session('s1'));
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'c/1', title: 'ls', kind: 'read', status: 'in_progress', parentToolCallId: 't1', childSessionId: 'abc' });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task explore', kind: 'other', status: 'in_progress', rawInput: { kind: 'explore', prompt: 'p' } });
    const items = m.get('s1')!.items as ToolItem[];
    assert.equal(items.length, 1);
    assert.equal(items[0].title, 'task explore');
    assert.equal(items[0].children?.length, 1);
  });

  test('usage_update children become per-child labels and tokens on the task row; the total is kept', () => {
    const m = new ChatModel();
    m.upsertSession(session('s1'));
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task explore', kind: 'other', status: 'in_progress', rawInput: { kind: 'explore', prompt: 'p' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 'c/1', title: 'ls', kind: 'read', status: 'in_progress', parentToolCallId: 't1', childSessionId: '0123456789abcdef' });
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 10, outputTokens: 2, children: [{ toolCallId: 't1', inputTokens: 10, outputTokens: 2 }], total: { inputTokens: 30, outputTokens: 5 } });
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 4, outputTokens: 1 });
    const st = m.get('s1')!;
    assert.deepEqual(st.usage?.children, [{ toolCallId: 't1', inputTokens: 10, outputTokens: 2, label: 'explore 89abcdef' }]);
    assert.deepEqual(st.usage?.total, { inputTokens: 30, outputTokens: 5 });
    assert.deepEqual((st.items[0] as ToolItem).subagent?.tokens, { inputTokens: 10, outputTokens: 2 });
    assert.equal(usageText(st.usage, 'en-US'), 'Tokens: 20 in · 3 out · sub-agents: explore 89abcdef 10 in · 2 out · total 30 in · 5 out');
  });

  test("a sub-agent without tool calls is named in the footer once its result names its session", () => {
    const m = new ChatModel();
    m.upsertSession(session('s1'));
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task explore', kind: 'other', status: 'in_progress', rawInput: { kind: 'explore', prompt: 'p' } });
    m.applyUpdate('s1', { sessionUpdate: 'usage_update', inputTokens: 10, outputTokens: 2, children: [{ toolCallId: 't1', inputTokens: 10, outputTokens: 2 }], total: { inputTokens: 30, outputTokens: 5 } });
    assert.equal(m.get('s1')!.usage?.children?.[0].label, 'explore');
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', rawOutput: { success: true, result: { status: 'cancelled', turns: 1, tokens: 12, session: 'ffff0000aaaa5555' } } });
    assert.equal(m.get('s1')!.usage?.children?.[0].label, 'explore aaaa5555');
    assert.equal((m.get('s1')!.items[0] as ToolItem).subagent?.status, 'cancelled');
  });

  test('a task call that failed before any sub-agent started is an error', () => {
    const m = new ChatModel();
    m.upsertSession(session('s1'));
    m.applyUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'task build', kind: 'other', status: 'in_progress', rawInput: { kind: 'build', prompt: 'p' } });
    m.applyUpdate('s1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', rawOutput: { success: false, error: 'build runs in BUILD mode only' } });
    assert.equal((m.get('s1')!.items[0] as ToolItem).subagent?.status, 'error');
  });

  test('the task summary and compact tokens', () => {
    assert.equal(compactTokens(950), '950');
    assert.equal(compactTokens(1200), '1.2k');
    assert.equal(compactTokens(34_000), '34k');
    assert.equal(compactTokens(1_500_000), '1.5M');
    const info = subagentOf('task', 'task', '{"kind":"explore","prompt":"\\n  where is main?\\nmore"}')!;
    assert.equal(taskSummary(info, 0), 'task explore: where is main?');
    info.tokens = { inputTokens: 1000, outputTokens: 200 };
    assert.equal(taskSummary(info, 5), 'task explore: where is main? — 5 steps, 1.2k tokens');
    assert.equal(subagentOf('read', 'read a.go', {}), null);
  });
});

describe('open review comments', () => {
  test("the plan linter's open-comment diagnostics are counted, nothing else", () => {
    const diags = [
      { message: 'open review comment on step 1: name it greeting.txt (the approval waits until it is resolved: …)' },
      { message: 'open review comment on step 2: test the accent (…)' },
      { message: 'step 3 has no checkbox' },
      { message: 'a note on an open review comment' },
    ];
    assert.equal(openReviewComments(diags), 2);
    assert.equal(openReviewComments([]), 0);
  });

  test('Request changes says how many comments it sends', () => {
    assert.equal(requestChangesLabel(1), 'Request changes (1 comment)');
    assert.equal(requestChangesLabel(2), 'Request changes (2 comments)');
  });

  test("a session's count follows its plan; a new session has none", () => {
    const m = new ChatModel();
    m.upsertSession({ sessionId: 's1', title: 't', mode: 'plan', planFile: 'plans/a.plan', createdAt: 'x', updatedAt: 'x' });
    assert.equal(m.planFileOf('s1'), 'plans/a.plan');
    m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/b.plan', entries: [] });
    assert.equal(m.planFileOf('s1'), 'plans/b.plan', 'the plan updates name the plan');
    m.setCurrent('s1');
    assert.equal(m.current?.openComments, 0);
    m.setOpenComments('s1', 3);
    assert.equal(m.snapshot().current?.openComments, 3);
  });
});
