// What the chat's layout asks of the extension host: a code block's Copy
// (VS Code's clipboard) and Insert (at the cursor of the active editor), and
// the plan's text for the approval panel's rendered preview.

import * as vscode from 'vscode';
import { showInfo } from './notify';

/** Copies a code block to the clipboard. */
export async function copyCode(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  void vscode.window.setStatusBarMessage('agentls: code copied', 2000);
}

/**
 * Inserts a code block at the cursor (replacing the selection) of the active editor, or of the
 * first visible one when the focus is in the chat; says so when no editor is open.
 */
export async function insertCode(text: string): Promise<void> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) {
    void showInfo('agentls: open an editor to insert the code into.');
    return;
  }
  const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  await shown.edit((b) => {
    for (const sel of shown.selections) b.replace(sel, text);
  });
}

/**
 * The text of a plan (relative to the first workspace folder): the open document's when the plan
 * is open (the user's unsaved review comments included), else the file's; null if unreadable or
 * outside the workspace.
 */
export async function readPlan(planFile: string): Promise<string | null> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root || planFile.split(/[\\/]/).includes('..')) return null;
  const uri = vscode.Uri.joinPath(root, planFile);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return null;
  }
}
