// What the tsserver path costs (docs/language-intel.md): the time of each
// agent/diagnostics question about a TypeScript file in no tab, and of each of
// its three tsserver requests, in a real code-server, for the small project
// of intelUntabbed.test.ts and for the same with 300 more modules (about
// 28,000 lines) and main.ts, the file asked about, 1,000 lines longer using them. A measurement, not a check: skipped unless AGENTLS_BENCH=1;
// it prints the extension's debug lines and their medians. Run with
// AGENTLS_CODE_SERVER_LOG=debug (the agentls channel's debug lines).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { outputDir } from './harness';
import { greetAndBuild, startTypeScriptProject } from './project';

const skip = process.env.AGENTLS_BENCH ? false : 'a measurement: set AGENTLS_BENCH=1 and AGENTLS_CODE_SERVER_LOG=debug';

/** 300 modules of 100 lines, each using the one before. */
function writeModules(workspace: string): void {
  const dir = path.join(workspace, 'lib');
  fs.mkdirSync(dir);
  for (let i = 0; i < 300; i++) {
    const lines = [i > 0 ? `import { Thing${i - 1} } from './m${i - 1}';` : '', `export class Thing${i} {`];
    for (let j = 0; j < 30; j++) lines.push(`  f${j}(x: number): string {`, `    return String(x + ${j}) + ${i > 0 ? `new Thing${i - 1}().f${j}(x)` : "''"};`, '  }');
    lines.push('}', `export const thing${i}: Thing${i} = new Thing${i}();`);
    fs.writeFileSync(path.join(dir, `m${i}.ts`), lines.join('\n') + '\n');
  }
  // main.ts, the file asked about, uses the last one on 1,000 more lines (after its own four: the script's lines stay).
  const uses = ["import { thing299 } from './lib/m299';"];
  for (let k = 0; k < 1000; k++) uses.push(`export const r${k}: string = thing299.f${k % 30}(${k});`);
  fs.appendFileSync(path.join(workspace, 'main.ts'), uses.join('\n') + '\n');
}

/** The median of the numbers. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

for (const size of ['small', 'large'] as const) {
  test(`the tsserver path's time per question, ${size} project`, { skip }, async () => {
    const out = outputDir(`e2e-intel-cost-${size}`);
    const project = await startTypeScriptProject(`intel-cost-${size}`, 'intel-untabbed.yaml', out);
    try {
      if (size === 'large') writeModules(project.workspace);
      await greetAndBuild(project.page, out);
    } finally {
      await project.stop();
    }
    const logs = path.join(path.dirname(project.workspace), 'user', 'logs');
    const lines = fs
      .readdirSync(logs, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith(path.join('agentls.agentls', 'agentls.log')))
      .flatMap((f) => fs.readFileSync(path.join(logs, f), 'utf8').split('\n'))
      .filter((l) => l.includes('agent/diagnostics'));
    fs.writeFileSync(path.join(out, 'timings.log'), lines.join('\n') + '\n');
    const ts = lines.filter((l) => l.includes(' tsserver '));
    assert.ok(ts.length > 0, `no tsserver timings: run with AGENTLS_CODE_SERVER_LOG=debug (${lines.length} lines)`);
    const times = (name: string) => ts.map((l) => Number(new RegExp(`${name} ([0-9.]+) ms`).exec(l)?.[1]));
    const [syn, sem, sug] = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'].map(times);
    const sugOnly = sug.map((t, i) => t - sem[i]);
    const whole = lines.filter((l) => l.includes(' file(s): ')).map((l) => Number(/file\(s\): ([0-9.]+) ms/.exec(l)?.[1]));
    console.log(
      `${size}: ${ts.length} questions; first: ${ts[0]}; whole question median ${median(whole.slice(1)).toFixed(1)} ms, max ${Math.max(...whole.slice(1)).toFixed(1)} ms; ` +
        `rest median: syntactic ${median(syn.slice(1)).toFixed(1)} ms, semantic ${median(sem.slice(1)).toFixed(1)} ms, ` +
        `suggestion ${median(sug.slice(1)).toFixed(1)} ms (its own ${median(sugOnly.slice(1)).toFixed(1)} ms)`,
    );
  });
}
