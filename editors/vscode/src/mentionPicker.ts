// The composer's mentions in the extension host: the @ picker (@selection,
// @problems, @plan, then the workspace's files without agentls's internals)
// and the list the chips show until the next prompt takes them
// (src/mentions.ts says how they travel).

import * as vscode from 'vscode';
import { attachment } from './flows';
import { addMention, chipOf, isInternal, isSlashCommand, type Mention, type MentionChip, mentionPrompt, pickerExclude, type ProblemFact, problemsMention } from './mentions';
import type { PromptParams } from './protocol';

type Pick = vscode.QuickPickItem & { make: () => Mention | undefined };

const severities: ProblemFact['severity'][] = ['error', 'warning', 'info', 'hint'];

/** The mentions of the next prompt. */
export class MentionList {
  private list: Mention[] = [];

  /** @param planFile the current session's plan, workspace-relative (null: none attached). */
  constructor(private readonly planFile: () => string | null) {}

  /** The chips the composer shows. */
  chips(): MentionChip[] {
    return this.list.map(chipOf);
  }

  /** Adds a mention (a second @ adds, never replaces). */
  add(m: Mention): void {
    this.list = addMention(this.list, m);
  }

  /** Removes the chip at index (all of them without one). */
  remove(index?: number): void {
    if (index === undefined) this.list = [];
    else this.list = this.list.filter((_, i) => i !== index);
  }

  /** The prompt's params with the mentions, which are then cleared; a slash command leaves them for the next prompt. */
  take(sessionId: string, text: string): PromptParams {
    if (isSlashCommand(text)) return { sessionId, text };
    const params = mentionPrompt(sessionId, text, this.list);
    this.list = [];
    return params;
  }

  /** Adds the editor's selection (the whole file when nothing is selected). */
  addSelection(ed: vscode.TextEditor | undefined): boolean {
    if (!ed) return false;
    this.add(selectionMention(ed));
    return true;
  }

  /** The @ picker; resolves to whether a mention was added. */
  async pick(): Promise<boolean> {
    const ed = vscode.window.activeTextEditor;
    const items: Pick[] = [];
    if (ed) {
      const rel = vscode.workspace.asRelativePath(ed.document.uri);
      const sel = ed.selection;
      items.push({
        label: '$(selection) @selection',
        description: sel.isEmpty ? `${rel} (nothing selected: the file)` : `${rel}:${sel.start.line + 1}-${sel.end.line + 1}`,
        make: () => selectionMention(ed),
      });
    }
    items.push({ label: '$(warning) @problems', description: "the workspace's errors and warnings", make: () => problemsMention(workspaceProblems()) });
    const plan = this.planFile() ?? activePlan();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (plan && root) items.push({ label: '$(checklist) @plan', description: plan, make: () => ({ kind: 'plan', uri: vscode.Uri.joinPath(root, plan).toString(), path: plan }) });
    items.push({ label: 'files', kind: vscode.QuickPickItemKind.Separator, make: () => undefined });
    const files = await vscode.workspace.findFiles('**/*', pickerExclude, 2000);
    for (const f of files) {
      const rel = vscode.workspace.asRelativePath(f);
      if (isInternal(rel)) continue;
      items.push({ label: rel, make: () => ({ kind: 'file', uri: f.toString(), path: rel }) });
    }
    const chosen = await vscode.window.showQuickPick(items, { placeHolder: 'Mention a file, @selection, @problems or @plan', matchOnDescription: true });
    if (!chosen) return false;
    const m = chosen.make();
    if (m) this.add(m);
    return true;
  }
}

/** The editor's selection as a mention (its file when nothing is selected). */
function selectionMention(ed: vscode.TextEditor): Mention {
  const rel = vscode.workspace.asRelativePath(ed.document.uri);
  const att = attachment(ed.document.uri.toString(), rel, ed.selection);
  return att.context.range ? { kind: 'selection', uri: att.context.uri, path: rel, range: att.context.range } : { kind: 'file', uri: att.context.uri, path: rel };
}

/** The workspace's diagnostics, as @problems lists them. */
function workspaceProblems(): ProblemFact[] {
  const out: ProblemFact[] = [];
  for (const [uri, diags] of vscode.languages.getDiagnostics()) {
    const path = vscode.workspace.asRelativePath(uri);
    if (isInternal(path)) continue;
    for (const d of diags) {
      const source = [d.source, typeof d.code === 'object' ? d.code.value : d.code].filter((x) => x !== undefined && x !== '').join(' ');
      out.push({ path, line: d.range.start.line + 1, severity: severities[d.severity] ?? 'info', message: d.message, ...(source ? { source } : {}) });
    }
  }
  return out;
}

/** The .plan document in the active editor, workspace-relative. */
function activePlan(): string | null {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.uri.path.endsWith('.plan') ? vscode.workspace.asRelativePath(doc.uri) : null;
}
