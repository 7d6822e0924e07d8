// Answers agent/diagnostics and agent/navigate (docs/language-intel.md) from
// VS Code's own language support: every language server and extension the
// user has. Documents are opened without being shown; TypeScript's problems of
// a TypeScript or JavaScript document in no tab come from tsserver through the
// TypeScript extension (which checks only the documents in tabs).
import * as vscode from 'vscode';
import {
  announcedAfterEveryCheck, defaultLimit, defaultTypeScriptSettings, DiagnosticVersions, checkNavigate, diagnosticsPath, navigateCommand, toDiagnostic, toHover, toLocations, toSymbols,
  typeScriptAnswer, typeScriptRequests, typeScriptSection, type DocumentProblems, type TypeScriptSettings, type VsHover, type VsLocation, type VsSymbol,
} from './intel';
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

/** A debug log line (the agentls output channel's debug level). */
export type DebugLog = (message: string) => void;

/**
 * agent/diagnostics: each document's current problems and the version of the
 * text they are for. `debug` gets the time each tsserver question took
 * (docs/language-intel.md, "What the tsserver path costs").
 */
export async function answerDiagnostics(p: DiagnosticsParams, debug?: DebugLog): Promise<DiagnosticsResult> {
  const started = performance.now();
  const res: DiagnosticsResult = { diagnostics: {}, versions: {} };
  const tabs = tabUris();
  for (const u of p.uris ?? []) {
    const uri = vscode.Uri.parse(u, true);
    let doc: vscode.TextDocument | undefined;
    try {
      // Opening (not showing) the document lets the language support see it.
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
      // A file that is gone has no problems and no version.
    }
    if (doc && diagnosticsPath(doc.languageId, doc.uri.toString(), tabs) === 'tsserver') {
      const found = await typeScriptProblemsOf(doc, debug);
      res.diagnostics[u] = found.diagnostics.map(toDiagnostic);
      res.versions[u] = found.version;
      continue;
    }
    const found = vscode.languages.getDiagnostics(uri);
    res.diagnostics[u] = found.map(toDiagnostic);
    if (doc) res.versions[u] = diagnosticVersions.versionOf(uri.toString(), doc.version, announcedAfterEveryCheck(found));
  }
  debug?.(`agent/diagnostics ${p.uris?.length ?? 0} file(s): ${(performance.now() - started).toFixed(1)} ms`);
  return res;
}

/** The documents shown in a text or diff tab (those VS Code's TypeScript support checks). */
function tabUris(): Set<string> {
  const out = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText) out.add(tab.input.uri.toString());
      else if (tab.input instanceof vscode.TabInputTextDiff) {
        out.add(tab.input.original.toString());
        out.add(tab.input.modified.toString());
      }
    }
  }
  return out;
}

/** The TypeScript extension's id (built in). */
const typeScriptExtension = 'vscode.typescript-language-features';

/**
 * A TypeScript or JavaScript document in no tab: tsserver's problems through
 * the TypeScript extension's typescript.tsserverRequest, with every other
 * source's from VS Code (typeScriptAnswer; it falls back to VS Code's list,
 * not settled, when the command does not answer).
 */
async function typeScriptProblemsOf(doc: vscode.TextDocument, debug?: DebugLog): Promise<DocumentProblems> {
  const version = doc.version;
  let responses: unknown[] | undefined;
  const started = performance.now();
  const answered: number[] = [];
  try {
    // The command exists once the extension is active (opening the document starts that, not waiting for it).
    const ext = vscode.extensions.getExtension(typeScriptExtension);
    if (ext && !ext.isActive) await ext.activate();
    // The file as a Uri: the extension syncs the document into tsserver first (toOpenTsFilePath).
    // tsserver answers one request at a time, in order: each one's time is from the question.
    responses = await Promise.all(
      typeScriptRequests.map((request, i) =>
        vscode.commands.executeCommand<unknown>('typescript.tsserverRequest', request, { file: doc.uri }).then((r) => {
          answered[i] = performance.now() - started;
          return r;
        }),
      ),
    );
  } catch {
    responses = undefined;
  }
  debug?.(`agent/diagnostics tsserver ${vscode.workspace.asRelativePath(doc.uri)} v${version}: ${typeScriptRequests.map((r, i) => `${r} ${answered[i]?.toFixed(1) ?? '-'} ms`).join(', ')}`);
  return typeScriptAnswer(responses, vscode.languages.getDiagnostics(doc.uri), typeScriptSettings(doc), version);
}

/** The TypeScript extension's settings for the document. */
function typeScriptSettings(doc: vscode.TextDocument): TypeScriptSettings {
  const c = vscode.workspace.getConfiguration(typeScriptSection(doc.languageId), doc.uri);
  const d = defaultTypeScriptSettings;
  return {
    validate: c.get('validate.enable', d.validate),
    suggestionActions: c.get('suggestionActions.enabled', d.suggestionActions),
    showUnused: c.get('showUnused', d.showUnused),
    showDeprecated: c.get('showDeprecated', d.showDeprecated),
    reportStyleChecksAsWarnings: vscode.workspace.getConfiguration('typescript', doc.uri).get('reportStyleChecksAsWarnings', d.reportStyleChecksAsWarnings),
  };
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
