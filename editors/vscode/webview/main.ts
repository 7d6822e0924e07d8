// The chat view's page: header (sessions, New chat, PLAN/BUILD toggle), the
// plan checklist, the conversation (streamed markdown, tool calls), the
// question bar, the prompt box and the usage footer. It renders the
// extension's snapshots and posts the user's actions back; it holds no agent
// state of its own.

import type { MentionChip } from '../src/mentions';
import type { FromWebview, ToWebview } from '../src/messages';
import type { Mode } from '../src/protocol';
import type { ChatItem, SessionState, Snapshot } from '../src/state';
import { regenerateTarget } from '../src/messageActions';
import { Announcer } from './announce';
import { approvalPlanWanted, approvedPlan, setPlanText } from './approvalPanel';
import { decorateCodeBlocks } from './codeBlocks';
import { h, icon } from './dom';
import { Follower } from './follow';
import { headerBasics } from './header';
import { copyButton, editButton, failedPromptNotice, regenerateButton } from './messageActions';
import { renderSetup } from './setup';
import { renderMarkdown } from './markdown';
import { renderChips } from './mentions';
import { collapsible } from './panels';
import { refusedStepIndex, tickRefusedBlock } from './tickRefused';
import { grantsList, openCommentsRow, renderQuestionBar } from './questionBar';
import { renderChanges, restoreButton, reviewToggle } from './review';
import { SlashMenu, slashWord } from './slashMenu';
import { DecisionRoom } from './room';
import { renderTool } from './toolRow';
import { usageText } from './usage';

interface VsCodeApi {
  postMessage(m: FromWebview): void;
  getState(): { draft?: string } | undefined;
  setState(s: { draft?: string }): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: FromWebview) => vscode.postMessage(m);

// Static layout.
const sessionSelect = h('select', { class: 'sessions', 'aria-label': 'Chats', title: 'Chats' });
const newChat = h('button', { type: 'button', class: 'icon-btn new-chat', title: 'New chat', 'aria-label': 'New chat' }, icon('add'));
const planTab = h('button', { type: 'button', class: 'mode-tab plan', role: 'tab', 'data-mode': 'plan' }, icon('map'), ' PLAN');
const buildTab = h('button', { type: 'button', class: 'mode-tab build', role: 'tab', 'data-mode': 'build' }, icon('tools'), ' BUILD');
const review = reviewToggle((m) => post(m));
const basics = headerBasics((m) => post(m));
const header = h('header', { class: 'chat-header' }, sessionSelect, basics.history, newChat, review.el, basics.picker, h('div', { class: 'mode-toggle', role: 'tablist', 'aria-label': 'Mode' }, planTab, buildTab));
const planPanel = h('section', { class: 'plan-panel', hidden: true, 'aria-label': 'Plan' });
// The transcript is no live region (each chunk draws the answer again): finished answers and
// notices are said once by the announcer's status line (webview/announce.ts).
const messages = h('main', { class: 'messages', 'aria-label': 'Conversation', tabindex: '0' });
const announcer = new Announcer();
// The transcript follows the stream unless the user scrolled up (webview/follow.ts).
const follower = new Follower(messages);
const transcript = h('div', { class: 'transcript' }, messages, follower.pill, announcer.el);
// The setup card (no model ready) and the last answer's Regenerate (webview/setup.ts, messageActions.ts).
const setupSlot = h('div', { class: 'setup-slot' });
const turnActions = h('div', { class: 'turn-actions' });
let lastBasics: Extract<ToWebview, { type: 'basics' }> | null = null;
const awaiting = h('div', { class: 'awaiting', hidden: true });
const questionSlot = h('div', { class: 'question-slot' });
const changesSlot = h('div', { class: 'changes-slot' });
const chips = h('div', { class: 'mention-chips', hidden: true, 'aria-label': 'Attached to the prompt' });
const input = h('textarea', { class: 'prompt', rows: '3', placeholder: 'Ask the agent… (@ file, / command)', title: 'Enter sends, Shift+Enter: new line, @ attaches a file, @selection, @problems or @plan, / runs a command', 'aria-label': 'Prompt' });
const send = h('button', { type: 'button', class: 'btn btn-primary send', title: 'Send (Enter)' }, icon('send'), ' Send');
const stop = h('button', { type: 'button', class: 'btn btn-danger stop', hidden: true, title: 'Stop the turn' }, icon('debug-stop'), ' Stop');
const footer = h('footer', { class: 'usage' });
const slashMenu = new SlashMenu((text) => {
  input.value = text;
  vscode.setState({ draft: text });
  input.focus();
});
const composer = h('div', { class: 'composer' }, slashMenu.el, chips, input, h('div', { class: 'composer-buttons' }, send, stop));
const app = document.getElementById('app')!;
app.append(header, setupSlot, planPanel, transcript, changesSlot, awaiting, questionSlot, composer, footer);
// A pending approval or permission gets the room its fixed parts need (webview/room.ts).
const room = new DecisionRoom(app, transcript);

input.value = vscode.getState()?.draft ?? '';

let snapshot: Snapshot | null = null;
let shownSession: string | null = null;
const rendered = new Map<string, { rev: number; el: HTMLElement }>();
let questionKey = '';

function currentMode(): Mode {
  return snapshot?.current?.session.mode ?? snapshot?.defaultMode ?? 'plan';
}

function sendPrompt(): void {
  const text = input.value;
  if (!text.trim() || snapshot?.current?.busy) return;
  post({ type: 'prompt', text });
  follower.jump(); // the user's own prompt brings the end back into view
  input.value = '';
  vscode.setState({ draft: '' });
}

input.addEventListener('keydown', (e) => {
  if (!e.isComposing && slashMenu.key(e)) {
    e.preventDefault();
    return;
  }
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    sendPrompt();
  }
});
input.addEventListener('input', (e) => {
  vscode.setState({ draft: input.value });
  if ((e as InputEvent).data === '@') post({ type: 'mention' });
  // "/" at the start asks for the commands afresh (user commands change).
  if (slashWord(input.value) === '') post({ type: 'listCommands' });
  slashMenu.update(input.value);
});
input.addEventListener('blur', () => slashMenu.close());
send.addEventListener('click', sendPrompt);
stop.addEventListener('click', () => post({ type: 'cancel' }));
newChat.addEventListener('click', () => post({ type: 'newChat' }));
sessionSelect.addEventListener('change', () => post({ type: 'selectSession', sessionId: sessionSelect.value }));
for (const tab of [planTab, buildTab]) {
  tab.addEventListener('click', () => {
    const mode = tab.dataset.mode as Mode;
    if (mode !== currentMode()) post({ type: 'setMode', mode });
  });
}

function renderItem(item: ChatItem): HTMLElement {
  switch (item.kind) {
    case 'user': {
      const el: HTMLElement = h('div', { class: `msg user${item.failed ? ' failed' : ''}`, 'data-item-id': item.id },
        h('div', { class: 'who' }, icon('account'), ' You', restoreButton(item.id, post), h('span', { class: 'msg-actions' }, copyButton(item.text, post), editButton(item.id, () => el, post))),
        h('div', { class: 'text' }, item.text));
      return el;
    }
    case 'assistant':
    case 'thought': {
      const body = h('div', { class: 'markdown' });
      body.innerHTML = renderMarkdown(item.text);
      decorateCodeBlocks(body, post);
      return h('div', { class: `msg ${item.kind}` }, item.kind === 'thought' ? h('div', { class: 'who' }, icon('lightbulb'), ' Thinking') : h('div', { class: 'msg-actions answer-actions' }, copyButton(item.text, post)), body);
    }
    case 'tool':
      return renderTool(item, post);
    case 'notice':
      return item.retry ? failedPromptNotice(item.text, post) : h('div', { class: `notice ${item.level}` }, icon(item.level === 'error' ? 'error' : 'info'), ` ${item.text}`);
  }
}

/** Keeps which rows (a task row and its sub-agent's rows) and which rows' Details the user opened
 * across a re-render (a running call's row is drawn again at each new output line). */
function keepOpen(from: HTMLElement, to: HTMLElement): void {
  const open = new Set<string>();
  for (const d of [from, ...from.querySelectorAll('details')]) {
    if (d instanceof HTMLDetailsElement && d.open) open.add(d.dataset.toolId ?? '');
  }
  for (const d of [to, ...to.querySelectorAll('details')]) {
    if (d instanceof HTMLDetailsElement && open.has(d.dataset.toolId ?? '')) d.open = true;
  }
  const rowOf = (b: Element) => b.closest<HTMLElement>('details[data-tool-id]')?.dataset.toolId ?? '';
  const shown = new Set([...from.querySelectorAll('.details-toggle[aria-expanded="true"]')].map(rowOf));
  for (const b of to.querySelectorAll<HTMLButtonElement>('.details-toggle')) {
    if (shown.has(rowOf(b))) b.click();
  }
}

function renderMessages(st: SessionState | null): void {
  const id = st?.session.sessionId ?? null;
  if (id !== shownSession) {
    messages.replaceChildren();
    rendered.clear();
    shownSession = id;
    follower.jump(); // another chat opens at its end
  }
  if (!st) {
    messages.replaceChildren(h('div', { class: 'empty' }, 'Start a chat: the agent plans first (PLAN mode), and builds only what you approve.'));
    announcer.update(null, [], false, () => '');
    return;
  }
  messages.querySelector('.empty')?.remove();
  const keep = new Set(st.items.map((i) => i.id));
  for (const [k, v] of rendered) {
    if (!keep.has(k)) {
      v.el.remove();
      rendered.delete(k);
    }
  }
  let prev: HTMLElement | null = null;
  for (const item of st.items) {
    const r = rendered.get(item.id);
    let el: HTMLElement;
    if (!r || r.rev !== item.rev) {
      el = renderItem(item);
      if (r) {
        keepOpen(r.el, el);
        r.el.replaceWith(el);
      }
      rendered.set(item.id, { rev: item.rev, el });
    } else {
      el = r.el;
    }
    if (el.previousElementSibling !== prev || el.parentElement !== messages) {
      if (prev) prev.after(el);
      else messages.prepend(el);
    }
    prev = el;
  }
  announcer.update(id, st.items, st.busy, (item) => {
    const el = rendered.get(item.id)?.el;
    return (item.kind === 'assistant' ? el?.querySelector('.markdown')?.textContent : el?.textContent) ?? '';
  });
  // Regenerate, under the last answer when no turn runs.
  const target = regenerateTarget(st.items, st.busy);
  if (target) {
    turnActions.replaceChildren(regenerateButton(target, post));
    messages.append(turnActions);
  } else turnActions.remove();
  follower.update();
}

function renderPlan(st: SessionState | null): void {
  const plan = st?.plan;
  // At approval the approval panel shows the plan: its steps are not shown twice.
  planPanel.hidden = !plan || st?.question?.purpose === 'plan_approval';
  if (!plan) return;
  const done = plan.entries.filter((e) => e.status === 'completed').length;
  const link = h('a', { href: '#', class: 'plan-link' }, icon('go-to-file'), ` ${plan.planFile}`);
  link.addEventListener('click', (e) => {
    e.preventDefault();
    post({ type: 'openPlan', planFile: plan.planFile });
  });
  const list = h('ul', { class: 'plan-steps' });
  const refused = plan.tickRefused ? refusedStepIndex(plan.entries, plan.tickRefused) : -1;
  plan.entries.forEach((e, i) => {
    const ic = e.status === 'completed' ? 'pass-filled' : e.status === 'in_progress' ? 'circle-large-filled' : 'circle-large-outline';
    const why = i === refused && plan.tickRefused ? tickRefusedBlock(plan.tickRefused, (path, line) => post({ type: 'openProblem', path, line })) : null;
    list.append(h('li', { class: `step ${e.status}`, 'data-status': e.status }, icon(ic), ` ${e.content}`, why));
  });
  const unplaced = plan.tickRefused && refused < 0 ? tickRefusedBlock(plan.tickRefused, (path, line) => post({ type: 'openProblem', path, line })) : null; // tick_refusal: its step renamed since
  const head = h('div', { class: 'plan-head' }, icon('checklist'), h('span', { class: 'panel-title' }, ' Plan '), link, h('span', { class: 'plan-progress' }, ` ${done}/${plan.entries.length} steps done`));
  planPanel.replaceChildren(head, list, ...(unplaced ? [unplaced] : []));
  collapsible(planPanel, head, 'plan', 'plan');
}

function renderAwaiting(st: SessionState | null): void {
  const a = st?.awaitingApproval;
  awaiting.hidden = !a || !!st?.question;
  if (awaiting.hidden) {
    awaiting.replaceChildren();
    return;
  }
  const feedback = h('input', { type: 'text', class: 'feedback', placeholder: 'What should change? (optional)', 'aria-label': 'Feedback' });
  const approve = h('button', { type: 'button', class: 'btn btn-primary approve' }, 'Approve');
  const keep = h('button', { type: 'button', class: 'btn btn-secondary keep' }, 'Keep Planning');
  // The decision names the chat and the plan it was shown for: another chat's approval that
  // came up meanwhile is never decided by this click.
  const bound = { sessionId: st?.session.sessionId, planFile: a?.planFile ?? null };
  approve.addEventListener('click', () => post({ type: 'resolvePlan', decision: 'approve', ...bound }));
  keep.addEventListener('click', () => post({ type: 'resolvePlan', decision: 'reject', reason: feedback.value.trim() || undefined, ...bound }));
  const head = h('div', { class: 'bar-head' }, icon('checklist'), h('span', { class: 'bar-title' }, ` Plan awaiting approval${a?.planFile ? `: ${a.planFile}` : ''}`));
  // What Approve grants besides the plan, as the question showed it.
  awaiting.replaceChildren(head, ...grantsList('plan', a?.grants ?? []), feedback, h('div', { class: 'buttons' }, approve, keep));
  collapsible(awaiting, head, 'awaiting', 'approval');
  if (st && st.openComments > 0) awaiting.append(openCommentsRow(st.openComments, () => post({ type: 'requestChanges' })));
}

// The question (and its errors) the bar shows: drawn again only for a new open-comments count, it
// leaves the focus where it is (the user may be writing the comments in the plan's editor).
let shownQuestion = '';

function renderQuestion(st: SessionState | null): void {
  const q = st?.question ?? null;
  const question = q ? `${q.questionId}|${JSON.stringify(q.errors ?? {})}` : '';
  const key = q ? `${question}|${st?.openComments ?? 0}` : '';
  if (key === questionKey) return;
  questionKey = key;
  const autofocus = question !== shownQuestion;
  shownQuestion = question;
  if (!q || !st) {
    questionSlot.replaceChildren();
    room.show(null);
    return;
  }
  const plan = q.purpose === 'plan_approval' ? approvedPlan(q, st.plan) : st.plan;
  if (q.purpose === 'plan_approval' && plan) approvalPlanWanted(plan.planFile, autofocus, post);
  const bar = renderQuestionBar(q, plan, {
      submit: (answers) => post({ type: 'answer', questionId: q.questionId, answers }),
      dismiss: () => post({ type: 'dismiss', questionId: q.questionId }),
      openPlan: (planFile) => post({ type: 'openPlan', planFile }),
      requestChanges: () => post({ type: 'requestChanges' }),
    }, { openComments: st.openComments, autofocus });
  const head = bar.querySelector<HTMLElement>(':scope > .bar-head');
  if (head) collapsible(bar, head, `question:${q.questionId}`, q.purpose === 'plan_approval' ? 'approval' : q.purpose === 'permission' ? 'permission request' : 'question');
  questionSlot.replaceChildren(bar);
  room.show(bar);
}

function render(s: Snapshot, mentions: MentionChip[]): void {
  snapshot = s;
  const st = s.current;
  const mode = currentMode();
  document.body.dataset.mode = mode;
  planTab.setAttribute('aria-selected', String(mode === 'plan'));
  buildTab.setAttribute('aria-selected', String(mode === 'build'));
  sessionSelect.replaceChildren(...s.sessions.map((x) => h('option', { value: x.sessionId, selected: x.sessionId === st?.session.sessionId }, `${x.mode === 'build' ? 'BUILD' : 'PLAN'} · ${x.title || 'Untitled'}`)));
  sessionSelect.hidden = s.sessions.length === 0;
  review.update(st?.session.review, !!st);
  basics.update(lastBasics?.models ?? null, mode);
  renderPlan(st);
  renderMessages(st);
  renderAwaiting(st);
  renderQuestion(st);
  const busy = !!st?.busy;
  send.hidden = busy;
  stop.hidden = !busy;
  document.body.classList.toggle('busy', busy);
  renderChips(chips, mentions, (index) => post({ type: 'clearContext', index }));
  footer.textContent = usageText(st?.usage);
}

window.addEventListener('message', (e: MessageEvent<ToWebview>) => {
  const m = e.data;
  if (m.type === 'state') render(m.snapshot, m.mentions ?? (m.context ? [{ kind: 'file', label: m.context, title: m.context }] : []));
  if (m.type === 'basics') {
    lastBasics = m;
    renderSetup(setupSlot, m.setup, m.connection, post);
    basics.update(m.models, currentMode());
  }
  if (m.type === 'focusPrompt') input.focus();
  if (m.type === 'changes') {
    renderChanges(changesSlot, m.changes, post);
    follower.update(); // the panel took room from the conversation: its end stays in view (when following)
  }
  if (m.type === 'planText') setPlanText(m.planFile, m.text);
  if (m.type === 'commands') {
    slashMenu.setCommands(m.commands);
    if (document.activeElement === input) slashMenu.update(input.value);
  }
  if (m.type === 'insert') {
    const at = input.value.lastIndexOf('@');
    input.value = (at >= 0 ? input.value.slice(0, at) : input.value) + m.text;
    input.focus();
  }
});

post({ type: 'ready' });
