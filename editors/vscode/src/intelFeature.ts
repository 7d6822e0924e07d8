// Answers agent/diagnostics and agent/navigate (docs/language-intel.md) from
// VS Code's own language support: every language server and extension the
// user has. Documents are opened without being shown.
import * as vscode from 'vscode';
import { announcedAfterEveryCheck, defaultLimit, DiagnosticVersions, checkNavigate, navigateCommand, toDiagnostic, toHover, toLocations, toSymbols, type VsHover, type VsLocation, type VsSymbol } from './intel';
import type { DiagnosticsParams, DiagnosticsResult, NavigateParams, NavigateResult } from './protocol.gen';

/** Which version of each document its diagnostics are for, kept from VS Code's events. */
export const diagnosticVersions = new DiagnosticVersions();

/** Follows the documents' changes and their diagnostics' (for diagnosticVersions). */
export function watchDiagnosticVersions(): vscode.Disposable {
  const before = new Map<string, number>();
  const version = (uri: vscode.Uri) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.version;
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenTextDocument((d) => {
      before.set(d.uri.toString(), d.version);
      diagnosticVersions.opened(d.uri.toString(), d.version);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length === 0) return;
      const u = e.document.uri.toString();
      diagnosticVersions.changed(u, e.document.version, before.get(u) ?? e.document.version - 1);
      before.set(u, e.document.version);
    }),
    vscode.languages.onDidChangeDiagnostics((e) => {
      for (const uri of e.uris) {
        const v = version(uri);
        if (v !== undefined) diagnosticVersions.diagnosticsChanged(uri.toString(), v);
      }
    }),
  );
}

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
    const found = vscode.languages.getDiagnostics(uri);
    res.diagnostics[u] = found.map(toDiagnostic);
    if (version !== undefined) res.versions[u] = diagnosticVersions.versionOf(uri.toString(), version, announcedAfterEveryCheck(found));
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
