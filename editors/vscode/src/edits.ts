// Which documents a workspace edit touches, so the extension can save them
// after the agent's edit was applied (agentls.saveAgentEdits).

/** The LSP WorkspaceEdit fields this module reads. */
export interface WireWorkspaceEdit {
  changes?: Record<string, unknown>;
  documentChanges?: (
    | { textDocument: { uri: string } }
    | { kind: 'create'; uri: string }
    | { kind: 'rename'; oldUri: string; newUri: string }
    | { kind: 'delete'; uri: string }
  )[];
}

/** The URIs whose documents hold the edit's result (deleted files excluded), each once. */
export function editedUris(edit: WireWorkspaceEdit): string[] {
  const out = new Set<string>();
  for (const uri of Object.keys(edit.changes ?? {})) out.add(uri);
  for (const dc of edit.documentChanges ?? []) {
    if ('textDocument' in dc) out.add(dc.textDocument.uri);
    else if (dc.kind === 'create') out.add(dc.uri);
    else if (dc.kind === 'rename') {
      out.delete(dc.oldUri);
      out.add(dc.newUri);
    } else if (dc.kind === 'delete') out.delete(dc.uri);
  }
  return [...out];
}
