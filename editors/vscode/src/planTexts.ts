// The plan texts the chat shows in its approvals (webview/approvalPanel.ts),
// kept current: the webview asks for a plan's text once (readPlan), and each
// later change of that plan, in its editor or on disk, sends the text again.
// An approval never shows text the plan no longer holds.

import * as vscode from 'vscode';
import { readPlan } from './layoutFeature';

/** Sends the chat each plan's text it asked for, and again whenever that plan changes. */
export class PlanTexts implements vscode.Disposable {
  /** The plans the chat asked for (workspace-relative), each with the number of its newest read. */
  private readonly reads = new Map<string, number>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly post: (planFile: string, text: string | null) => void) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.plan');
    this.disposables.push(
      watcher,
      watcher.onDidChange((u) => this.changed(u)),
      watcher.onDidCreate((u) => this.changed(u)),
      watcher.onDidDelete((u) => this.changed(u)),
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e.document.uri)),
    );
  }

  /** Reads planFile and sends its text; later changes of it are sent too. */
  async read(planFile: string): Promise<void> {
    const n = (this.reads.get(planFile) ?? 0) + 1;
    this.reads.set(planFile, n);
    const text = await readPlan(planFile);
    if (this.reads.get(planFile) === n) this.post(planFile, text); // an older read never overwrites a newer one
  }

  private changed(uri: vscode.Uri): void {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root || uri.scheme !== root.scheme) return;
    const prefix = root.path.endsWith('/') ? root.path : `${root.path}/`;
    if (!uri.path.startsWith(prefix)) return;
    const rel = uri.path.slice(prefix.length);
    if (this.reads.has(rel)) void this.read(rel);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
