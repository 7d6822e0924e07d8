// Answers agent/diagnostics and agent/navigate (docs/language-intel.md) from
// VS Code's own language support: every language server and extension the
// user has. Documents are opened without being shown.
import * as vscode from 'vscode';
import { defaultLimit, checkNavigate, navigateCommand, toDiagnostic, toHover, toLocations, toSymbols, type VsHover, type VsLocation, type VsSymbol } from './intel';
import type { DiagnosticsParams, DiagnosticsResult, NavigateParams, NavigateResult } from './protocol.gen';

/** agent/diagnostics: each document's current problems and the version of the text they are for. */
export async function answerDiagnostics(p: DiagnosticsParams): Promise<DiagnosticsResult> {
  const res: DiagnosticsResult = { diagnostics: {}, versions: {} };
  for (const u of p.uris ?? []) {
    const uri = vscode.Uri.parse(u, true);
    let version: number | undefined;
    try {
      // Opening (not showing) the document lets the language support see it.
      version = (await vscode.workspace.openTextDocument(uri)).version;
    } catch {
      // A file that is gone has no problems and no version.
    }
    res.diagnostics[u] = vscode.languages.getDiagnostics(uri).map(toDiagnostic);
    if (version !== undefined) res.versions[u] = version;
  }
  return res;
}

/** agent/navigate: the definition, references, implementation, hover or symbols VS Code's providers give. */
export async function answerNavigate(p: NavigateParams): Promise<NavigateResult> {
  checkNavigate(p);
  const limit = p.limit && p.limit > 0 ? p.limit : defaultLimit;
  const command = navigateCommand(p);
  if (p.op === 'symbols' && !p.uri) {
    const found = await vscode.commands.executeCommand<VsSymbol[]>(command, p.query ?? '');
    return { symbols: toSymbols(found, undefined, limit) };
  }
  const uri = vscode.Uri.parse(p.uri as string, true);
  await vscode.workspace.openTextDocument(uri);
  if (p.op === 'symbols') {
    const found = await vscode.commands.executeCommand<VsSymbol[]>(command, uri);
    return { symbols: toSymbols(found, uri.toString(), limit) };
  }
  const pos = new vscode.Position(p.position!.line, p.position!.character);
  if (p.op === 'hover') {
    const found = await vscode.commands.executeCommand<VsHover[]>(command, uri, pos);
    return { hover: toHover(found) };
  }
  const found = await vscode.commands.executeCommand<VsLocation[]>(command, uri, pos);
  return { locations: toLocations(found, limit) };
}
