// The controller: owns the language client, the ChatModel, the status bar and
// the chat view, and turns user actions into protocol requests. VS Code glue;
// every decision about the agent is the server's.

import * as vscode from 'vscode';
import { showError, showWarning } from './notify';
import {
  ErrorAction,
  type ErrorHandler,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  type StaticFeature,
  State,
} from 'vscode-languageclient/node';
import { ChatBasics } from './basicsFeature';
import { ChatViewProvider } from './chatView';
import { fileCandidates } from './filePaths';
import { notReadyLine } from './firstRun';
import { answerDiagnostics, answerNavigate } from './intelFeature';
import { editedUris, type WireWorkspaceEdit } from './edits';
import { copyCode, insertCode } from './layoutFeature';
import type { FromWebview } from './messages';
import {
  agentCapability,
  Commands,
  type AskUserParams,
  type AskUserResult,
  type CommandInfo,
  type DiagnosticsParams,
  type LanguageServing,
  Methods,
  type Mode,
  type ModeChangedParams,
  type NavigateParams,
  type Requests,
  type ResolvePlanParams,
  type PlanDecisionParams,
  type ApprovePlanResult,
  type MCPServerStatus,
  type SandboxStatus,
  type Session,
  type UpdateParams,
} from './protocol';
import { apiKeySecret, confirmModeSwitch, connectionLost, promptParams, restartOnChange, sessionToRestore, storeApiKey } from './flows';
import { Lifecycle } from './lifecycle';
import { MentionList } from './mentionPicker';
import { ReviewFeature, type TurnChanges } from './reviewFeature';
import { reencodedOnSave, showAskedWhy, warnLeftUnsaved } from './saveCheck';
import { PlanTexts } from './planTexts';
import { watchSelfOpened } from './selfOpenedTabs';
import { resolveServer } from './serverPath';
import { initializationOptions, serverEnv, trustedGetter } from './settings';
import { ChatModel, openReviewComments, otherMode } from './state';
import { ModeStatusBar } from './statusBar';

const lastSessionKey = 'agentls.lastSession';

/** Everything the extension runs, disposed on deactivation. */
export class AgentController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  /** Starts, stops and restarts, one at a time (lifecycle.ts). */
  private readonly lifecycle = new Lifecycle();
  private readonly model = new ChatModel();
  private readonly status = new ModeStatusBar();
  /** What confines commands, as agent/status reported it at start. */
  private sandbox: SandboxStatus | undefined;
  /** Each MCP server's state (agent/status's mcpServers), for the tooltip. */
  private mcp: MCPServerStatus[] | undefined;
  /** Which source serves each file type (agent/status's languageIntel), for the tooltip. */
  private languages: LanguageServing[] | undefined;
  private readonly view: ChatViewProvider;
  private readonly output = vscode.window.createOutputChannel('agentls', { log: true });
  private readonly disposables: vscode.Disposable[] = [];
  /** agent/askUser requests waiting for the question bar, by questionId. */
  private readonly asks = new Map<string, { sessionId: string; resolve: (r: AskUserResult) => void }>();
  /** Why the server is not running, while it is not. */
  private serverError: string | null = null;
  /** The mentions (chips) the next prompt carries: files, @selection, @problems, @plan (mentionPicker.ts). */
  private readonly mentions = new MentionList(() => {
    const st = this.model.current;
    return st ? this.model.planFileOf(st.session.sessionId) : null;
  });
  /** Review of the agent's edits: declined changes, diffs, Keep / Undo, Restore (reviewFeature.ts). */
  private readonly review: ReviewFeature;
  /** Documents the edit being applied leaves unsaved: a save would re-encode them (saveCheck.ts). */
  private readonly reencoded = new Set<string>();
  /** First run, models, history, edit / regenerate / retry (basicsFeature.ts). */
  private readonly basics: ChatBasics;
  /** The plan texts the approvals show, sent again when a plan changes (planTexts.ts). */
  private readonly planTexts: PlanTexts;

  constructor(private readonly ext: vscode.ExtensionContext) {
    this.view = new ChatViewProvider(ext.extensionUri, (m) => void this.onWebview(m));
    this.review = new ReviewFeature({
      request: (method, params) => this.request(method, params),
      reload: (sessionId) => this.load(sessionId),
      save: (uris) => this.save(uris),
      saveEdits: () => this.settings().get<boolean>('saveAgentEdits', true),
      showChanges: (changes: TurnChanges | null) => this.view.post({ type: 'changes', changes }),
      log: (m) => this.output.info(m),
      error: (e) => this.error(e),
    });
    this.disposables.push(this.review);
    this.planTexts = new PlanTexts((planFile, text) => this.view.post({ type: 'planText', planFile, text }));
    this.disposables.push(this.planTexts);
    this.basics = new ChatBasics({
      request: (method, params) => this.request(method, params),
      model: this.model,
      post: (m) => this.view.post(m),
      refresh: () => this.refresh(),
      currentSession: () => this.currentSession(),
      openSession: (id) => this.onWebview({ type: 'selectSession', sessionId: id }),
      prompt: (text, retryOf) => this.prompt(text, retryOf),
      setApiKey: () => this.setApiKey(),
      log: (m) => this.output.info(m),
      error: (e) => this.error(e),
    });
    this.disposables.push(...this.basics.commands());
    this.disposables.push(
      this.status,
      this.output,
      vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, this.view),
      vscode.workspace.onDidChangeConfiguration((e) => void this.onConfig(e)),
      // The approval bar counts the plan's open review comments from the server's plan linter.
      vscode.languages.onDidChangeDiagnostics((e) => {
        const uri = this.currentPlanUri();
        if (uri && e.uris.some((u) => u.toString() === uri.toString())) this.refresh();
      }),
    );
    // Palette commands live under agentls.ui.*: the language client registers
    // the server's own commands (agentls.approvePlan, …) for its code lenses.
    const cmd = (id: string, f: (...args: unknown[]) => unknown) => this.disposables.push(vscode.commands.registerCommand(id, f));
    cmd('agentls.ui.newChat', () => this.newChat());
    cmd('agentls.ui.sendSelection', () => this.sendSelection());
    cmd('agentls.ui.switchMode', () => this.switchMode());
    cmd('agentls.ui.approvePlan', () => this.resolvePlan('approve'));
    cmd('agentls.ui.rejectPlan', () => this.rejectPlanCommand());
    cmd('agentls.ui.cancel', () => this.cancel());
    cmd('agentls.ui.setApiKey', () => this.setApiKey());
    cmd('agentls.ui.showLog', () => this.output.show(true));
    cmd('agentls.ui.restartServer', () => this.restart());
    cmd('agentls.ui.toggleReview', () => this.toggleReview());
    cmd('agentls.ui.focusChat', async () => {
      await this.view.reveal();
      this.view.post({ type: 'focusPrompt' });
    });
    this.model.defaultMode = this.settings().get<boolean>('planMode.defaultActive', true) ? 'plan' : 'build';
    this.refresh();
  }

  private settings(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('agentls');
  }

  /** Starts the server; a failure is shown with "Open Settings" / "Show Log". */
  start(): Promise<void> {
    return this.lifecycle.run('start', () => this.startNow());
  }

  /** Stops the server. */
  stop(): Promise<void> {
    return this.lifecycle.run('stop', () => this.stopNow());
  }

  /** Stops the server and starts it again (after the steps asked before it: lifecycle.ts). */
  private restart(): Promise<void> {
    return this.lifecycle.run('restart', async () => {
      await this.stopNow();
      await this.startNow();
    });
  }

  private async startNow(): Promise<void> {
    const cfg = this.settings();
    const found = resolveServer(cfg.get<string>('serverPath'), this.ext.extensionPath, process.env.PATH);
    if ('error' in found) {
      this.fail(found.error);
      return;
    }
    this.serverError = null;
    this.output.info(`starting ${found.command} (${found.source})`);
    const apiKey = await this.ext.secrets.get(apiKeySecret);
    const serverOptions: ServerOptions = {
      command: found.command,
      // Flags only: agentls with no subcommand serves over stdio (no transport
      // given, so the client adds no --stdio argument).
      args: cfg.get<string[]>('serverArgs', []),
      options: { env: serverEnv(process.env, apiKey), cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file' }],
      // Provider and base URL from the user's settings only (settings.ts, userOnlyKeys).
      initializationOptions: initializationOptions(
        trustedGetter((k) => cfg.get(k), (k) => cfg.inspect(k), (k) => this.output.warn(`agentls.${k} in the workspace's settings is ignored: only your user settings say where the API key goes`)),
      ),
      outputChannel: this.output,
      // A server that died (kill -9, out of memory) fails the writes still queued for it (EPIPE). The
      // default handler gives the server up after three of them, a race with the close it restarts on:
      // here only the close decides (the default's rule: restarted unless it crashed 5 times in 3
      // minutes), and the chat, not a pile of toasts, says what happened to the turn.
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        closed: () => crashes.closed(),
      },
      middleware: {
        workspace: {
          handleApplyEdit: async (params, next) => {
            const apply = async () => next(params, new vscode.CancellationTokenSource().token);
            const uris = editedUris(params.edit as WireWorkspaceEdit);
            // Documents a save would re-encode stay unsaved (saveCheck.ts), looked at before the edit.
            const reencoded = await reencodedOnSave(uris);
            reencoded.forEach((u) => this.reencoded.add(u));
            try {
              if (this.review.reviews(params.edit)) {
                showAskedWhy(params.edit);
                return await this.review.applyEdit(params.edit, apply);
              }
              // The tabs VS Code opens for the edit's files while they are unsaved (selfOpenedTabs.ts);
              // not around a review, which waits for the user, who may open them meanwhile.
              const tabs = watchSelfOpened(uris, (m) => this.output.info(m));
              try {
                const result = await apply();
                if (!(result instanceof Error) && result.applied && this.settings().get<boolean>('saveAgentEdits', true)) await this.save(uris);
                return result;
              } finally {
                await tabs.closeSaved().catch((e: unknown) => this.output.warn(`closing the tabs VS Code opened for the edit: ${e instanceof Error ? e.message : String(e)}`));
              }
            } finally {
              reencoded.forEach((u) => this.reencoded.delete(u));
            }
          },
        },
      },
    };
    const client = new LanguageClient('agentls', 'agentls', serverOptions, clientOptions);
    const crashes: ErrorHandler = client.createDefaultErrorHandler();
    const savesEdits = cfg.get<boolean>('saveAgentEdits', true);
    const feature: StaticFeature = {
      fillClientCapabilities: (caps) => {
        caps.experimental = { ...(caps.experimental ?? {}), agent: agentCapability(savesEdits) };
      },
      initialize: () => undefined,
      getState: () => ({ kind: 'static' }),
      clear: () => undefined,
    };
    client.registerFeature(feature);
    client.onNotification(Methods.update, (p: UpdateParams) => {
      if (!this.model.get(p.sessionId)) return;
      this.model.applyUpdate(p.sessionId, p.update);
      this.refresh();
    });
    client.onNotification(Methods.modeChanged, (p: ModeChangedParams) => {
      this.model.applyModeChanged(p);
      this.refresh();
    });
    client.onRequest(Methods.askUser, (p: AskUserParams, token: vscode.CancellationToken) => this.askUser(p, token));
    client.onRequest(Methods.diagnostics, (p: DiagnosticsParams) => answerDiagnostics(p, (m) => this.output.debug(m)));
    client.onRequest(Methods.navigate, (p: NavigateParams) => answerNavigate(p));
    this.client = client;
    try {
      await client.start();
    } catch (e) {
      this.fail(`The agentls server did not start: ${(e as Error).message}`);
      return;
    }
    await this.restoreSessions();
    await this.checkSandbox();
  }

  /**
   * Asks the server once, at start, whether the model answers (the chat's setup card) and what
   * confines commands (the status tooltip): agent/checkModel, the one request to the model the
   * extension makes on its own. After each turn it asks agent/status, which never reaches the model.
   */
  private async checkSandbox(): Promise<void> {
    try {
      const check = await this.request(Methods.checkModel, {});
      this.sandbox = check.sandbox;
      this.languages = check.languageIntel;
      this.mcp = check.mcpServers;
      this.basics.checked(check); // no model ready: the chat's setup card says what is missing
    } catch (e) {
      this.output.warn(`could not read the sandbox status: ${(e as Error).message}`);
    }
    this.refresh();
    await this.basics.refreshModels();
  }

  /** After a turn: the MCP servers' status again (agent/status, never a model request), for the tooltip and the chat's notice of a failed one. */
  private async mcpStatus(sessionId: string): Promise<void> {
    try {
      const check = await this.request(Methods.status, {});
      this.mcp = check.mcpServers;
      this.model.mcpStatus(sessionId, this.mcp);
    } catch (e) {
      this.output.warn(`could not read the MCP servers' status: ${(e as Error).message}`);
    }
    this.refresh();
  }

  private fail(message: string): void {
    this.serverError = message;
    this.output.error(message);
    this.status.showError(message);
    void showError(message, 'Open Settings', 'Show Log').then((a) => {
      if (a === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'agentls.serverPath');
      if (a === 'Show Log') this.output.show(true);
    });
  }

  private async stopNow(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    for (const [, a] of this.asks) a.resolve({ dismissed: true });
    this.asks.clear();
    this.model.serverStopped();
    this.basics.reset();
    if (c && c.state !== State.Stopped) await c.stop().catch(() => undefined);
  }

  private async onConfig(e: vscode.ConfigurationChangeEvent): Promise<void> {
    this.model.defaultMode = this.settings().get<boolean>('planMode.defaultActive', true) ? 'plan' : 'build';
    const busy = !!this.model.snapshot().current?.busy;
    const go = await restartOnChange((s) => e.affectsConfiguration(s), busy, (msg, action) => showWarning(msg, action, 'Later'));
    if (go) await this.restart();
  }

  /** Sends the request method of the protocol table (protocol.gen.ts): its params and result are the generated types. */
  private async request<M extends keyof Requests>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']> {
    // A server given up after crashes (errorHandler): the next request starts it again (the chat's
    // notice says so) — but not one a start makes itself (restoreSessions), which would wait for itself.
    if (this.client?.state === State.Stopped && !this.lifecycle.busy) await this.restart();
    if (!this.client || !this.client.isRunning()) throw new Error('the agentls server is not running (see agentls: Show Server Log)');
    return this.client.sendRequest<Requests[M]['result']>(method, params);
  }

  private async restoreSessions(): Promise<void> {
    try {
      const { sessions } = await this.request(Methods.listSessions, {});
      this.model.setSessions(sessions);
      const pick = sessionToRestore(sessions, this.ext.workspaceState.get<string>(lastSessionKey));
      if (pick) await this.load(pick.sessionId);
    } catch (e) {
      this.output.warn(`could not list sessions: ${(e as Error).message}`);
    }
    this.refresh();
  }

  private async load(sessionId: string): Promise<void> {
    const res = await this.request(Methods.loadSession, { sessionId });
    this.model.loadMessages(res, res.messages ?? []);
    this.select(sessionId);
  }

  private select(sessionId: string): void {
    const changed = this.model.current?.session.sessionId !== sessionId;
    this.model.setCurrent(sessionId);
    void this.ext.workspaceState.update(lastSessionKey, sessionId);
    this.refresh();
    if (changed) void this.basics.refreshModels(); // the picker shows the session's models
  }

  /** Pushes the state to the status bar and the chat view. */
  /** The uri of the current session's plan, if any. */
  private currentPlanUri(): vscode.Uri | undefined {
    const st = this.model.current;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const planFile = st ? this.model.planFileOf(st.session.sessionId) : null;
    return root && planFile ? vscode.Uri.joinPath(root, planFile) : undefined;
  }

  private refresh(): void {
    const st = this.model.current;
    const uri = this.currentPlanUri();
    if (st) this.model.setOpenComments(st.session.sessionId, uri ? openReviewComments(vscode.languages.getDiagnostics(uri)) : 0);
    const ind = this.model.indicator();
    if (this.serverError) this.status.showError(this.serverError);
    else this.status.show(ind.mode, ind.planFile, this.sandbox, this.languages, this.mcp, notReadyLine(this.basics.modelCheck));
    this.view.post({ type: 'state', snapshot: this.model.snapshot(), context: null, mentions: this.mentions.chips() });
  }

  private async newChat(): Promise<Session | undefined> {
    try {
      const s = await this.request(Methods.newSession, { mode: this.model.defaultMode });
      const st = this.model.upsertSession(s);
      st.loaded = true;
      this.select(s.sessionId);
      await this.view.reveal();
      return s;
    } catch (e) {
      this.error(e);
      return undefined;
    }
  }

  private async currentSession(): Promise<string | undefined> {
    const c = this.model.current;
    if (c) return c.session.sessionId;
    return (await this.newChat())?.sessionId;
  }

  /** Sends a prompt; retryOf names the failed last prompt's message, sent again (its text is not added again). */
  private async prompt(text: string, retryOf?: string): Promise<void> {
    const sessionId = await this.currentSession();
    if (!sessionId || (!text.trim() && !retryOf)) return;
    // A retry sends the failed prompt again as it was (no mentions ride on it); a prompt takes the chips.
    const params = retryOf ? promptParams(sessionId, text, null) : this.mentions.take(sessionId, text);
    if (retryOf) params.retryOf = retryOf;
    const st = this.model.get(sessionId);
    if (st?.question?.via === 'answer') st.question = null; // a new prompt withdraws a pending question
    if (retryOf) this.model.retrying(sessionId);
    else this.model.addPrompt(sessionId, params.text);
    this.refresh();
    try {
      const res = await this.request(Methods.prompt, params);
      this.model.endTurn(sessionId, res);
      if (res.sessionId && res.sessionId !== sessionId) await this.load(res.sessionId); // /new
      else void this.review.turnEnded(sessionId);
      if (this.mcp?.length) void this.mcpStatus(sessionId); // MCP servers start at a session's first listing
    } catch (e) {
      const lost = connectionLost(e);
      if (lost) {
        // The turn is lost with the connection (a server killed mid-turn): its open questions too.
        for (const [id, a] of this.asks) {
          if (a.sessionId !== sessionId) continue;
          this.asks.delete(id);
          a.resolve({ dismissed: true });
        }
      }
      this.model.endTurn(sessionId, { error: (e as Error).message, lost });
    }
    this.refresh();
  }

  /** Sends the webview the slash commands for its completion (none when the server cannot say). */
  private async listCommands(): Promise<void> {
    let commands: CommandInfo[] = [];
    try {
      const sessionId = this.model.current?.session.sessionId;
      ({ commands } = await this.request(Methods.listCommands, sessionId ? { sessionId } : {}));
    } catch (e) {
      this.output.warn(`could not list the slash commands: ${(e as Error).message}`);
    }
    this.view.post({ type: 'commands', commands });
  }

  private async askUser(p: AskUserParams, token: vscode.CancellationToken): Promise<AskUserResult> {
    if (!this.model.get(p.sessionId)) {
      const s = await this.request(Methods.loadSession, { sessionId: p.sessionId });
      this.model.loadMessages(s, s.messages ?? []);
    }
    this.model.ask(p);
    if (this.model.current?.session.sessionId !== p.sessionId) this.select(p.sessionId);
    this.refresh();
    void this.view.reveal();
    return new Promise<AskUserResult>((resolve) => {
      this.asks.set(p.questionId, { sessionId: p.sessionId, resolve });
      token.onCancellationRequested(() => {
        this.asks.delete(p.questionId);
        this.model.clearQuestion(p.sessionId, p.questionId);
        this.refresh();
        resolve({ dismissed: true });
      });
    });
  }

  private async answer(questionId: string, answers: Record<string, unknown>): Promise<void> {
    const st = this.model.current;
    if (!st) return;
    const ask = this.asks.get(questionId);
    this.model.noteAnswer(st.session.sessionId, questionId, answers); // the asking row shows them, as after a reload
    this.model.clearQuestion(st.session.sessionId, questionId);
    this.refresh();
    if (ask) {
      this.asks.delete(questionId);
      ask.resolve({ answers });
      return;
    }
    try {
      // The conversation resumes as a background turn; its updates stream as usual.
      await this.request(Methods.answer, { sessionId: st.session.sessionId, questionId, answers });
    } catch (e) {
      this.error(e);
    }
    this.refresh();
  }

  private dismiss(questionId: string): void {
    const st = this.model.current;
    if (!st) return;
    const ask = this.asks.get(questionId);
    this.model.noteAnswer(st.session.sessionId, questionId, null);
    this.model.dismiss(st.session.sessionId, questionId);
    this.refresh();
    if (ask) {
      this.asks.delete(questionId);
      ask.resolve({ dismissed: true });
    }
  }

  /**
   * Decides the plan awaiting approval in chat `sessionId` (the current one when not given; the
   * panel names the chat and plan it showed, so a decision never lands on another). Approving goes
   * through the server's agentls.approvePlan, bound to the plan: when approving also grants
   * commands, the server puts the approval question up again, so no click grants them unseen.
   */
  private async resolvePlan(decision: 'approve' | 'reject', reason?: string, sessionId?: string, planFile?: string | null): Promise<void> {
    const st = sessionId ? this.model.get(sessionId) : this.model.current;
    if (!st) return;
    // An approval shown in the question bar is answered there (the first decision wins on the server).
    const q = st.question;
    if (q?.purpose === 'plan_approval' && this.asks.has(q.questionId)) {
      if (planFile && q.permission?.what && q.permission.what !== planFile) {
        void showWarning('agentls: the approval asked now is about another plan; decide it in the chat.');
        return;
      }
      const answers: Record<string, unknown> = { approve: decision === 'approve' };
      if (reason) answers.feedback = reason;
      await this.answer(q.questionId, answers);
      return;
    }
    // The plan the decision is about: the server refuses it when the chat awaits another now.
    const plan = planFile ?? st.awaitingApproval?.planFile;
    try {
      if (decision === 'approve') {
        const params: PlanDecisionParams = { sessionId: st.session.sessionId };
        if (plan) params.planFile = plan;
        const res = (await vscode.commands.executeCommand(Commands.approvePlan, params)) as ApprovePlanResult | undefined;
        if (res?.asked) return; // the question is up again, with what approving grants
        if (res?.sessionId) this.model.upsertSession(res as Session);
        this.model.approvalResolved(st.session.sessionId);
      } else {
        const params: ResolvePlanParams = { sessionId: st.session.sessionId, decision, reason: reason || 'the user chose to keep planning' };
        if (plan) params.planFile = plan;
        const s = await this.request(Methods.resolvePlan, params);
        this.model.upsertSession(s);
        this.model.approvalResolved(s.sessionId);
      }
    } catch (e) {
      this.error(e);
    }
    this.refresh();
  }

  /** "Request changes": the plan awaiting approval goes back to the planner with its open review comments as the reason. */
  private async requestChanges(): Promise<void> {
    const st = this.model.current;
    if (!st) return;
    try {
      // The server's command (the language client registered it for the plan's lenses).
      await vscode.commands.executeCommand(Commands.requestChanges, { sessionId: st.session.sessionId });
      this.model.approvalResolved(st.session.sessionId);
    } catch (e) {
      this.error(e);
    }
    this.refresh();
  }

  private async rejectPlanCommand(): Promise<void> {
    const reason = await vscode.window.showInputBox({ prompt: 'What should change in the plan?', placeHolder: 'the user chose to keep planning' });
    if (reason === undefined) return;
    await this.resolvePlan('reject', reason);
  }

  private async setMode(mode: Mode): Promise<void> {
    const st = this.model.current;
    const from = st ? st.session.mode : this.model.defaultMode;
    if (!(await confirmModeSwitch(from, mode, (msg, action) => showWarning(msg, { modal: true }, action), !!st?.busy))) return;
    if (!st) {
      this.model.defaultMode = mode;
      this.refresh();
      return;
    }
    try {
      const s = await this.request(Methods.setMode, { sessionId: st.session.sessionId, mode });
      this.model.upsertSession(s);
    } catch (e) {
      this.error(e);
    }
    this.refresh();
  }

  private switchMode(): Promise<void> {
    const st = this.model.current;
    return this.setMode(otherMode(st ? st.session.mode : this.model.defaultMode));
  }

  /** Switches the current session's review of edits (agent/setReview). */
  private async toggleReview(review?: 'off' | 'edits'): Promise<void> {
    const st = this.model.current;
    if (!st) return;
    const next = review ?? (st.session.review === 'edits' ? 'off' : 'edits');
    try {
      const r = await this.request(Methods.setReview, { sessionId: st.session.sessionId, review: next });
      st.session.review = r.review;
    } catch (e) {
      this.error(e);
    }
    this.refresh();
  }

  /** The text of a user item, and how many user items before it have the same text (Restore). */
  private userItem(itemId: string): { sessionId: string; text: string; nth: number } | undefined {
    const st = this.model.current;
    if (!st) return undefined;
    let nth = 0;
    const item = st.items.find((i) => i.id === itemId);
    if (!item || item.kind !== 'user') return undefined;
    for (const i of st.items) {
      if (i.id === itemId) break;
      if (i.kind === 'user' && i.text === item.text) nth++;
    }
    return { sessionId: st.session.sessionId, text: item.text, nth };
  }

  private async cancel(): Promise<void> {
    const st = this.model.current;
    if (!st) return;
    try {
      await this.request(Methods.cancel, { sessionId: st.session.sessionId });
    } catch (e) {
      this.error(e);
    }
  }

  private async setApiKey(): Promise<void> {
    const key = await vscode.window.showInputBox({
      prompt: 'API key for the model provider (kept in VS Code secret storage, given to the server in its environment)',
      password: true,
      ignoreFocusOut: true,
    });
    if (await storeApiKey(this.ext.secrets, key)) await this.restart();
  }

  private async sendSelection(): Promise<void> {
    if (!this.mentions.addSelection(vscode.window.activeTextEditor)) return;
    await this.view.reveal();
    this.refresh();
  }

  private async mention(): Promise<void> {
    if (!(await this.mentions.pick())) return; // cancelled: the typed @ stays, as text
    this.view.post({ type: 'insert', text: '' }); // the typed @ gives way to the chip
    this.refresh();
  }

  private async openPlan(planFile: string): Promise<void> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(root, planFile));
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /**
   * Shows a file the server named at a line (from 1): path as the server takes it, workspace-relative
   * (to the first folder, or to another folder of a multi-root workspace), absolute or a file:// URI.
   */
  private async openProblem(path: string, line: number): Promise<void> {
    try {
      const uri = await fileUri(path);
      if (!uri) return;
      const doc = await vscode.workspace.openTextDocument(uri);
      const at = new vscode.Position(Math.max(0, line - 1), 0);
      await vscode.window.showTextDocument(doc, { preview: false, selection: new vscode.Range(at, at) });
    } catch (e) {
      this.error(e);
    }
  }

  private async save(uris: string[]): Promise<void> {
    for (const u of uris) {
      if (this.reencoded.has(u)) {
        warnLeftUnsaved(u);
        continue;
      }
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u);
      if (doc?.isDirty) await doc.save();
    }
  }

  private error(e: unknown): void {
    const msg = e instanceof Error ? e.message : String(e);
    this.output.error(msg);
    void showError(`agentls: ${msg}`, 'Show Log').then((a) => {
      if (a) this.output.show(true);
    });
  }

  private async onWebview(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.refresh();
        this.basics.post();
        break;
      case 'prompt':
        await this.prompt(m.text);
        break;
      case 'cancel':
        await this.cancel();
        break;
      case 'newChat':
        await this.newChat();
        break;
      case 'selectSession':
        try {
          if (!this.model.get(m.sessionId)?.loaded) await this.load(m.sessionId);
          else this.select(m.sessionId);
        } catch (e) {
          this.error(e);
        }
        break;
      case 'setMode':
        await this.setMode(m.mode);
        break;
      case 'answer':
        await this.answer(m.questionId, m.answers);
        break;
      case 'dismiss':
        this.dismiss(m.questionId);
        break;
      case 'resolvePlan':
        await this.resolvePlan(m.decision, m.reason, m.sessionId, m.planFile);
        break;
      case 'requestChanges':
        await this.requestChanges();
        break;
      case 'openPlan':
        await this.openPlan(m.planFile);
        break;
      case 'openProblem':
        await this.openProblem(m.path, m.line);
        break;
      case 'openFile':
        if (m.diff && this.review.canDiff(m.path)) await this.review.diff(m.path);
        else await this.openProblem(m.path, 1);
        break;
      case 'mention':
        await this.mention();
        break;
      case 'clearContext':
        this.mentions.remove(m.index);
        this.refresh();
        break;
      case 'listCommands':
        await this.listCommands();
        break;
      case 'restore': {
        const u = this.userItem(m.itemId);
        if (u) await this.review.restore(u.sessionId, u.text, u.nth);
        break;
      }
      case 'diffFile':
        await this.review.diff(m.path);
        break;
      case 'keepFile':
        this.review.keep(m.path);
        break;
      case 'undoFile':
        await this.review.undo(m.path);
        break;
      case 'setReview':
        await this.toggleReview(m.review);
        break;
      case 'copyCode':
        await copyCode(m.text);
        break;
      case 'insertCode':
        await insertCode(m.text);
        break;
      case 'readPlan':
        await this.planTexts.read(m.planFile);
        break;
      default:
        await this.basics.onWebview(m);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** The URI of a file the server named (src/filePaths.ts): the first of its places that exists, else its most likely one. */
async function fileUri(path: string): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const uris = fileCandidates(path, folders.map((f) => ({ name: f.name, path: f.uri.path }))).map((c) =>
    'uri' in c ? vscode.Uri.parse(c.uri) : 'file' in c ? vscode.Uri.file(c.file) : folders[c.folder].uri.with({ path: c.path }),
  );
  if (uris.length <= 1) return uris[0];
  for (const uri of uris) {
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // not there: the next place
    }
  }
  return uris[0];
}
