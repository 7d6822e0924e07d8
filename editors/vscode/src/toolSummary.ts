// A tool row's readable summary: "Edited store.go +17 −2", "Read main.go",
// "Ran `go test ./...` ✓ (exit 0)", "Asked: Branch name?" with the user's
// answers as text. Built from what the server sends and persists (the call's
// title, its arguments, its result, its questions and answers), so a live
// row and the same row after a reload read the same. Pure: no DOM, no vscode.

import type { Question } from './protocol';

/** What a summary is made from (a ToolItem's fields). */
export interface ToolFacts {
  /** The tool's name when known (a loaded session has it); else it is read off the title. */
  name?: string;
  title: string;
  toolKind: string;
  status: string;
  /** The call's arguments (JSON text). */
  input?: string;
  /** The call's result (JSON text, {success, result|error}). */
  output?: string;
  refused: boolean;
  questions?: Question[];
  answers?: Record<string, unknown>;
  dismissed?: boolean;
}

/** A row's summary, in parts the webview renders (a file is a link, a command is code). */
export interface RowSummary {
  /** "Read", "Edited", "Ran", "Asked:", or the server's title for other tools. */
  verb: string;
  /** The file the call is about (a link), workspace-relative as the model wrote it. */
  file?: string;
  /** The command a run ran. */
  code?: string;
  /** Plain text after the verb (a question, a pattern). */
  text?: string;
  /** Lines an edit added and removed. */
  added?: number;
  removed?: number;
  /** A run's exit code and whether it succeeded. */
  exit?: number;
  ok?: boolean;
  timedOut?: boolean;
  /** The user's answers, one line per question. */
  answers?: AnswerLine[];
  /** Whether the user dismissed the questions. */
  dismissed?: boolean;
  /** Whether the call is an edit (its file link may open the diff). */
  edit?: boolean;
}

/** One answer as text: the question and what the user chose or wrote. */
export interface AnswerLine {
  question: string;
  answer: string;
}

type Args = Record<string, unknown>;

function parse(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The tool's name: given, else read off the title the server gave the call. */
export function toolName(f: Pick<ToolFacts, 'name' | 'title'>): string {
  if (f.name) return f.name;
  const t = f.title;
  if (t.startsWith('`')) return 'run'; // a run's title is its command, a code span, first (agent/tools/run.go)
  const prefixes: [string, string][] = [
    ['edit plan', 'plan_edit'],
    ['write plan', 'plan_write'],
    ['read plan', 'plan_read'],
    ['list plans', 'plan_list'],
    ['ask to approve', 'exit_plan_mode'],
    ['ask:', 'ask_user'],
    ['ask the user', 'ask_user'],
  ];
  for (const [p, name] of prefixes) if (t === p || t.startsWith(`${p} `) || (p.endsWith(':') && t.startsWith(p))) return name;
  return t.split(' ')[0] ?? t;
}

/**
 * What a title says after its verb: "read `a.go`" gives a.go. The server puts a path, a pattern
 * or a command in a code span (agent/tools/helpers.go), one a run's title begins with.
 */
export function titleArg(title: string, verb: RegExp): string {
  const rest = title.replace(verb, '');
  const m = /^(`+)([\s\S]*?)\1$/.exec(rest);
  if (!m) return rest;
  const body = m[2];
  return body.length > 1 && body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '' ? body.slice(1, -1) : body;
}

/** A title as plain text: each code span's text without its backticks ("mv `a` → `b`" reads mv a → b). */
export function plainTitle(title: string): string {
  return title.replace(/(`+)([\s\S]*?)\1/g, (_m, _ticks: string, body: string) =>
    body.length > 1 && body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '' ? body.slice(1, -1) : body,
  );
}

function lines(s: string): string[] {
  if (s === '') return [];
  const l = s.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}

/**
 * The lines a replacement of before by after adds and removes: a line diff
 * (longest common subsequence), so "+17 −2" counts changed lines, not the
 * strings' whole lengths.
 */
export function diffCounts(before: string, after: string): { added: number; removed: number } {
  const a = lines(before);
  const b = lines(after);
  // Common head and tail first: most edits touch a few lines in the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if (x.length * y.length > 4_000_000) return { added: y.length, removed: x.length }; // too big to align: all changed
  let prev = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const row = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j++) row[j] = x[i - 1] === y[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    prev = row;
  }
  const common = prev[y.length];
  return { added: y.length - common, removed: x.length - common };
}

/** A value as text: a button's label when a button gave it, Yes/No, lists joined. */
export function answerText(v: unknown, q?: Question): string {
  const button = q?.buttons?.find((b) => JSON.stringify(b.value) === JSON.stringify(v));
  if (button) return button.label;
  if (v === undefined || v === null || v === '') return '(no answer)';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => answerText(x)).join(', ') : '(none)';
  if (typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${answerText(x)}`)
      .join('; ');
  }
  return String(v);
}

/** The answers as lines of text, in the questions' order (an answer to no listed question comes last). */
export function answerLines(questions: Question[] | undefined, answers: Record<string, unknown> | undefined): AnswerLine[] {
  if (!answers) return [];
  const out: AnswerLine[] = [];
  const seen = new Set<string>();
  for (const q of questions ?? []) {
    seen.add(q.name);
    if (!(q.name in answers)) continue;
    out.push({ question: plainQuestion(q.question) || q.name, answer: answerText(answers[q.name], q) });
  }
  for (const [k, v] of Object.entries(answers)) if (!seen.has(k)) out.push({ question: k, answer: answerText(v) });
  return out;
}

/** A question's markdown as one line of plain text (backticks and emphasis marks dropped). */
export function plainQuestion(md: string): string {
  const first = md.split('\n').find((l) => l.trim() !== '') ?? '';
  return first.replace(/[`*_]+/g, '').replace(/\s+/g, ' ').trim();
}

/** The result's {success, result} parts. */
function resultOf(output: string | undefined): { success?: boolean; result?: Args } {
  const v = parse(output) as { success?: boolean; result?: unknown } | undefined;
  if (!v || typeof v !== 'object') return {};
  return { success: v.success, result: v.result && typeof v.result === 'object' ? (v.result as Args) : undefined };
}

function questionsOf(args: Args): Question[] | undefined {
  const qs = args.questions;
  return Array.isArray(qs) ? (qs as Question[]) : undefined;
}

/** The verb for a call's state: done, running, or neither (failed, refused). */
function verbFor(status: string, refused: boolean, done: string, running: string, plain: string): string {
  if (refused) return plain;
  if (status === 'completed') return done;
  if (status === 'pending' || status === 'in_progress') return running;
  return plain;
}

function capitalise(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** The summary of a tool row. */
export function summarize(f: ToolFacts): RowSummary {
  const name = toolName(f);
  const args = (parse(f.input) ?? {}) as Args;
  const { success, result } = resultOf(f.output);
  const path = str(args.path) ?? str(args.file_path);
  const st = f.status;
  switch (name) {
    case 'read':
    case 'plan_read':
      return { verb: verbFor(st, f.refused, 'Read', 'Reading', 'Read'), ...(path ? { file: path } : { text: titleArg(f.title, /^read\s*/) }) };
    case 'edit':
    case 'plan_edit': {
      const s: RowSummary = { verb: verbFor(st, f.refused, 'Edited', 'Editing', 'Edit'), edit: true };
      if (path) s.file = path;
      let counts: { added: number; removed?: number } | undefined;
      if (typeof args.old_string === 'string' && typeof args.new_string === 'string') {
        const d = diffCounts(args.old_string, args.new_string);
        const n = typeof result?.replacements === 'number' && result.replacements > 1 ? result.replacements : 1;
        counts = { added: d.added * n, removed: d.removed * n };
      } else if (typeof args.insert_content === 'string') {
        counts = { added: lines(args.insert_content).length || 1 }; // an insertion removes nothing
      }
      if (counts && st === 'completed' && !f.refused) Object.assign(s, counts);
      return s;
    }
    case 'write':
    case 'plan_write': {
      // A write that made the file reads "Created" (its result says created), as in Neovim.
      const created = st === 'completed' && !f.refused && result?.created === true;
      const s: RowSummary = { verb: created ? 'Created' : verbFor(st, f.refused, 'Wrote', 'Writing', 'Write'), edit: true };
      const file = path ?? str(result?.path);
      if (file) s.file = file;
      else s.text = str(args.title) ?? '';
      if (typeof args.content === 'string' && st === 'completed' && !f.refused) s.added = lines(args.content).length;
      return s;
    }
    case 'run': {
      const s: RowSummary = { verb: verbFor(st, f.refused, 'Ran', 'Running', 'Run'), code: str(args.command) ?? titleArg(f.title, /^run\s*/) };
      // The permission asked before it ran, answered: as text.
      const al = answerLines(f.questions, f.answers);
      if (al.length) s.answers = al;
      if (f.dismissed) s.dismissed = true;
      if (success && result && typeof result.exit_code === 'number') {
        s.exit = result.exit_code;
        s.timedOut = result.timed_out === true;
        s.ok = s.exit === 0 && !s.timedOut;
      }
      return s;
    }
    case 'ask_user':
    case 'exit_plan_mode': {
      const qs = f.questions ?? (name === 'ask_user' ? questionsOf(args) : undefined);
      const answers = f.answers ?? (result?.answers && typeof result.answers === 'object' ? (result.answers as Record<string, unknown>) : undefined);
      const s: RowSummary =
        name === 'exit_plan_mode'
          ? { verb: verbFor(st, f.refused, 'Asked to approve', 'Asking to approve', 'Ask to approve'), file: str(args.plan_file_path) }
          : { verb: verbFor(st, f.refused, 'Asked:', 'Asking:', 'Ask:'), text: qs?.[0] ? `${plainQuestion(qs[0].question)}${qs.length > 1 ? ` (+${qs.length - 1} more)` : ''}` : f.title.replace(/^ask:?\s*/, '') };
      if (!s.file) delete s.file;
      const al = answerLines(qs, answers);
      if (al.length) s.answers = al;
      if (f.dismissed || result?.status === 'dismissed') s.dismissed = true;
      return s;
    }
    case 'grep':
      return { verb: verbFor(st, f.refused, 'Searched for', 'Searching for', 'Search for'), code: str(args.pattern) ?? titleArg(f.title, /^grep\s*/) };
    case 'glob':
      return { verb: verbFor(st, f.refused, 'Listed files', 'Listing files', 'List files'), code: str(args.pattern) ?? titleArg(f.title, /^glob\s*/) };
    case 'ls':
      return { verb: verbFor(st, f.refused, 'Listed', 'Listing', 'List'), file: path ?? (titleArg(f.title, /^ls\s*/) || '.') };
    default: {
      const s: RowSummary = { verb: capitalise(plainTitle(f.title) || name) };
      // Other tools that ask (a permission inside them) still show the answers.
      const al = answerLines(f.questions, f.answers);
      if (al.length) s.answers = al;
      if (f.dismissed) s.dismissed = true;
      return s;
    }
  }
}

/** The summary as one line of text: "Edited store.go +17 −2", "Ran `go test ./...` ✓ (exit 0)". */
export function summaryText(s: RowSummary): string {
  const parts = [s.verb];
  if (s.file) parts.push(s.file);
  if (s.code !== undefined) parts.push(`\`${s.code}\``);
  if (s.text) parts.push(s.text);
  if (s.added !== undefined || s.removed !== undefined) parts.push(countsText(s));
  if (s.exit !== undefined) parts.push(exitText(s));
  return parts.join(' ');
}

/** "+17 −2" (the minus is U+2212, as diff views show it). */
export function countsText(s: Pick<RowSummary, 'added' | 'removed'>): string {
  return [s.added !== undefined ? `+${s.added}` : '', s.removed !== undefined ? `\u2212${s.removed}` : ''].filter(Boolean).join(' ');
}

/** "✓ (exit 0)", "✗ (exit 1)", "✗ (timed out)". */
export function exitText(s: Pick<RowSummary, 'exit' | 'ok' | 'timedOut'>): string {
  if (s.timedOut) return '✗ (timed out)';
  return `${s.ok ? '✓' : '✗'} (exit ${s.exit})`;
}
