// The editor's truth (docs/language-intel.md): VS Code's diagnostics and the
// results of its vscode.execute*Provider commands, as agent/diagnostics and
// agent/navigate answer them (the generated wire types). Pure: the shapes
// below are the parts of VS Code's objects read, so the mapping is tested
// without VS Code (intelFeature.ts calls the API).
import type { Diagnostic, Location, NavigateParams, Position, Range, SymbolLocation } from './protocol.gen';

/** A URI as VS Code's objects carry it (vscode.Uri). */
export interface UriLike {
  toString(): string;
}

/** vscode.Diagnostic, in the parts read. */
export interface VsDiagnostic {
  range: Range;
  message: string;
  /** vscode.DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
  source?: string;
  code?: string | number | { value: string | number };
}

/** vscode.Location or vscode.LocationLink. */
export type VsLocation = { uri: UriLike; range: Range } | { targetUri: UriLike; targetRange: Range; targetSelectionRange?: Range };

/** vscode.Hover. */
export interface VsHover {
  contents: ({ value: string } | string)[];
}

/** vscode.SymbolInformation and vscode.DocumentSymbol (the document symbol provider may give either). */
export interface VsSymbol {
  name: string;
  /** vscode.SymbolKind: LSP's SymbolKind less one. */
  kind: number;
  containerName?: string;
  location?: { uri: UriLike; range: Range };
  selectionRange?: Range;
  range?: Range;
  children?: VsSymbol[];
}

/** The most items an answer carries when the server gave no limit. */
export const defaultLimit = 50;

/** The command each agent/navigate op runs (symbols: document or workspace, by whether a uri is given). */
export function navigateCommand(p: NavigateParams): string {
  switch (p.op) {
    case 'definition':
      return 'vscode.executeDefinitionProvider';
    case 'references':
      return 'vscode.executeReferenceProvider';
    case 'implementation':
      return 'vscode.executeImplementationProvider';
    case 'hover':
      return 'vscode.executeHoverProvider';
    case 'symbols':
      return p.uri ? 'vscode.executeDocumentSymbolProvider' : 'vscode.executeWorkspaceSymbolProvider';
    default:
      throw new Error(`agent/navigate: unknown op ${JSON.stringify((p as { op: unknown }).op)}`);
  }
}

/** Checks the params an op needs (uri and position for the positional ops). */
export function checkNavigate(p: NavigateParams): void {
  navigateCommand(p);
  if (p.op !== 'symbols' && (!p.uri || !p.position)) throw new Error(`agent/navigate ${p.op}: needs uri and position`);
}

function plainRange(r: Range): Range {
  return { start: plainPosition(r.start), end: plainPosition(r.end) };
}

function plainPosition(p: Position): Position {
  return { line: p.line, character: p.character };
}

/** VS Code's diagnostic as the wire's (LSP severity: VS Code's plus one). */
export function toDiagnostic(d: VsDiagnostic): Diagnostic {
  const out: Diagnostic = { range: plainRange(d.range), severity: d.severity + 1, message: d.message };
  if (d.source) out.source = d.source;
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  if (code !== undefined && code !== '') out.code = String(code);
  return out;
}

/** A definition, reference or implementation result as the wire's locations (at most limit). */
export function toLocations(found: VsLocation[] | VsLocation | undefined | null, limit = defaultLimit): Location[] {
  const list = found ? (Array.isArray(found) ? found : [found]) : [];
  return list.slice(0, limit).map((l) =>
    'targetUri' in l
      ? { uri: l.targetUri.toString(), range: plainRange(l.targetSelectionRange ?? l.targetRange) }
      : { uri: l.uri.toString(), range: plainRange(l.range) },
  );
}

/** The hovers' text: each content's markdown, joined by a blank line. */
export function toHover(hovers: VsHover[] | undefined | null): string {
  return (hovers ?? [])
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
    .filter((t) => t.trim() !== '')
    .join('\n\n');
}

/** LSP's SymbolKind names (langpool's), from VS Code's kind (0 is file). */
const symbolKinds = [
  'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function',
  'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member', 'struct', 'event',
  'operator', 'type parameter',
];

/** A symbol kind's name ("symbol" when unknown). */
export function symbolKind(k: number): string {
  return symbolKinds[k] ?? 'symbol';
}

/** Symbols as the wire's: a document's outline flattened (children after their parent, named by it), at most limit. */
export function toSymbols(found: VsSymbol[] | undefined | null, documentUri: string | undefined, limit = defaultLimit): SymbolLocation[] {
  const out: SymbolLocation[] = [];
  const walk = (list: VsSymbol[], container: string | undefined): void => {
    for (const s of list) {
      if (out.length >= limit) return;
      // The name's range (selectionRange) when the provider gave one, else the whole declaration's.
      const uri = s.location?.uri.toString() ?? documentUri;
      const range = s.selectionRange ?? s.location?.range ?? s.range;
      const location: Location | undefined = uri && range ? { uri, range: plainRange(range) } : undefined;
      if (location) {
        const sym: SymbolLocation = { name: s.name, kind: symbolKind(s.kind), location };
        const c = s.containerName || container;
        if (c) sym.containerName = c;
        out.push(sym);
      }
      if (s.children?.length) walk(s.children, s.name);
    }
  };
  walk(found ?? [], undefined);
  return out;
}

/**
 * Whether the language support behind these diagnostics announces its list
 * after every check of the document, changed or not: VS Code's TypeScript
 * support (source "ts") does while its list is not empty, so with one of its
 * problems showing the answer to an edit always comes as an event.
 */
export function announcedAfterEveryCheck(diagnostics: readonly Pick<VsDiagnostic, 'source'>[]): boolean {
  return diagnostics.some((d) => d.source === 'ts');
}

/**
 * The version of a document's text its diagnostics are for. VS Code's
 * diagnostics carry no version: a document edited since its diagnostics last
 * changed reports the older version (the server waits for it: Settle in
 * docs/language-intel.md) until `quietMs` passed without a change, when the
 * language support is taken to have found nothing new (an unchanged list is
 * not announced again), unless its list is announced after every check
 * (announcedAfterEveryCheck): then only the answer's event ends the wait.
 *
 * A change of the diagnostics sooner than `minAnswerMs` after the document's
 * last change is taken to be for the text before that change: no answer to
 * the new text comes that soon (VS Code's TypeScript support asks tsserver
 * 200–800 ms after a change, sends the text with that request, and passes the
 * answer on 50 ms later, VS Code's event 50 ms after that), while an answer
 * to a request made before the change (TypeScript announces its unchanged
 * list again at every check, at times of its own) can arrive any moment.
 *
 * A document just opened (one the agent touches first, opened for the
 * question) reports the version before its text until its diagnostics first
 * change or `firstAnswerMs` passed: its language support has not looked at it
 * yet, and "no problems yet" taken for "no problems" would make every problem
 * it already had come back as new after the agent's first edit of it.
 */
export class DiagnosticVersions {
  /**
   * Each edited or just opened document's last change: its version, when, the
   * version the diagnostics were for then, the version before the change, and
   * how long a quiet time ends the wait.
   */
  private readonly edited = new Map<string, { version: number; at: number; before: number; previous: number; quietMs: number }>();
  private readonly diagnosed = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    readonly quietMs = 1000,
    readonly minAnswerMs = 300,
    readonly firstAnswerMs = 3000,
  ) {}

  /**
   * The document was opened (again) at `version`: its versions start over, so
   * what was known of the earlier ones is dropped, and it waits for its
   * language support's first look (any diagnostics change from now on is for
   * this text).
   */
  opened(uri: string, version: number): void {
    this.diagnosed.delete(uri);
    this.edited.set(uri, { version, at: this.now(), before: version - 1, previous: version, quietMs: this.firstAnswerMs });
  }

  /** The document changed to `version` (onDidChangeTextDocument); `before` is its version until then. */
  changed(uri: string, version: number, before: number): void {
    const prev = this.edited.get(uri);
    // The first change since the diagnostics: remember what they were for.
    const since = prev && (this.diagnosed.get(uri) ?? -1) < prev.version ? prev.before : before;
    // Not looked at since it was opened: the first look's time still applies.
    const quietMs = prev && !this.diagnosed.has(uri) ? prev.quietMs : this.quietMs;
    this.edited.set(uri, { version, at: this.now(), before: since, previous: before, quietMs });
  }

  /** The document's diagnostics changed while its text was at `version`. */
  diagnosticsChanged(uri: string, version: number): void {
    const e = this.edited.get(uri);
    const tooSoon = e !== undefined && e.version === version && this.now() - e.at < this.minAnswerMs;
    this.diagnosed.set(uri, tooSoon ? e.previous : version);
  }

  /**
   * The version to report for a document now at `version`; `alwaysAnnounced`:
   * its language support announces its list after every check (no quiet time).
   */
  versionOf(uri: string, version: number, alwaysAnnounced = false): number {
    const e = this.edited.get(uri);
    if (!e || e.version !== version) return version;
    if ((this.diagnosed.get(uri) ?? -1) >= version) return version;
    return !alwaysAnnounced && this.now() - e.at >= e.quietMs ? version : e.before;
  }
}

// ---- TypeScript's problems of a document not shown in a tab ----
//
// VS Code's TypeScript support only checks the documents shown in an editor
// tab (extensions/typescript-language-features, bufferSyncSupport.ts
// shouldValidate: "Only validate resources that are showing to the user"),
// so getDiagnostics of a TypeScript or JavaScript document the agent edits
// without a tab never holds TypeScript's problems. For those documents the
// extension asks tsserver itself through the TypeScript extension's
// `typescript.tsserverRequest` command (its allow-list has the
// *DiagnosticsSync requests) and maps the answer as the TypeScript
// extension maps its own (typeScriptServiceClientHost.ts
// tsDiagnosticToVsDiagnostic, diagnostics.ts): a problem looks the same
// whichever way it came.

/** The language ids VS Code's TypeScript support checks (its standardLanguageDescriptions). */
export const typeScriptLanguageIds: readonly string[] = ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'];

/** The source the TypeScript extension gives its problems of TypeScript and JavaScript (diagnosticSource). */
export const typeScriptSource = 'ts';

/** The tsserver requests asked, in the order the TypeScript extension lists their problems. */
export const typeScriptRequests = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'] as const;

/** How a document's problems are read: VS Code's (getDiagnostics) or tsserver's through the TypeScript extension. */
export type DiagnosticsPath = 'editor' | 'tsserver';

/**
 * The path for a document: tsserver's for a TypeScript or JavaScript
 * document shown in no tab (`tabUris`: the documents of every text and diff
 * tab), VS Code's for every other (a tab's: TypeScript checks it and
 * DiagnosticVersions follows its answers).
 */
export function diagnosticsPath(languageId: string, uri: string, tabUris: ReadonlySet<string>): DiagnosticsPath {
  return typeScriptLanguageIds.includes(languageId) && !tabUris.has(uri) ? 'tsserver' : 'editor';
}

/** The configuration section of a document's TypeScript settings (the extension's language description id). */
export function typeScriptSection(languageId: string): 'typescript' | 'javascript' {
  return languageId.startsWith('javascript') ? 'javascript' : 'typescript';
}

/** tsserver's protocol.Diagnostic, in the parts read (line and offset from 1, offset in UTF-16 units). */
export interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  /** "error", "warning", "suggestion" or "message". */
  category: string;
  source?: string;
  reportsUnnecessary?: unknown;
  reportsDeprecated?: unknown;
}

/** The TypeScript extension's settings that decide which of tsserver's problems it shows, and how. */
export interface TypeScriptSettings {
  /** <section>.validate.enable: nothing is shown when off. */
  validate: boolean;
  /** <section>.suggestionActions.enabled: when off, only the unused and deprecated suggestions are shown. */
  suggestionActions: boolean;
  /** <section>.showUnused and .showDeprecated: when off, those hints are not shown. */
  showUnused: boolean;
  showDeprecated: boolean;
  /** typescript.reportStyleChecksAsWarnings: the style checks' errors are warnings. */
  reportStyleChecksAsWarnings: boolean;
}

/** The settings' defaults (the TypeScript extension's). */
export const defaultTypeScriptSettings: TypeScriptSettings = { validate: true, suggestionActions: true, showUnused: true, showDeprecated: true, reportStyleChecksAsWarnings: true };

/** The style checks reportStyleChecksAsWarnings makes warnings (unused, unreachable, fallthrough, not all paths return). */
const styleCheckCodes = new Set([6133, 6196, 6138, 6192, 7027, 7028, 7029, 7030]);

/** A VS Code diagnostic as the TypeScript extension makes it, with its unused and deprecated marks. */
export interface TsVsDiagnostic extends VsDiagnostic {
  unnecessary: boolean;
  deprecated: boolean;
}

/** tsserver's diagnostic as the TypeScript extension turns it into VS Code's (tsDiagnosticToVsDiagnostic). */
export function fromTsDiagnostic(d: TsDiagnostic, settings: Pick<TypeScriptSettings, 'reportStyleChecksAsWarnings'> = defaultTypeScriptSettings): TsVsDiagnostic {
  let severity: number;
  if (settings.reportStyleChecksAsWarnings && d.category === 'error' && typeof d.code === 'number' && styleCheckCodes.has(d.code)) severity = 1;
  else if (d.category === 'warning') severity = 1;
  else if (d.category === 'suggestion') severity = 3;
  else severity = 0; // error and message
  const out: TsVsDiagnostic = {
    range: { start: { line: d.start.line - 1, character: d.start.offset - 1 }, end: { line: d.end.line - 1, character: d.end.offset - 1 } },
    message: d.text,
    severity,
    source: d.source || typeScriptSource,
    unnecessary: !!d.reportsUnnecessary,
    deprecated: !!d.reportsDeprecated,
  };
  if (d.code) out.code = d.code;
  return out;
}

/** The body of a successful tsserver response (`{type: 'response', success: true, body: [...]}`), else undefined. */
export function tsResponseBody(res: unknown): TsDiagnostic[] | undefined {
  if (typeof res !== 'object' || res === null) return undefined;
  const r = res as { type?: unknown; success?: unknown; body?: unknown };
  if (r.type !== 'response' || r.success !== true || !Array.isArray(r.body)) return undefined;
  const ok = r.body.every((d) => {
    const x = d as Partial<TsDiagnostic> | null;
    return typeof x === 'object' && x !== null && typeof x.text === 'string' && typeof x.category === 'string' && isLocation(x.start) && isLocation(x.end);
  });
  return ok ? (r.body as TsDiagnostic[]) : undefined;
}

function isLocation(l: unknown): boolean {
  const x = l as { line?: unknown; offset?: unknown } | null | undefined;
  return typeof x === 'object' && x !== null && Number.isInteger(x.line) && Number.isInteger(x.offset);
}

/**
 * The problems the TypeScript extension would show for the document from
 * tsserver's answers to typeScriptRequests (syntactic, semantic, suggestion),
 * filtered by its settings as it filters them (languageProvider.ts
 * diagnosticsReceived, diagnostics.ts getAllDiagnostics).
 */
export function typeScriptProblems(answers: { syntactic: TsDiagnostic[]; semantic: TsDiagnostic[]; suggestion: TsDiagnostic[] }, settings: TypeScriptSettings): VsDiagnostic[] {
  if (!settings.validate) return [];
  const shown = (d: TsVsDiagnostic) => !((!settings.showUnused && d.unnecessary && d.severity === 3) || (!settings.showDeprecated && d.deprecated && d.severity === 3));
  const map = (ds: TsDiagnostic[]) => ds.map((d) => fromTsDiagnostic(d, settings)).filter(shown);
  const suggestions = map(answers.suggestion).filter((d) => settings.suggestionActions || d.unnecessary || d.deprecated);
  return [...map(answers.syntactic), ...map(answers.semantic), ...suggestions].map(({ unnecessary: _u, deprecated: _d, ...d }) => d);
}

/** A document's problems and the version of its text they are for. */
export interface DocumentProblems {
  diagnostics: VsDiagnostic[];
  version: number;
}

/**
 * A TypeScript or JavaScript document's answer on the tsserver path.
 * `responses`: the command's results for typeScriptRequests, in order
 * (undefined when it failed); `editor`: getDiagnostics of the document;
 * `version`: the document's version when tsserver was asked.
 *
 * tsserver answered all three: its problems and every other source's from
 * VS Code (a TypeScript problem VS Code still holds is an old list's), for
 * `version` (exact: the TypeScript extension sends the document's changes
 * before a request). Otherwise VS Code's list, which lacks TypeScript's
 * problems of a document in no tab, for the version before `version`: the
 * server waits for an answer that does not come and reports the list as
 * not settled instead of clean.
 */
export function typeScriptAnswer(responses: readonly unknown[] | undefined, editor: readonly VsDiagnostic[], settings: TypeScriptSettings, version: number): DocumentProblems {
  const bodies = (responses ?? []).map(tsResponseBody);
  if (bodies.length !== typeScriptRequests.length || bodies.some((b) => b === undefined)) return { diagnostics: [...editor], version: version - 1 };
  const [syntactic, semantic, suggestion] = bodies as TsDiagnostic[][];
  const ts = typeScriptProblems({ syntactic, semantic, suggestion }, settings);
  const tsSources = new Set([typeScriptSource, ...ts.map((d) => d.source)]);
  return { diagnostics: [...ts, ...editor.filter((d) => !tsSources.has(d.source ?? ''))], version };
}
