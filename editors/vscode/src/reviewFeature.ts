// The review of the agent's edits in VS Code (docs/review.md): the
// applyEdit middleware that tells the server which changes the user
// declined in the Refactor Preview, the checkpoint documents the diffs
// show, the changes of the last turn (Diff / Keep / Undo) and "Restore" on a
// user message.

import * as vscode from 'vscode';
import { showInfo, showWarning } from './notify';
import { Methods, type Requests, type RewindParams, type RewindResult } from './protocol.gen';
export type { TurnChanges } from './review';
import {
  type AnnotatedEdit,
  type Declined,
  type Files,
  type TurnChanges,
  changeLabel,
  checkpointParams,
  checkpointScheme,
  checkpointUri,
  judgeDeclined,
  keptUris,
  reviewedChanges,
  rewoundMessage,
  undoRewindLabel,
  userMessageId,
} from './review';

/** What the feature needs of the controller. */
export interface ReviewHost {
  request<M extends keyof Requests>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']>;
  /** Reloads a session's conversation into the chat (after a rewind). */
  reload(sessionId: string): Promise<void>;
  /** Saves documents (agentls.saveAgentEdits). */
  save(uris: string[]): Promise<void>;
  saveEdits(): boolean;
  /** Shows the turn's changes in the chat view (null: none). */
  showChanges(changes: TurnChanges | null): void;
  log(message: string): void;
  error(e: unknown): void;
}

/** A loaded session's messages with their ids. */

export class ReviewFeature implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private changes: TurnChanges | null = null;

  constructor(private readonly host: ReviewHost) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(checkpointScheme, {
        provideTextDocumentContent: (uri) => this.checkpointText(uri),
      }),
    );
  }

  /** Whether an edit asks for review (change annotations with needsConfirmation). */
  reviews(edit: unknown): boolean {
    return reviewedChanges(edit as AnnotatedEdit).length > 0;
  }

  /**
   * The workspace/applyEdit middleware. A reviewed edit (change annotations
   * with needsConfirmation) is applied by VS Code (its Refactor Preview);
   * the answer then names the annotations declined and those partly
   * applied, judged on the files before and after; Discard declines all.
   */
  async applyEdit<R extends { applied: boolean } | Error>(edit: unknown, apply: () => Promise<R>): Promise<R | (R & { _agentls: Declined })> {
    const changes = reviewedChanges(edit as AnnotatedEdit);
    if (changes.length === 0) return apply();
    const before = await this.files(changes);
    const result = await apply();
    if (result instanceof Error) return result;
    const after = await this.files(changes);
    const d = judgeDeclined(changes, result.applied, before, after);
    if (d.declined.length || d.partly.length) this.host.log(`review: declined ${d.declined.join(', ') || 'none'}; partly ${d.partly.join(', ') || 'none'}`);
    if (result.applied && this.host.saveEdits()) await this.host.save(keptUris(changes, d));
    return { ...result, _agentls: d };
  }

  /** The texts and existence of the files the changes touch, now. */
  private async files(changes: ReturnType<typeof reviewedChanges>): Promise<Files> {
    const texts = new Map<string, string | undefined>();
    const exists = new Map<string, boolean>();
    const uris = new Set<string>();
    for (const c of changes) {
      if (c.kind === 'rename') {
        uris.add(c.oldUri);
        uris.add(c.newUri);
      } else uris.add(c.uri);
    }
    for (const u of uris) {
      const uri = vscode.Uri.parse(u);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      let found = !!open;
      if (!open) found = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
      exists.set(u, found);
      if (open) texts.set(u, open.getText());
      else if (found) texts.set(u, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    }
    return { text: (u) => texts.get(u), exists: (u) => exists.get(u) ?? false };
  }

  /** The content of an agentls-checkpoint: document (agent/checkpointFile). */
  private async checkpointText(uri: vscode.Uri): Promise<string> {
    const p = checkpointParams(uri.query);
    if (!p) return '';
    try {
      const r = await this.host.request(Methods.checkpointFile, p);
      if (!r.exists) return '';
      return r.text ?? '(this file was not kept by the checkpoint: binary or over 1 MiB)';
    } catch (e) {
      return `(the checkpoint cannot be read: ${(e as Error).message})`;
    }
  }

  /** After a turn: the files it changed, for the changes panel. */
  async turnEnded(sessionId: string): Promise<void> {
    try {
      const loaded = await this.host.request(Methods.loadSession, { sessionId });
      const users = (loaded.messages ?? []).filter((m) => m.role === 'user' && m.id);
      const last = users[users.length - 1];
      if (!last?.id) return;
      await this.showTurn(sessionId, last.id);
    } catch (e) {
      this.host.log(`the turn's changes are unknown: ${(e as Error).message}`);
    }
  }

  private async showTurn(sessionId: string, messageId: string): Promise<void> {
    const { files } = await this.host.request(Methods.changedFiles, { sessionId, messageId });
    this.changes = files.length ? { sessionId, messageId, files: files.map((f) => ({ ...f, label: changeLabel(f) })) } : null;
    this.host.showChanges(this.changes);
  }

  /** Diff of a file against the turn's checkpoint. */
  /** Whether the last turn's changes hold path (a tool row's link then opens its diff). */
  canDiff(path: string): boolean {
    return !!this.changes?.files.some((f) => f.path === path);
  }

  async diff(path: string): Promise<void> {
    const c = this.changes;
    if (!c) return;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) return;
    const left = vscode.Uri.from(checkpointUri(c.sessionId, c.messageId, path));
    const right = path.startsWith('/') ? vscode.Uri.file(path) : vscode.Uri.joinPath(root, path);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${path} (before the turn ↔ now)`);
  }

  /** Keep: the change stays; the panel stops offering it. */
  keep(path?: string): void {
    const c = this.changes;
    if (!c) return;
    c.files = path ? c.files.filter((f) => f.path !== path) : [];
    this.changes = c.files.length ? c : null;
    this.host.showChanges(this.changes);
  }

  /** Undo: a code rewind of the file (or of the whole turn) to the turn's checkpoint. */
  async undo(path?: string): Promise<void> {
    const c = this.changes;
    if (!c) return;
    try {
      const params: RewindParams = { sessionId: c.sessionId, toMessageId: c.messageId, what: 'code' };
      if (path) params.paths = [path];
      const res = await this.host.request(Methods.rewind, params);
      this.rewound(c.sessionId, res);
      await this.showTurn(c.sessionId, c.messageId);
    } catch (e) {
      this.host.error(e);
    }
  }

  /**
   * Restore: the code and the conversation as they were before the user
   * message (the nth with this text in the chat), then the chat reloads.
   */
  async restore(sessionId: string, text: string, nth: number): Promise<void> {
    try {
      const loaded = await this.host.request(Methods.loadSession, { sessionId });
      const id = userMessageId(loaded.messages ?? [], text, nth);
      if (!id) throw new Error('this message is not in the saved conversation');
      const pick = await showWarning(
        'Restore the files and the conversation to before this message? (Files changed by someone else are left as they are; the rewind itself can be undone.)',
        { modal: true },
        'Restore',
        'Restore the code only',
      );
      if (!pick) return;
      const what = pick === 'Restore' ? 'both' : 'code';
      const res = await this.host.request(Methods.rewind, { sessionId, toMessageId: id, what });
      this.rewound(sessionId, res);
      this.changes = null;
      this.host.showChanges(null);
      await this.host.reload(sessionId);
    } catch (e) {
      this.host.error(e);
    }
  }

  /**
   * After a rewind: the files it left alone (a warning), and what it restored
   * with a button that undoes it — a code rewind to the checkpoint taken just
   * before it (undoMessageId), itself undoable the same way.
   */
  private rewound(sessionId: string, res: RewindResult): void {
    if (res.conflicts.length) {
      void showWarning(`agentls: left as they are (changed by someone else): ${res.conflicts.map((x) => x.path).join(', ')}`);
    }
    const message = rewoundMessage(res);
    if (!message || !res.undoMessageId) return;
    const toMessageId = res.undoMessageId;
    void showInfo(message, undoRewindLabel).then(async (pick) => {
      if (pick !== undoRewindLabel) return;
      try {
        this.rewound(sessionId, await this.host.request(Methods.rewind, { sessionId, toMessageId, what: 'code' }));
        this.changes = null;
        this.host.showChanges(null);
      } catch (e) {
        this.host.error(e);
      }
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
