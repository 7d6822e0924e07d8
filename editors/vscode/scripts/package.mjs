// npm run package [-- --target <vsce target>]: builds the agentls server for the
// target (the host by default) with `go build` into bin/, bundles the
// extension, and packages out/agentls-<target>.vsix with vsce.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..', '..');
const repoUrl = 'https://github.com/agentls/agentls';

/** vsce target → Go GOOS/GOARCH. */
const targets = {
  'linux-x64': ['linux', 'amd64'],
  'linux-arm64': ['linux', 'arm64'],
  'darwin-x64': ['darwin', 'amd64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'win32-x64': ['windows', 'amd64'],
};

function hostTarget() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  const t = `${process.platform}-${arch}`;
  if (!targets[t]) throw new Error(`no package target for this host (${process.platform}/${process.arch}); pass --target`);
  return t;
}

const i = process.argv.indexOf('--target');
const target = i >= 0 ? process.argv[i + 1] : hostTarget();
if (!targets[target]) {
  console.error(`unknown target ${target}; one of: ${Object.keys(targets).join(', ')}`);
  process.exit(2);
}
const [goos, goarch] = targets[target];
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', ...opts });

rmSync(join(root, 'bin'), { recursive: true, force: true });
mkdirSync(join(root, 'bin'), { recursive: true });
const exe = goos === 'windows' ? 'agentls.exe' : 'agentls';
console.log(`go build ${goos}/${goarch} → bin/${exe}`);
run('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', join(root, 'bin', exe), './cmd/agentls'], {
  cwd: repo,
  env: { ...process.env, GOOS: goos, GOARCH: goarch, CGO_ENABLED: '0' },
});
run(process.execPath, [join(root, 'build.mjs')], { cwd: root });
mkdirSync(join(root, 'out'), { recursive: true });
const out = join(root, 'out', `agentls-${target}.vsix`);
run(process.execPath, [join(root, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--skip-license', '--target', target, '--out', out,
  // README links and images point into the repository's editors/vscode folder.
  '--baseContentUrl', `${repoUrl}/blob/HEAD/editors/vscode`, '--baseImagesUrl', `${repoUrl}/raw/HEAD/editors/vscode`], { cwd: root });
console.log(out);
