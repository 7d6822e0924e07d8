// Bundles the extension (Node, CommonJS) and the chat webview (browser, IIFE)
// with esbuild, and copies the webview's assets (styles, bundled codicons) to dist/.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
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
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
