// VS Code shows every text file left unsaved for 800 ms without an editor:
// its textFileEditorTracker (workbench/contrib/files) opens one as a pinned,
// inactive tab. An agent's edit of a file in no tab leaves it unsaved from
// the moment VS Code applies it until the extension's save
// (agentls.saveAgentEdits) reaches VS Code; on a loaded machine, or over a
// slow link to a remote extension host, that is longer, and the file the user
// never opened got a tab (seen in CI: intelUntabbed.test.ts). The tabs opened
// meanwhile for the edit's files that had none are closed once they are saved.

import * as vscode from 'vscode';
import { selfOpened } from './selfOpened';

/** The URI a text tab shows (undefined for other tabs). */
function tabUri(tab: vscode.Tab): string | undefined {
  return tab.input instanceof vscode.TabInputText ? tab.input.uri.toString() : undefined;
}

function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs);
}

/**
 * Starts watching the tabs opened for `uris` (an edit's documents, before it
 * applies). closeSaved, after the edit was applied and saved, stops watching
 * and closes the tabs opened meanwhile for those of them that had no tab
 * before and are saved now (a tab the user opened for one of them within that
 * moment is closed too: the file is saved, nothing is lost). log gets a line
 * for each closing.
 */
export function watchSelfOpened(uris: string[], log: (message: string) => void): { closeSaved(): Promise<void> } {
  const edited = uris.map((u) => vscode.Uri.parse(u).toString());
  const before = new Set(allTabs().map(tabUri).filter((u): u is string => !!u));
  const opened = new Set<string>();
  const sub = vscode.window.tabGroups.onDidChangeTabs((e) => {
    for (const t of e.opened) {
      const u = tabUri(t);
      if (u) opened.add(u);
    }
  });
  return {
    async closeSaved() {
      sub.dispose();
      if (opened.size === 0) return;
      const now = allTabs().flatMap((tab) => {
        const uri = tabUri(tab);
        if (!uri || !opened.has(uri)) return [];
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
        return [{ tab, uri, dirty: doc ? doc.isDirty : tab.isDirty }];
      });
      const close = selfOpened(edited, before, now);
      if (close.length === 0) return;
      log(`closing the tab VS Code opened for ${close.map((c) => vscode.workspace.asRelativePath(vscode.Uri.parse(c.uri))).join(', ')} while the agent's edit was unsaved`);
      await vscode.window.tabGroups.close(close.map((c) => c.tab), true);
    },
  };
}
