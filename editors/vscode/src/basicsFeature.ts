// Chat basics in the VS Code face: the first-run setup (walkthrough, setup
// card, "Test connection" through agent/checkModel), the model picker
// (agent/listModels, agent/setModel), the history (agent/listSessions,
// agent/setTitle), copy, edit-and-resend and regenerate (agent/rewind, then
// agent/prompt) and Retry of a failed prompt (agent/prompt retryOf). The
// decisions are in firstRun.ts, models.ts, history.ts and messageActions.ts.

import * as vscode from 'vscode';
import { showInfo, showWarning } from './notify';
import { connectionResult, setupState, type SetupAction } from './firstRun';
import { historyEntries } from './history';
import { failedLastPrompt, itemsBefore, laterTurnsChangedFiles, sameTextAfter, userMessageIdFromEnd } from './messageActions';
import type { FromWebview, ToWebview } from './messages';
import { Methods, type ModelCheck, type ModelList, type Requests, type RewindWhat, type Session } from './protocol';
import type { ChatModel } from './state';

/** The walkthrough's id (package.json contributes.walkthroughs). */
export const walkthroughId = 'agentls.agentls#firstRun';

/** The question asked before an edit or regenerate when later turns changed files. */
export const restoreCodeQuestion = 'The turns after this message changed files. Restore the code to before this message as well?';
export const restoreCodeAction = 'Restore code too';
export const keepCodeAction = 'Keep the code';

/** What the feature needs of the controller. */
export interface BasicsHost {
  request<M extends keyof Requests>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']>;
  readonly model: ChatModel;
  post(m: ToWebview): void;
  refresh(): void;
  /** The current session, a new one when there is none. */
  currentSession(): Promise<string | undefined>;
  /** Shows a session (loading it when needed). */
  openSession(sessionId: string): Promise<void>;
  /** Sends a prompt in the current session (retryOf: the failed prompt's message, sent again). */
  prompt(text: string, retryOf?: string): Promise<void>;
  setApiKey(): Promise<void>;
  log(m: string): void;
  error(e: unknown): void;
}

/** The chat basics; the controller routes the webview's messages and the commands here. */
export class ChatBasics {
  private check: ModelCheck | undefined;
  private connection: { ok: boolean; text: string } | null = null;
  private models: ModelList | null = null;
  /** Counts model list requests: an older answer never overwrites a newer one (a listing racing a choice). */
  private modelsSeq = 0;

  constructor(private readonly host: BasicsHost) {}

  /** The last model check (for the status bar). */
  get modelCheck(): ModelCheck | undefined {
    return this.check;
  }

  /** Registers the commands (returned for disposal). */
  commands(): vscode.Disposable[] {
    const cmd = (id: string, f: () => unknown) => vscode.commands.registerCommand(id, f);
    return [
      cmd('agentls.ui.testConnection', () => this.testConnection(true)),
      cmd('agentls.ui.openWalkthrough', () => this.openWalkthrough()),
      cmd('agentls.ui.showHistory', () => this.showHistory()),
      cmd('agentls.ui.renameChat', () => this.rename()),
      cmd('agentls.ui.pickModel', () => this.pickModel()),
    ];
  }

  /** Takes agent/checkModel's result (at start, and after Test connection). */
  checked(check: ModelCheck | undefined): void {
    this.check = check;
    this.post();
  }

  /** The server stopped: what was known of it is stale. */
  reset(): void {
    this.check = undefined;
    this.connection = null;
    this.models = null;
    this.post();
  }

  /** Sends the webview the setup card, the connection result and the models. */
  post(): void {
    this.host.post({ type: 'basics', setup: setupState(this.check), connection: this.connection, models: this.models });
  }

  /** "Test connection": agent/checkModel, its result shown in the chat and as a notification. */
  async testConnection(notify: boolean): Promise<boolean> {
    let check: ModelCheck;
    try {
      check = await this.host.request(Methods.checkModel, {});
    } catch (e) {
      this.host.error(e);
      return false;
    }
    this.check = check;
    this.connection = connectionResult(check);
    this.post();
    this.host.refresh();
    if (check.ok) void this.refreshModels();
    if (notify) {
      if (check.ok) void showInfo(`agentls: ${this.connection.text}`);
      else void this.offer(showWarning(`agentls: ${this.connection.text}`, 'Open Settings', 'Set API Key'));
    }
    return check.ok;
  }

  private async offer(choice: Thenable<string | undefined>): Promise<void> {
    const a = await choice;
    if (a === 'Open Settings') await this.setupAction('settings');
    if (a === 'Set API Key') await this.setupAction('apiKey');
  }

  /** A button of the setup card. */
  async setupAction(action: SetupAction): Promise<void> {
    switch (action) {
      case 'settings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'agentls.model');
        break;
      case 'apiKey':
        await this.host.setApiKey();
        break;
      case 'test':
        await this.testConnection(false);
        break;
      case 'walkthrough':
        await this.openWalkthrough();
        break;
    }
  }

  private async openWalkthrough(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughId, false);
  }

  /** Asks the server for the models (of the current session, when there is one). */
  async refreshModels(): Promise<void> {
    const sessionId = this.host.model.current?.session.sessionId;
    const seq = ++this.modelsSeq;
    let models: ModelList | null = null;
    try {
      models = await this.host.request(Methods.listModels, sessionId ? { sessionId } : {});
    } catch (e) {
      this.host.log(`could not list the models: ${(e as Error).message}`);
    }
    if (seq !== this.modelsSeq) return;
    this.models = models;
    this.post();
  }

  /** The header's picker chose a model: the session's model for the mode in view. */
  async setModel(model: string): Promise<void> {
    const sessionId = await this.host.currentSession();
    const st = sessionId ? this.host.model.get(sessionId) : undefined;
    if (!sessionId || !st) return;
    const seq = ++this.modelsSeq;
    try {
      const models = await this.host.request(Methods.setModel, { sessionId, mode: st.session.mode, model });
      if (seq === this.modelsSeq) this.models = models;
    } catch (e) {
      this.host.error(e);
    }
    this.post();
  }

  /** The palette's "Choose Model": a QuickPick of the same list. */
  private async pickModel(): Promise<void> {
    await this.refreshModels();
    const mode = this.host.model.current?.session.mode ?? this.host.model.defaultMode;
    const current = mode === 'plan' ? this.models?.current.plan : this.models?.current.build;
    const pick = await vscode.window.showQuickPick(
      (this.models?.models ?? []).map((m) => ({ label: m.id, description: m.id === current ? 'current' : m.provider })),
      { placeHolder: `Model for ${mode.toUpperCase()} mode in this chat` },
    );
    if (pick) await this.setModel(pick.label);
  }

  /** The history: every chat with its title, mode and date; open one, or rename it (the pencil). */
  async showHistory(): Promise<void> {
    try {
      const { sessions } = await this.host.request(Methods.listSessions, {});
      this.host.model.setSessions(sessions);
    } catch (e) {
      this.host.error(e);
      return;
    }
    const rename: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
    const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { sessionId: string }>();
    const fill = () => {
      const current = this.host.model.current?.session.sessionId;
      qp.items = historyEntries(this.host.model.snapshot().sessions, current, new Date()).map((e) => ({
        label: e.current ? `$(comment-discussion) ${e.label}` : e.label,
        description: e.description,
        detail: e.detail,
        sessionId: e.sessionId,
        buttons: [rename],
      }));
    };
    qp.title = 'agentls: Chat history';
    qp.placeholder = 'Open a chat (the pencil renames it)';
    qp.matchOnDescription = true;
    fill();
    // The rename input box hides the list for a while: it is shown again after, not disposed.
    let renaming = false;
    qp.onDidTriggerItemButton(async (e) => {
      renaming = true;
      await this.rename(e.item.sessionId);
      renaming = false;
      fill();
      qp.show();
    });
    qp.onDidAccept(async () => {
      const pick = qp.selectedItems[0];
      qp.hide();
      if (pick) await this.host.openSession(pick.sessionId);
    });
    qp.onDidHide(() => {
      if (!renaming) qp.dispose();
    });
    qp.show();
  }

  /** Renames a chat (the current one by default) through agent/setTitle. */
  async rename(sessionId?: string): Promise<void> {
    const id = sessionId ?? this.host.model.current?.session.sessionId;
    const st = id ? this.host.model.get(id) : undefined;
    if (!id || !st) return;
    const title = await vscode.window.showInputBox({ prompt: 'Rename the chat', value: st.session.title, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A title cannot be empty') });
    if (title === undefined) return;
    try {
      const s = await this.host.request(Methods.setTitle, { sessionId: id, title });
      this.host.model.upsertSession(s);
    } catch (e) {
      this.host.error(e);
    }
    this.host.refresh();
  }

  /**
   * Edit-and-resend (text) or regenerate (the message's own text): the
   * conversation goes back to before the message (agent/rewind), the code
   * too when the user says so, and the prompt is sent again.
   */
  async resend(itemId: string, text?: string): Promise<void> {
    const st = this.host.model.current;
    if (!st || st.busy) return;
    const sessionId = st.session.sessionId;
    const which = sameTextAfter(st.items, itemId);
    if (!which) return;
    const send = text ?? which.text;
    if (!send.trim()) return;
    try {
      const loaded = await this.host.request(Methods.loadSession, { sessionId });
      const id = userMessageIdFromEnd(loaded.messages ?? [], which.text, which.nthFromEnd);
      if (!id) throw new Error('this message is not in the saved conversation');
      let what: RewindWhat = 'conversation';
      if (laterTurnsChangedFiles(loaded.messages ?? [], id)) {
        const pick = await showWarning(restoreCodeQuestion, { modal: true }, restoreCodeAction, keepCodeAction);
        if (!pick) return;
        if (pick === restoreCodeAction) what = 'both';
      }
      const res = await this.host.request(Methods.rewind, { sessionId, toMessageId: id, what });
      if (res.conflicts.length) void showWarning(`agentls: left as they are (changed by someone else): ${res.conflicts.map((c) => c.path).join(', ')}`);
      // The mode and plan the rewind returned to; the chat shows the conversation before the message.
      const after = await this.host.request(Methods.loadSession, { sessionId });
      const session: Partial<typeof after> = { ...after };
      delete session.messages;
      this.host.model.upsertSession(session as Session);
      st.items = itemsBefore(st.items, itemId);
      this.host.refresh();
    } catch (e) {
      this.host.error(e);
      return;
    }
    await this.host.prompt(send);
  }

  /** Retry of the failed last prompt: the same text again (agent/prompt retryOf), never sent on its own. */
  async retry(): Promise<void> {
    const st = this.host.model.current;
    if (!st || st.busy) return;
    try {
      const loaded = await this.host.request(Methods.loadSession, { sessionId: st.session.sessionId });
      const failed = failedLastPrompt(loaded.messages ?? []);
      if (!failed?.id) throw new Error('the last prompt did not fail: nothing to retry');
      await this.host.prompt(failed.content ?? '', failed.id);
    } catch (e) {
      this.host.error(e);
    }
  }

  /** Handles the webview's basics messages; false for the others. */
  async onWebview(m: FromWebview): Promise<boolean> {
    switch (m.type) {
      case 'setModel':
        await this.setModel(m.model);
        return true;
      case 'history':
        await this.showHistory();
        return true;
      case 'renameChat':
        await this.rename();
        return true;
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        void vscode.window.setStatusBarMessage('agentls: copied', 2000);
        return true;
      case 'editMessage':
        await this.resend(m.itemId, m.text);
        return true;
      case 'regenerate':
        await this.resend(m.itemId);
        return true;
      case 'retry':
        await this.retry();
        return true;
      case 'setupAction':
        await this.setupAction(m.action);
        return true;
      default:
        return false;
    }
  }
}
