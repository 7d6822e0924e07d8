// Finds the agentls binary: the agentls.serverPath setting, else the binary
// bundled in the extension, else agentls on PATH.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where a candidate binary came from. */
export type ServerSource = 'setting' | 'bundled' | 'path';

/** A binary to start and where it was found. */
export interface ServerCandidate {
  command: string;
  source: ServerSource;
}

/** The executable's file name on this platform. */
export function binaryName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'agentls.exe' : 'agentls';
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Looks a command up in PATH. */
export function whichOnPath(name: string, envPath: string | undefined, platform: NodeJS.Platform = process.platform): string | undefined {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, platform === 'win32' && !name.endsWith('.exe') ? `${name}.exe` : name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

/**
 * The binary to start, or an error message saying what was tried. A setting
 * that names a missing file is an error (it is never silently skipped).
 */
export function resolveServer(
  setting: string | undefined,
  extensionDir: string,
  envPath: string | undefined,
  platform: NodeJS.Platform = process.platform,
): ServerCandidate | { error: string } {
  const configured = setting?.trim();
  if (configured) {
    if (isExecutable(configured)) return { command: configured, source: 'setting' };
    return { error: `agentls.serverPath is "${configured}", which is not an executable file.` };
  }
  const bundled = path.join(extensionDir, 'bin', binaryName(platform));
  if (isExecutable(bundled)) return { command: bundled, source: 'bundled' };
  const onPath = whichOnPath('agentls', envPath, platform);
  if (onPath) return { command: onPath, source: 'path' };
  return {
    error: 'The agentls server was not found: agentls.serverPath is not set, no binary is bundled with this extension, and agentls is not on PATH.',
  };
}
