// @-mentions: what the composer's chips stand for (files, @selection,
// @problems, @plan), which files the picker hides (agentls's own
// internals), and how the mentions ride on agent/prompt without changing
// its wire contract: the selection (else the first file) is the prompt's one
// `context` ({uri, range?}, rendered by the server as before), every other
// mention is named in a short block appended to the prompt's text. Pure: no
// vscode API (the controller gathers the editor's facts).

import type { PromptParams } from './protocol';

/** A zero-based range of a document (LSP's). */
export interface MentionRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** One mention of the composer. */
export type Mention =
  | { kind: 'file'; uri: string; path: string }
  | { kind: 'selection'; uri: string; path: string; range: MentionRange }
  | { kind: 'problems'; text: string; count: number; total: number }
  | { kind: 'plan'; uri: string; path: string };

/** A chip as the webview shows it. */
export interface MentionChip {
  kind: Mention['kind'];
  label: string;
  title: string;
}

/** At most this many problems ride with @problems. */
export const maxProblems = 50;

/** Path parts the @ picker never lists: agentls's chats, checkpoints and state, VCS and dependency folders. */
const hiddenDirs = ['.agentls', '.git', 'node_modules', '.hg', '.svn'];

/** The exclude glob for workspace.findFiles. */
export const pickerExclude = `**/{${hiddenDirs.join(',')}}/**`;

/** Whether a workspace-relative path is an internal the picker hides. */
export function isInternal(relPath: string): boolean {
  return relPath.split(/[\\/]/).some((p) => hiddenDirs.includes(p));
}

/** The chip of a mention: "main.go", "main.go:3-5", "problems (4)", "plan shout.plan". */
export function chipOf(m: Mention): MentionChip {
  switch (m.kind) {
    case 'file':
      return { kind: m.kind, label: m.path, title: m.path };
    case 'selection':
      return { kind: m.kind, label: `${m.path}:${m.range.start.line + 1}-${m.range.end.line + 1}`, title: `Selection in ${m.path}, lines ${m.range.start.line + 1}-${m.range.end.line + 1}` };
    case 'problems':
      return { kind: m.kind, label: `problems (${m.total})`, title: m.count < m.total ? `The first ${m.count} of the workspace's ${m.total} problems` : `The workspace's ${m.total} problems` };
    case 'plan':
      return { kind: m.kind, label: `plan ${m.path.split('/').pop()}`, title: m.path };
  }
}

/** The key two equal mentions share (a second @ of the same thing adds nothing). */
function keyOf(m: Mention): string {
  switch (m.kind) {
    case 'file':
    case 'plan':
      return `${m.kind}:${m.path}`;
    case 'selection':
      return `selection:${m.path}:${JSON.stringify(m.range)}`;
    case 'problems':
      return 'problems';
  }
}

/** The list with m added: at the end, replacing an earlier @problems (a newer list) or the same mention. */
export function addMention(list: readonly Mention[], m: Mention): Mention[] {
  const k = keyOf(m);
  return [...list.filter((x) => keyOf(x) !== k), m];
}

/** One diagnostic as the controller reads it from vscode.languages.getDiagnostics. */
export interface ProblemFact {
  path: string;
  /** From 1. */
  line: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
}

const severityOrder = { error: 0, warning: 1, info: 2, hint: 3 };

/** The @problems mention: errors first, then warnings, at most max of them, one line each. */
export function problemsMention(problems: ProblemFact[], max = maxProblems): Mention {
  const sorted = [...problems].sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
  const shown = sorted.slice(0, max);
  const lines = shown.map((p) => `  - ${p.path}:${p.line} ${p.severity}: ${p.message.split('\n')[0]}${p.source ? ` (${p.source})` : ''}`);
  return { kind: 'problems', text: lines.join('\n'), count: shown.length, total: problems.length };
}

/** The block appended to the prompt for the mentions the context does not carry ("" when none). */
export function mentionsBlock(mentions: readonly Mention[]): string {
  if (mentions.length === 0) return '';
  const out: string[] = [];
  for (const m of mentions) {
    switch (m.kind) {
      case 'file':
        out.push(`- @${m.path}`);
        break;
      case 'plan':
        out.push(`- @${m.path} (the plan)`);
        break;
      case 'selection':
        out.push(`- @${m.path}:${m.range.start.line + 1}-${m.range.end.line + 1} (a selection)`);
        break;
      case 'problems':
        out.push(m.total === 0 ? '- @problems: VS Code reports no problems' : `- @problems: VS Code reports ${m.total} problem${m.total === 1 ? '' : 's'}${m.count < m.total ? ` (the first ${m.count})` : ''}:\n${m.text}`);
        break;
    }
  }
  return `\n\nAttached by the user:\n${out.join('\n')}`;
}

/** Whether a prompt is a slash command (the server runs it; `//` sends a literal slash): mentions do not ride on one. */
export function isSlashCommand(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('/') && !t.startsWith('//');
}

/**
 * The agent/prompt params for text and the mentions: the selection (else
 * the first file) is the prompt's context, as a single attachment always
 * was; the others are named in the text.
 */
export function mentionPrompt(sessionId: string, text: string, mentions: readonly Mention[]): PromptParams {
  const params: PromptParams = { sessionId, text };
  const carried = mentions.find((m) => m.kind === 'selection') ?? mentions.find((m) => m.kind === 'file');
  if (carried && (carried.kind === 'selection' || carried.kind === 'file')) {
    params.context = carried.kind === 'selection' ? { uri: carried.uri, range: carried.range } : { uri: carried.uri };
  }
  params.text = text + mentionsBlock(mentions.filter((m) => m !== carried));
  return params;
}
