// Review of the agent's edits (docs/review.md): which change annotations of a
// workspace edit the user declined in VS Code's Refactor Preview, the
// checkpoint documents the diffs show, and the words of the changes panel.
// Pure (no vscode API): the controller feeds it the documents' texts.

/** A position and a range as LSP sends them (UTF-16 code units, as JS strings count). */
export interface WirePosition {
  line: number;
  character: number;
}
export interface WireTextEdit {
  range: { start: WirePosition; end: WirePosition };
  newText: string;
  annotationId?: string;
}

/** The parts of a WorkspaceEdit the review reads. */
export interface AnnotatedEdit {
  documentChanges?: (
    | { textDocument: { uri: string }; edits: WireTextEdit[] }
    | { kind: 'create'; uri: string; annotationId?: string }
    | { kind: 'rename'; oldUri: string; newUri: string; annotationId?: string }
    | { kind: 'delete'; uri: string; annotationId?: string }
  )[];
  changeAnnotations?: Record<string, { label: string; needsConfirmation?: boolean }>;
}

/** One reviewed change, as the judge needs it. */
export type ReviewedChange =
  | { annotationId: string; kind: 'text'; uri: string; edits: WireTextEdit[] }
  | { annotationId: string; kind: 'create'; uri: string }
  | { annotationId: string; kind: 'delete'; uri: string }
  | { annotationId: string; kind: 'rename'; oldUri: string; newUri: string };

/**
 * The changes of an edit that carry a change annotation asking for
 * confirmation; empty when it asks none (the edit is not reviewed).
 */
export function reviewedChanges(edit: AnnotatedEdit): ReviewedChange[] {
  const confirm = (id: string | undefined): id is string => !!id && !!edit.changeAnnotations?.[id]?.needsConfirmation;
  const out: ReviewedChange[] = [];
  for (const dc of edit.documentChanges ?? []) {
    if ('textDocument' in dc) {
      const id = dc.edits.find((e) => e.annotationId)?.annotationId;
      if (confirm(id)) out.push({ annotationId: id, kind: 'text', uri: dc.textDocument.uri, edits: dc.edits });
    } else if (confirm(dc.annotationId)) {
      out.push({ ...dc, annotationId: dc.annotationId } as ReviewedChange);
    }
  }
  return out;
}

/** The text after applying LSP text edits (non-overlapping, as LSP requires) to text. */
export function applyTextEdits(text: string, edits: WireTextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p: WirePosition) => {
    if (p.line >= starts.length) return text.length;
    const lineEnd = p.line + 1 < starts.length ? starts[p.line + 1] - 1 : text.length;
    return Math.min(starts[p.line] + p.character, lineEnd);
  };
  const sorted = edits
    .map((e, i) => ({ from: offset(e.range.start), to: offset(e.range.end), text: e.newText, i }))
    .sort((a, b) => b.from - a.from || b.i - a.i);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

/** What the files are, before or after the edit: a document's text (undefined: no such file), and whether a path exists. */
export interface Files {
  text(uri: string): string | undefined;
  exists(uri: string): boolean;
}

/** The extension's answer's `_agentls`: the annotations declined, and those only partly applied. */
export interface Declined {
  declined: string[];
  partly: string[];
}

/**
 * Which annotations the user declined, comparing the files before and after
 * VS Code applied the edit: a file as before is declined, as the edit makes
 * it applied, anything else partly applied. `applied: false` (Discard)
 * declines every one.
 */
export function judgeDeclined(changes: ReviewedChange[], applied: boolean, before: Files, after: Files): Declined {
  const state = new Map<string, { applied: boolean; untouched: boolean }>();
  for (const c of changes) {
    const s = state.get(c.annotationId) ?? { applied: true, untouched: true };
    switch (c.kind) {
      case 'text': {
        const was = before.text(c.uri); // undefined: a file the edit creates (it starts empty)
        const now = after.text(c.uri);
        s.applied &&= now !== undefined && now === applyTextEdits(was ?? '', c.edits);
        s.untouched &&= now === was;
        break;
      }
      case 'create':
        s.applied &&= after.exists(c.uri);
        s.untouched &&= !after.exists(c.uri);
        break;
      case 'delete':
        s.applied &&= !after.exists(c.uri);
        s.untouched &&= after.exists(c.uri);
        break;
      case 'rename':
        s.applied &&= after.exists(c.newUri) && !after.exists(c.oldUri);
        s.untouched &&= after.exists(c.oldUri);
        break;
    }
    state.set(c.annotationId, s);
  }
  const out: Declined = { declined: [], partly: [] };
  for (const [id, s] of state) {
    if (!applied || (!s.applied && s.untouched)) out.declined.push(id);
    else if (!s.applied) out.partly.push(id);
  }
  return out;
}

/** The URIs of the changes the user kept (to save them). */
export function keptUris(changes: ReviewedChange[], d: Declined): string[] {
  const gone = new Set(d.declined);
  const out = new Set<string>();
  for (const c of changes) {
    if (gone.has(c.annotationId)) continue;
    if (c.kind === 'text' || c.kind === 'create') out.add(c.uri);
    if (c.kind === 'rename') out.add(c.newUri);
  }
  return [...out];
}

/** A file a turn changed (agent/changedFiles). */
import type { ChangedFile, RewindResult } from './protocol.gen';
export type { ChangedFile };

/** The files a turn changed, as the chat's changes panel shows them. */
export interface TurnChanges {
  sessionId: string;
  messageId: string;
  files: (ChangedFile & { label: string })[];
}

/** "Edited store.go +17 −2", "Created x.go +3", "Deleted y.go −8". */
export function changeLabel(f: ChangedFile): string {
  const verb = f.status === 'added' ? 'Created' : f.status === 'deleted' ? 'Deleted' : 'Edited';
  if (!f.restorable) return `${verb} ${f.path} (binary or large: no undo)`;
  const counts = [f.added ? `+${f.added}` : '', f.removed ? `−${f.removed}` : ''].filter(Boolean).join(' ');
  return counts ? `${verb} ${f.path} ${counts}` : `${verb} ${f.path}`;
}

/** The scheme of the documents that show a file as a checkpoint has it. */
export const checkpointScheme = 'agentls-checkpoint';

/**
 * Where a checkpoint's file is read: the path (for the tab's name and the
 * language), and the session, message and path again in the query.
 */
export function checkpointUri(sessionId: string, messageId: string, path: string): { scheme: string; path: string; query: string } {
  const p = path.startsWith('/') ? path : `/${path}`;
  return { scheme: checkpointScheme, path: p, query: new URLSearchParams({ session: sessionId, message: messageId, path }).toString() };
}

/** The params of agent/checkpointFile of a checkpoint document's query; null when it is not one. */
export function checkpointParams(query: string): { sessionId: string; messageId: string; path: string } | null {
  const q = new URLSearchParams(query);
  const sessionId = q.get('session');
  const messageId = q.get('message');
  const path = q.get('path');
  if (!sessionId || !messageId || !path) return null;
  return { sessionId, messageId, path };
}

/**
 * The i-th user message's id among a loaded session's messages, matched by
 * text: the chat's user items and the session's user messages are the same
 * prompts, but a slash command may leave no message. `nth` counts the
 * earlier user items with the same text.
 */
export function userMessageId(messages: { id?: string; role: string; content?: string }[], text: string, nth: number): string | undefined {
  let seen = 0;
  for (const m of messages) {
    if (m.role !== 'user' || (m.content ?? '') !== text) continue;
    if (seen === nth) return m.id;
    seen++;
  }
  return undefined;
}

/** The button of the notification after a rewind of the files: a code rewind to its undoMessageId. */
export const undoRewindLabel = 'Undo';

/**
 * The notification after a rewind of the files: what came back, and that the
 * button rewinds the files to the moment before it (the conversation stays as
 * the rewind left it); null when nothing can be undone (no file restored, or
 * no undo checkpoint).
 */
export function rewoundMessage(res: RewindResult): string | null {
  if (!res.undoMessageId || !res.restored.length) return null;
  const n = res.restored.length;
  const files = n === 1 ? `${res.restored[0]} restored` : `${n} files restored`;
  return `agentls: ${files}. ${undoRewindLabel} puts the files back; the conversation stays.`;
}
