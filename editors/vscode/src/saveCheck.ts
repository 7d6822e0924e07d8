// The documents an agent edit touches that VS Code would re-encode on save
// (savedForm.ts): looked at before the edit applies, left unsaved after it,
// with a warning naming each.

import * as vscode from 'vscode';
import { showWarning } from './notify';
import { askedWhy, openedText, savesBack } from './savedForm';

/**
 * The URIs among uris whose document is open and would not save back the
 * bytes on disk (a file VS Code decoded: not UTF-8, a lone CR or mixed line
 * breaks). A document with unsaved changes (an earlier agent edit left
 * unsaved, the user's typing) is judged by the text VS Code opens the file
 * with: saved, it would re-encode the file just the same. Read before the
 * edit applies.
 */
export async function reencodedOnSave(uris: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const u of uris) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u);
    if (!doc || doc.uri.scheme !== 'file') continue;
    const disk = await Promise.resolve(vscode.workspace.fs.readFile(doc.uri)).catch(() => undefined);
    if (!disk) continue;
    const text = doc.isDirty ? openedText(disk, doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n') : doc.getText();
    if (!savesBack(disk, text)) out.add(u);
  }
  return out;
}

/**
 * Says that the agent's edit of uri stays unsaved, and why. A notification
 * with a button is shown whole (VS Code cuts one without to a line).
 */
export function warnLeftUnsaved(uri: string): void {
  const name = vscode.workspace.asRelativePath(vscode.Uri.parse(uri));
  void showWarning(
      `agentls left ${name} unsaved: VS Code decoded it (bytes that are not UTF-8, or line breaks it makes one kind), so saving would rewrite the whole file. The file on disk is unchanged; save it yourself to keep the edit as VS Code encodes it, or revert it.`,
      'Show File',
    )
    .then(async (a) => {
      if (a) await vscode.window.showTextDocument(vscode.Uri.parse(uri), { preview: false });
    });
}

/** Where docs/review.md explains why a change to a file the editor runs by itself is asked. */
const askedDocs = 'https://github.com/agentls/agentls/blob/main/docs/review.md#files-your-editor-runs-by-itself-always-asked';

/**
 * Shows why a change the user did not ask to review is asked (a file the
 * editor runs by itself): the Refactor Preview shows its annotation's label
 * only on hover. The button keeps the notification whole.
 */
export function showAskedWhy(edit: { changeAnnotations?: Record<string, { label: string; needsConfirmation?: boolean }> }): void {
  const seen = new Set<string>();
  for (const a of Object.values(edit.changeAnnotations ?? {})) {
    const asked = a.needsConfirmation ? askedWhy(a.label) : undefined;
    if (!asked || seen.has(a.label)) continue;
    seen.add(a.label);
    void showWarning(`agentls asks before it applies: ${asked.what} — ${asked.why}. Check it in the Refactor Preview: Apply what you checked, or Discard.`, 'Learn More')
      .then(async (a) => {
        if (a) await vscode.env.openExternal(vscode.Uri.parse(askedDocs));
      });
  }
}
