// Bundles the extension (Node, CommonJS) and the chat webview (browser, IIFE)
// with esbuild, and copies the webview's assets (styles, bundled codicons) to dist/.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const watch = process.argv.includes('--watch');
mkdirSync(dist, { recursive: true });
copyFileSync(join(root, 'webview/chat.css'), join(dist, 'chat.css'));
for (const f of ['codicon.css', 'codicon.ttf']) {
  copyFileSync(join(root, 'node_modules/@vscode/codicons/dist', f), join(dist, f));
}

const common = { bundle: true, sourcemap: true, minify: !watch, logLevel: 'warning' };
const builds = [
  { ...common, entryPoints: [join(root, 'src/extension.ts')], outfile: join(dist, 'extension.js'), platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, entryPoints: [join(root, 'webview/main.ts')], outfile: join(dist, 'webview.js'), platform: 'browser', format: 'iife', target: 'es2022' },
];
// Tests: each test/**/*.test.ts compiled to out/test/ (dependencies stay in node_modules).
if (process.argv.includes('--tests')) {
  const entries = ['unit', 'webview', 'e2e'].flatMap((d) =>
    existsSync(join(root, 'test', d)) ? readdirSync(join(root, 'test', d)).filter((f) => f.endsWith('.ts')).map((f) => join(root, 'test', d, f)) : [],
  );
  builds.push({ entryPoints: entries, outdir: join(root, 'out', 'test'), outbase: join(root, 'test'), bundle: true, packages: 'external', platform: 'node', format: 'cjs', target: 'node20', sourcemap: true, logLevel: 'warning' });
}
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
