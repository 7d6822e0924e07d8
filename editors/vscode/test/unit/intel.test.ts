// The editor's truth: VS Code's diagnostics and provider results mapped to
// agent/diagnostics' and agent/navigate's wire types (docs/language-intel.md).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  announcedAfterEveryCheck, checkNavigate, defaultTypeScriptSettings, diagnosticsPath, DiagnosticVersions, fromTsDiagnostic, navigateCommand, symbolKind, toDiagnostic, toHover, toLocations,
  toSymbols, tsResponseBody, typeScriptAnswer, typeScriptProblems, typeScriptSection, type TsDiagnostic, type TypeScriptSettings, type VsDiagnostic, type VsSymbol,
} from '../../src/intel';
import type { NavigateParams } from '../../src/protocol';
import { editProblems } from '../../src/state';

const uri = (s: string) => ({ toString: () => s });
const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

describe('agent/navigate commands', () => {
  const table: [NavigateParams, string][] = [
    [{ op: 'definition', uri: 'file:///w/a.ts', position: { line: 0, character: 1 } }, 'vscode.executeDefinitionProvider'],
    [{ op: 'references', uri: 'file:///w/a.ts', position: { line: 0, character: 1 } }, 'vscode.executeReferenceProvider'],
    [{ op: 'implementation', uri: 'file:///w/a.ts', position: { line: 0, character: 1 } }, 'vscode.executeImplementationProvider'],
    [{ op: 'hover', uri: 'file:///w/a.ts', position: { line: 0, character: 1 } }, 'vscode.executeHoverProvider'],
    [{ op: 'symbols', uri: 'file:///w/a.ts' }, 'vscode.executeDocumentSymbolProvider'],
    [{ op: 'symbols', query: 'Foo' }, 'vscode.executeWorkspaceSymbolProvider'],
  ];
  for (const [p, cmd] of table) {
    test(`${p.op}${p.uri ? '' : ' (workspace)'} → ${cmd}`, () => assert.equal(navigateCommand(p), cmd));
  }
  test('an unknown op is an error naming it', () => {
    assert.throws(() => navigateCommand({ op: 'rename' } as unknown as NavigateParams), /unknown op "rename"/);
  });
  test('a positional op without uri or position is an error', () => {
    assert.throws(() => checkNavigate({ op: 'definition', uri: 'file:///w/a.ts' }), /needs uri and position/);
    assert.throws(() => checkNavigate({ op: 'hover', position: { line: 0, character: 0 } }), /needs uri and position/);
    assert.doesNotThrow(() => checkNavigate({ op: 'symbols', query: '' }));
  });
});

describe('diagnostics', () => {
  test('severity is LSP’s (VS Code’s plus one), code a string, source kept', () => {
    assert.deepEqual(toDiagnostic({ range: r(2, 4, 2, 9), message: "Type 'string' is not assignable to type 'number'.", severity: 0, source: 'ts', code: 2322 }), {
      range: r(2, 4, 2, 9), severity: 1, message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322',
    });
    assert.deepEqual(toDiagnostic({ range: r(0, 0, 0, 1), message: 'unused', severity: 1, code: { value: 'unusedVar' } }), {
      range: r(0, 0, 0, 1), severity: 2, message: 'unused', code: 'unusedVar',
    });
    assert.equal(toDiagnostic({ range: r(0, 0, 0, 1), message: 'hint', severity: 3 }).severity, 4);
  });
  test('a range is copied plainly (VS Code’s Range has getters and methods)', () => {
    const pos = (line: number, character: number) => Object.assign(Object.create({ isBefore: () => false }), { line, character });
    const d = toDiagnostic({ range: { start: pos(1, 2), end: pos(1, 3) }, message: 'm', severity: 0 });
    assert.equal(JSON.stringify(d.range), JSON.stringify(r(1, 2, 1, 3)));
  });
});

describe('locations', () => {
  test('Location and LocationLink (the target’s name range first), capped at the limit', () => {
    const got = toLocations([
      { uri: uri('file:///w/a.ts'), range: r(1, 0, 1, 5) },
      { targetUri: uri('file:///w/b.ts'), targetRange: r(3, 0, 9, 1), targetSelectionRange: r(3, 9, 3, 12) },
      { targetUri: uri('file:///w/c.ts'), targetRange: r(4, 0, 4, 1) },
    ]);
    assert.deepEqual(got, [
      { uri: 'file:///w/a.ts', range: r(1, 0, 1, 5) },
      { uri: 'file:///w/b.ts', range: r(3, 9, 3, 12) },
      { uri: 'file:///w/c.ts', range: r(4, 0, 4, 1) },
    ]);
    assert.equal(toLocations(got.map((l) => ({ uri: uri(l.uri), range: l.range })), 2).length, 2);
    assert.deepEqual(toLocations(undefined), []);
    assert.deepEqual(toLocations({ uri: uri('file:///w/a.ts'), range: r(0, 0, 0, 1) }), [{ uri: 'file:///w/a.ts', range: r(0, 0, 0, 1) }]);
  });
});

describe('hover', () => {
  test('markdown and marked strings joined, empty ones dropped', () => {
    assert.equal(toHover([{ contents: [{ value: '```ts\nconst x: number\n```' }, ''] }, { contents: ['doc'] }]), '```ts\nconst x: number\n```\n\ndoc');
    assert.equal(toHover(undefined), '');
  });
});

describe('symbols', () => {
  test('a document outline is flattened, children named by their parent, the name’s range kept', () => {
    const outline: VsSymbol[] = [
      { name: 'Shape', kind: 10, range: r(0, 0, 3, 1), selectionRange: r(0, 17, 0, 22), children: [{ name: 'area', kind: 5, range: r(1, 2, 1, 18), selectionRange: r(1, 2, 1, 6) }] },
      { name: 'main', kind: 11, range: r(5, 0, 7, 1), selectionRange: r(5, 9, 5, 13) },
    ];
    assert.deepEqual(toSymbols(outline, 'file:///w/a.ts'), [
      { name: 'Shape', kind: 'interface', location: { uri: 'file:///w/a.ts', range: r(0, 17, 0, 22) } },
      { name: 'area', kind: 'method', containerName: 'Shape', location: { uri: 'file:///w/a.ts', range: r(1, 2, 1, 6) } },
      { name: 'main', kind: 'function', location: { uri: 'file:///w/a.ts', range: r(5, 9, 5, 13) } },
    ]);
    assert.equal(toSymbols(outline, 'file:///w/a.ts', 2).length, 2);
  });
  test('workspace symbols keep their own location and container', () => {
    assert.deepEqual(toSymbols([{ name: 'Foo', kind: 22, containerName: 'pkg', location: { uri: uri('file:///w/b.go'), range: r(2, 5, 2, 8) } }], undefined), [
      { name: 'Foo', kind: 'struct', containerName: 'pkg', location: { uri: 'file:///w/b.go', range: r(2, 5, 2, 8) } },
    ]);
  });
  test('kinds are LSP’s names (VS Code’s kind is LSP’s less one)', () => {
    assert.equal(symbolKind(0), 'file');
    assert.equal(symbolKind(11), 'function');
    assert.equal(symbolKind(25), 'type parameter');
    assert.equal(symbolKind(99), 'symbol');
  });
});

describe('an edit result’s problems (the chat’s block)', () => {
  const p = { path: 'a.ts', line: 3, severity: 'error', message: 'bad', source: 'ts' };
  test('read from the result object or its JSON text', () => {
    assert.deepEqual(editProblems({ success: true, result: { path: 'a.ts', diagnostics: { new: [p], settled: true } } }), { new: [p], settled: true });
    assert.deepEqual(editProblems({ success: true, diagnostics: { new: [p], settled: true } }), { new: [p], settled: true });
    assert.deepEqual(editProblems(JSON.stringify({ diagnostics: { new: [p], settled: false } })), { new: [p], settled: false });
  });
  test('nothing to show: no block', () => {
    assert.equal(editProblems({ success: true }), undefined);
    assert.equal(editProblems({ diagnostics: { new: [], settled: true } }), undefined);
    assert.equal(editProblems('not json'), undefined);
    assert.equal(editProblems(null), undefined);
  });
  test('an unsettled or failed source is shown even without problems; malformed entries are dropped', () => {
    assert.deepEqual(editProblems({ diagnostics: { new: [], settled: false } }), { new: [], settled: false });
    assert.deepEqual(editProblems({ diagnostics: { new: [{ path: 1 }, p], settled: false, error: 'gopls did not start' } }), { new: [p], settled: false, error: 'gopls did not start' });
  });
});

describe('the version diagnostics are for', () => {
  // Each step at a time in ms: the document changed to a version (from the one before), its
  // diagnostics changed while it was at a version, it was opened again, or the version to
  // report for the document now at a version is the one expected (announced: its language
  // support announces its list after every check).
  type Step =
    | { at: number; change: [version: number, before: number] }
    | { at: number; diagnostics: number }
    | { at: number; opened: number }
    | { at: number; versionOf: number; want: number; announced?: true; why?: string };
  const u = 'file:///w/a.ts';
  const cases: [string, Step[]][] = [
    ['never edited: the document’s', [{ at: 0, versionOf: 1, want: 1 }]],
    [
      'an edit not yet diagnosed reports the version before it; an answer at least 300 ms after the change counts',
      [
        { at: 0, diagnostics: 1 },
        { at: 0, change: [2, 1] },
        { at: 50, change: [3, 2] }, // two changes before the diagnostics: still the version they were for
        { at: 100, versionOf: 3, want: 1, why: 'pending: the diagnostics are for version 1' },
        { at: 350, diagnostics: 3 },
        { at: 350, versionOf: 3, want: 3, why: 'diagnosed' },
      ],
    ],
    [
      'the race: the old text’s list announced again just after the change is not the new text’s',
      [
        { at: 0, diagnostics: 1 },
        { at: 1000, change: [2, 1] },
        { at: 1003, diagnostics: 2 }, // a request for version 1 answered while the change was on its way
        { at: 1100, versionOf: 2, want: 1, why: 'the event came too soon to answer version 2' },
        { at: 1299, diagnostics: 2 },
        { at: 1299, versionOf: 2, want: 1, why: '299 ms: still too soon' },
        { at: 1460, diagnostics: 2 },
        { at: 1460, versionOf: 2, want: 2, why: 'the answer' },
      ],
    ],
    [
      'measured in the end-to-end test: the fix (version 3) with the broken text’s list announced 104 ms after it',
      [
        { at: 5373, change: [2, 1] },
        { at: 5853, diagnostics: 2 },
        { at: 6314, change: [3, 2] },
        { at: 6350, versionOf: 3, want: 2, announced: true },
        { at: 6418, diagnostics: 3 }, // still the broken call's error: for version 2
        { at: 6454, versionOf: 3, want: 2, announced: true },
        { at: 6654, versionOf: 3, want: 2, announced: true, why: 'the stale list is not version 3’s' },
        { at: 6772, diagnostics: 3 },
        { at: 6772, versionOf: 3, want: 3, announced: true },
      ],
    ],
    [
      'an event just after the second of two changes is for the text before it',
      [
        { at: 0, diagnostics: 1 },
        { at: 0, change: [2, 1] },
        { at: 400, diagnostics: 2 },
        { at: 500, change: [3, 2] },
        { at: 550, diagnostics: 3 },
        { at: 600, versionOf: 3, want: 2 },
        { at: 800, diagnostics: 3 },
        { at: 800, versionOf: 3, want: 3 },
      ],
    ],
    [
      'an early event and no answer after it: a second of quiet still means nothing new',
      [
        { at: 0, diagnostics: 1 },
        { at: 0, change: [2, 1] },
        { at: 10, diagnostics: 2 },
        { at: 999, versionOf: 2, want: 1 },
        { at: 1000, versionOf: 2, want: 2, why: 'a second of quiet: nothing new to announce' },
      ],
    ],
    [
      'a second of quiet after a diagnosed version',
      [
        { at: 0, diagnostics: 3 },
        { at: 0, change: [4, 3] },
        { at: 600, versionOf: 4, want: 3 },
        { at: 1000, versionOf: 4, want: 4 },
      ],
    ],
    [
      'a list announced after every check (TypeScript’s problems showing): no quiet time, only the answer ends the wait',
      [
        { at: 0, diagnostics: 1 },
        { at: 0, change: [2, 1] },
        { at: 1000, versionOf: 2, want: 1, announced: true, why: 'a slow TypeScript: its answer is still to come' },
        { at: 1400, versionOf: 2, want: 1, announced: true },
        { at: 1450, diagnostics: 2 },
        { at: 1450, versionOf: 2, want: 2, announced: true },
      ],
    ],
    [
      'the old list announced again just after the change and the answer late: the version before until the answer',
      [
        { at: 0, diagnostics: 1 },
        { at: 0, change: [2, 1] },
        { at: 5, diagnostics: 2 },
        { at: 1300, versionOf: 2, want: 1, announced: true },
        { at: 1300, diagnostics: 2 },
        { at: 1300, versionOf: 2, want: 2, announced: true },
      ],
    ],
    [
      'a document opened again starts over: the diagnostics of its earlier versions do not count',
      [
        { at: 0, diagnostics: 7 },
        { at: 10, opened: 1 },
        { at: 400, diagnostics: 1 },
        { at: 400, versionOf: 1, want: 1 },
        { at: 420, change: [2, 1] },
        { at: 500, versionOf: 2, want: 1, why: 'version 7 was the closed document’s' },
      ],
    ],
    [
      'a document just opened waits for its language support’s first look, at most three seconds',
      [
        { at: 0, opened: 1 },
        { at: 10, versionOf: 1, want: 0, why: 'nothing looked at it yet: no problems yet is not no problems' },
        { at: 1500, versionOf: 1, want: 0, why: 'a second of quiet is not enough for a first look' },
        { at: 2999, versionOf: 1, want: 0 },
        { at: 3000, versionOf: 1, want: 1, why: 'three seconds: taken as having none' },
      ],
    ],
    [
      'a document just opened: its first diagnostics, however soon, are for its text',
      [
        { at: 0, opened: 1 },
        { at: 40, diagnostics: 1 },
        { at: 40, versionOf: 1, want: 1 },
      ],
    ],
    [
      'a document just opened and edited before its first look: it waits for that look',
      [
        { at: 0, opened: 1 },
        { at: 100, change: [2, 1] },
        { at: 200, versionOf: 2, want: 0, why: 'no diagnostics yet for any version' },
        { at: 1200, versionOf: 2, want: 0, why: 'the first look’s three seconds, not an edit’s one' },
        { at: 1500, diagnostics: 2 },
        { at: 1500, versionOf: 2, want: 2 },
      ],
    ],
  ];
  for (const [name, steps] of cases) {
    test(name, () => {
      let now = 0;
      const v = new DiagnosticVersions(() => now);
      for (const s of steps) {
        now = s.at;
        if ('change' in s) v.changed(u, s.change[0], s.change[1]);
        else if ('diagnostics' in s) v.diagnosticsChanged(u, s.diagnostics);
        else if ('opened' in s) v.opened(u, s.opened);
        else assert.equal(v.versionOf(u, s.versionOf, s.announced), s.want, `at ${s.at} ms: ${s.why ?? ''}`);
      }
    });
  }
});

test('which lists are announced after every check: those with TypeScript’s problems', () => {
  const cases: [{ source?: string }[], boolean][] = [
    [[], false],
    [[{ source: 'ts' }], true],
    [[{ source: 'eslint' }, { source: 'ts' }], true],
    [[{ source: 'eslint' }], false],
    [[{ source: 'ts-plugin' }], false],
    [[{}], false],
  ];
  for (const [ds, want] of cases) assert.equal(announcedAfterEveryCheck(ds), want, JSON.stringify(ds));
});

describe('TypeScript’s problems of a document in no tab (tsserver through the TypeScript extension)', () => {
  test('which path serves a document: tsserver’s for TypeScript and JavaScript in no tab, VS Code’s otherwise', () => {
    const tabs = new Set(['file:///w/open.ts', 'file:///w/diff.js']);
    const cases: [languageId: string, uri: string, want: string][] = [
      ['typescript', 'file:///w/a.ts', 'tsserver'],
      ['typescriptreact', 'file:///w/a.tsx', 'tsserver'],
      ['javascript', 'file:///w/a.js', 'tsserver'],
      ['javascriptreact', 'file:///w/a.jsx', 'tsserver'],
      ['typescript', 'file:///w/open.ts', 'editor'], // in a tab: TypeScript checks it
      ['javascript', 'file:///w/diff.js', 'editor'], // a diff tab's side counts
      ['go', 'file:///w/a.go', 'editor'],
      ['json', 'file:///w/tsconfig.json', 'editor'],
      ['plaintext', 'file:///w/a.ts', 'editor'], // the language, not the name, decides
    ];
    for (const [id, u, want] of cases) assert.equal(diagnosticsPath(id, u, tabs), want, `${id} ${u}`);
  });

  test('the settings’ section: javascript for JavaScript, typescript for TypeScript', () => {
    assert.equal(typeScriptSection('javascriptreact'), 'javascript');
    assert.equal(typeScriptSection('javascript'), 'javascript');
    assert.equal(typeScriptSection('typescriptreact'), 'typescript');
  });

  const ts = (line: number, offset: number, text: string, code: number | undefined, category: string, more: Partial<TsDiagnostic> = {}): TsDiagnostic => ({
    start: { line, offset }, end: { line, offset: offset + 5 }, text, code, category, ...more,
  });

  test('mapped as the TypeScript extension maps them (tsDiagnosticToVsDiagnostic)', () => {
    // [tsserver's, settings, VS Code's severity, source, code]
    const cases: [string, TsDiagnostic, Partial<TypeScriptSettings>, number, string, number | undefined][] = [
      ['an error', ts(3, 7, 'bad', 2322, 'error'), {}, 0, 'ts', 2322],
      ['a warning', ts(1, 1, 'w', 1234, 'warning'), {}, 1, 'ts', 1234],
      ['a suggestion is a hint', ts(1, 1, 's', 80001, 'suggestion'), {}, 3, 'ts', 80001],
      ['a message is an error', ts(1, 1, 'm', 1, 'message'), {}, 0, 'ts', 1],
      ['an unknown category is an error', ts(1, 1, 'm', 1, 'fatal'), {}, 0, 'ts', 1],
      ['a style check’s error is a warning', ts(1, 1, "'x' is declared but its value is never read.", 6133, 'error'), {}, 1, 'ts', 6133],
      ['… unless reportStyleChecksAsWarnings is off', ts(1, 1, 'unreachable', 7027, 'error'), { reportStyleChecksAsWarnings: false }, 0, 'ts', 7027],
      ['a style check’s suggestion stays a hint', ts(1, 1, 'unused', 6133, 'suggestion'), {}, 3, 'ts', 6133],
      ['a plugin’s own source is kept', ts(1, 1, 'p', 9, 'error', { source: 'my-plugin' }), {}, 0, 'my-plugin', 9],
      ['code 0 is no code', ts(1, 1, 'z', 0, 'error'), {}, 0, 'ts', undefined],
    ];
    for (const [name, d, settings, severity, source, code] of cases) {
      const got = fromTsDiagnostic(d, { ...defaultTypeScriptSettings, ...settings });
      assert.deepEqual([got.severity, got.source, got.code], [severity, source, code], name);
      assert.equal(got.message, d.text, name);
    }
  });

  test('lines and offsets from 1 become lines and characters from 0 (UTF-16 both)', () => {
    const got = fromTsDiagnostic({ start: { line: 4, offset: 13 }, end: { line: 5, offset: 1 }, text: 't', code: 2345, category: 'error' });
    assert.deepEqual(got.range, r(3, 12, 4, 0));
  });

  test('a problem is the same on the wire whichever path gave it (the “new” comparison: source, code, message, line)', () => {
    const message = "Argument of type 'number' is not assignable to parameter of type 'string'.";
    // What getDiagnostics gives for the file in a tab: the TypeScript extension's vscode.Diagnostic.
    const fromTab: VsDiagnostic = { range: r(3, 18, 3, 20), message, severity: 0, source: 'ts', code: 2345 };
    const fromTsserver = fromTsDiagnostic({ start: { line: 4, offset: 19 }, end: { line: 4, offset: 21 }, text: message, code: 2345, category: 'error' });
    assert.deepEqual(toDiagnostic(fromTsserver), toDiagnostic(fromTab));
  });

  test('tsserver’s response: only a successful response’s diagnostics count', () => {
    const d = ts(1, 1, 'bad', 2322, 'error');
    const cases: [string, unknown, TsDiagnostic[] | undefined][] = [
      ['success', { type: 'response', success: true, body: [d] }, [d]],
      ['success, no problems', { type: 'response', success: true, body: [] }, []],
      ['not allowed or no TypeScript (undefined)', undefined, undefined],
      ['failed', { type: 'response', success: false, message: 'No Project.' }, undefined],
      ['no server', { type: 'noServer' }, undefined],
      ['cancelled', { type: 'cancelled', reason: 'x' }, undefined],
      ['no body', { type: 'response', success: true }, undefined],
      ['a malformed diagnostic', { type: 'response', success: true, body: [{ text: 'x', category: 'error', start: { line: '1', offset: 1 }, end: { line: 1, offset: 2 } }] }, undefined],
      ['a null diagnostic', { type: 'response', success: true, body: [null] }, undefined],
      ['a string', 'response', undefined],
    ];
    for (const [name, res, want] of cases) assert.deepEqual(tsResponseBody(res), want, name);
  });

  test('the TypeScript extension’s filters: validate, suggestionActions, showUnused, showDeprecated', () => {
    const answers = {
      syntactic: [ts(1, 1, 'syntax', 1005, 'error')],
      semantic: [ts(2, 1, 'semantic', 2322, 'error')],
      suggestion: [
        ts(3, 1, 'unused', 6133, 'suggestion', { reportsUnnecessary: {} }),
        ts(4, 1, 'deprecated', 6385, 'suggestion', { reportsDeprecated: {} }),
        ts(5, 1, 'commonjs', 80001, 'suggestion'),
      ],
    };
    const cases: [string, Partial<TypeScriptSettings>, string[]][] = [
      ['the defaults: all, syntactic then semantic then suggestions', {}, ['syntax', 'semantic', 'unused', 'deprecated', 'commonjs']],
      ['validate off: nothing', { validate: false }, []],
      ['suggestion actions off: only the unused and deprecated hints', { suggestionActions: false }, ['syntax', 'semantic', 'unused', 'deprecated']],
      ['showUnused off', { showUnused: false }, ['syntax', 'semantic', 'deprecated', 'commonjs']],
      ['showDeprecated off', { showDeprecated: false }, ['syntax', 'semantic', 'unused', 'commonjs']],
    ];
    for (const [name, settings, want] of cases) {
      const got = typeScriptProblems(answers, { ...defaultTypeScriptSettings, ...settings });
      assert.deepEqual(got.map((d) => d.message), want, name);
      for (const d of got) assert.deepEqual(Object.keys(d).sort(), ['code', 'message', 'range', 'severity', 'source'], `${name}: VS Code's diagnostic's parts only`);
    }
    // An unused error (not a hint) stays with showUnused off, as in the TypeScript extension.
    const kept = typeScriptProblems({ syntactic: [], semantic: [ts(1, 1, 'unused error', 6133, 'error', { reportsUnnecessary: {} })], suggestion: [] }, { ...defaultTypeScriptSettings, showUnused: false });
    assert.deepEqual(kept.map((d) => [d.message, d.severity]), [['unused error', 1]]);
  });

  test('the answer: tsserver’s problems and the other sources’ from VS Code, for the current version; else VS Code’s, not current', () => {
    const ok = (...body: TsDiagnostic[]) => ({ type: 'response', success: true, body });
    const eslint: VsDiagnostic = { range: r(0, 0, 0, 1), message: 'no-var', severity: 1, source: 'eslint', code: 'no-var' };
    const staleTs: VsDiagnostic = { range: r(2, 0, 2, 1), message: 'an old list’s', severity: 0, source: 'ts', code: 2322 };
    const pluginStale: VsDiagnostic = { range: r(2, 0, 2, 1), message: 'old plugin', severity: 0, source: 'my-plugin' };
    const noSource: VsDiagnostic = { range: r(2, 0, 2, 1), message: 'anonymous', severity: 2 };
    const semantic = ts(4, 19, 'bad call', 2345, 'error');
    const plugin = ts(5, 1, 'new plugin', 9, 'error', { source: 'my-plugin' });
    const cases: [string, unknown[] | undefined, VsDiagnostic[], { messages: string[]; version: number }][] = [
      ['all answered: exact, the stale TypeScript list dropped, eslint kept', [ok(), ok(semantic), ok()], [staleTs, eslint, noSource], { messages: ['bad call', 'no-var', 'anonymous'], version: 7 }],
      ['all answered, nothing: clean and current', [ok(), ok(), ok()], [staleTs], { messages: [], version: 7 }],
      ['a tsserver plugin’s source: tsserver’s list replaces VS Code’s', [ok(), ok(plugin), ok()], [pluginStale, eslint], { messages: ['new plugin', 'no-var'], version: 7 }],
      ['the command failed (no TypeScript extension): VS Code’s list, the version before', undefined, [eslint], { messages: ['no-var'], version: 6 }],
      ['one request not answered', [ok(), undefined, ok()], [staleTs, eslint], { messages: ['an old list’s', 'no-var'], version: 6 }],
      ['one request failed', [ok(), ok(semantic), { type: 'response', success: false }], [], { messages: [], version: 6 }],
      ['too few answers', [ok(), ok()], [], { messages: [], version: 6 }],
    ];
    for (const [name, responses, editor, want] of cases) {
      const got = typeScriptAnswer(responses, editor, defaultTypeScriptSettings, 7);
      assert.deepEqual({ messages: got.diagnostics.map((d) => d.message), version: got.version }, want, name);
    }
  });
});
