// Which tabs VS Code opened by itself for an agent's edit, to be closed once
// the edit is saved (src/selfOpenedTabs.ts has the why). No vscode import:
// unit-tested.

/** A tab as selfOpened reads it: the document it shows (a text tab's URI) and whether that holds unsaved changes. */
export interface TabFacts {
  uri?: string;
  dirty: boolean;
}

/**
 * The tabs among `opened` (those opened while the edit applied and was saved,
 * as they are now) that show one of the edit's documents (`edited`), which had
 * no tab before the edit (`before`), and that are saved: VS Code's tabs for
 * unsaved files, closed again. A document that stays unsaved (the extension
 * left it so, or saveAgentEdits is off) keeps its tab, as VS Code wants.
 */
export function selfOpened<T extends TabFacts>(edited: readonly string[], before: ReadonlySet<string>, opened: readonly T[]): T[] {
  const want = new Set(edited);
  return opened.filter((t) => t.uri !== undefined && want.has(t.uri) && !before.has(t.uri) && !t.dirty);
}
