// Whether saving a document writes back the file's bytes: VS Code decodes a
// file when it opens it (bytes that are not UTF-8 become U+FFFD, line breaks
// one kind, a lone "\r" among them) and encodes its text when it saves. After
// the agent's edit the extension saves the documents it touched
// (agentls.saveAgentEdits) only when that save changes nothing but the edit;
// otherwise the document stays unsaved and the file on disk as it was, as
// agentls does behind a plain editor (docs/protocol.md "Encodings and line
// endings").

const utf8BOM = [0xef, 0xbb, 0xbf];

/**
 * Whether VS Code, saving text (a document's text, its line breaks the
 * document's), writes exactly the bytes disk holds: UTF-8, after the BOM
 * when disk starts with one (VS Code keeps it).
 */
export function savesBack(disk: Uint8Array, text: string): boolean {
  const bom = disk.length >= 3 && utf8BOM.every((b, i) => disk[i] === b);
  const body = new TextEncoder().encode(text);
  const want = bom ? 3 + body.length : body.length;
  if (disk.length !== want) return false;
  const off = bom ? 3 : 0;
  for (let i = 0; i < body.length; i++) if (disk[off + i] !== body[i]) return false;
  return true;
}

/**
 * The text VS Code's document holds for a file of these bytes, eol its
 * line break: the BOM dropped, bytes that are not UTF-8 as U+FFFD (the
 * WHATWG decoder, VS Code's), every line break ("\r\n", "\n", a lone
 * "\r") made eol. A document with unsaved changes is judged by it: its
 * own text is not the file's.
 */
export function openedText(disk: Uint8Array, eol: '\n' | '\r\n'): string {
  return new TextDecoder('utf-8').decode(disk).replace(/\r\n|\r|\n/g, eol);
}

/**
 * The reason a change annotation's label gives for asking, or undefined: the
 * server labels a change to a file the editor runs by itself "agentls:
 * <tool> <path> — <why>" (docs/review.md); a change of review mode has no
 * reason. VS Code's Refactor Preview shows the label only on hover.
 */
export function askedWhy(label: string): { what: string; why: string } | undefined {
  const at = label.indexOf(' — ');
  if (at < 0) return undefined;
  return { what: label.slice(0, at).replace(/^agentls: /, ''), why: label.slice(at + 3) };
}
