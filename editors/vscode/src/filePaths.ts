// Where a file the server names (a tool row's path, a problem's file) is: the
// server takes a path as workspace-relative, absolute, or a file:// URI
// (workspace.Resolve), and the row shows it as the model wrote it. No VS Code
// here: src/controller.ts turns the candidates into URIs and opens the first
// that exists.

/** A workspace folder as the candidates need it: its name and its URI's path. */
export interface FolderPath {
  name: string;
  /** The folder URI's path ("/w/app", "/c:/w/app"). */
  path: string;
}

/** One place the file may be: a file:// URI as given, a URI path in a workspace folder, or an absolute path outside them all (on the local disk). */
export type FileCandidate = { uri: string } | { folder: number; path: string } | { file: string };

/** Whether p is an absolute path: POSIX "/…", Windows "C:\…" or "C:/…", or UNC "\\server\…". */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

/** An absolute path as a URI path: forward slashes, a drive letter after a slash and lowercased ("C:\w" → "/c:/w"). */
export function uriPathOf(abs: string): string {
  const p = abs.replace(/\\/g, '/');
  const drive = /^([A-Za-z]):/.exec(p);
  if (drive) return `/${drive[1].toLowerCase()}${p.slice(1)}`;
  return p;
}

function inside(folder: string, p: string): boolean {
  const f = folder.replace(/\/+$/, '');
  const windows = /^\/[a-z]:/i.test(f);
  const [a, b] = windows ? [f.toLowerCase(), p.toLowerCase()] : [f, p];
  return b === a || b.startsWith(`${a}/`);
}

function joinPath(folder: string, rel: string): string {
  return `${folder.replace(/\/+$/, '')}/${rel.replace(/\\/g, '/').replace(/^\.\//, '')}`;
}

/**
 * The places a path may name, most likely first. A file:// URI is itself. An absolute path is in
 * the workspace folder that holds it (kept in that folder's scheme: a remote window's folder), else
 * on the local disk. A relative path is the server's: relative to the first folder, then
 * to each other folder in order (a multi-root workspace's file given relative to its own folder),
 * and "<folder name>/<path>" in the folder of that name.
 */
export function fileCandidates(p: string, folders: readonly FolderPath[]): FileCandidate[] {
  if (/^file:\/\//i.test(p)) return [{ uri: p }];
  if (isAbsolutePath(p)) {
    const path = uriPathOf(p);
    const i = folders.findIndex((f) => inside(f.path, path));
    return [i >= 0 ? { folder: i, path } : { file: p }];
  }
  const out: FileCandidate[] = folders.map((f, i) => ({ folder: i, path: joinPath(f.path, p) }));
  const [head, ...rest] = p.replace(/\\/g, '/').split('/');
  const named = folders.findIndex((f) => f.name === head);
  if (named >= 0 && rest.length > 0) out.push({ folder: named, path: joinPath(folders[named].path, rest.join('/')) });
  return out;
}
