// Where a file the server names is (src/filePaths.ts): a tool row's link or a
// problem's file, given workspace-relative, absolute or as a file:// URI, in a
// one-folder or a multi-root workspace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileCandidates, isAbsolutePath, uriPathOf } from '../../src/filePaths';

const app = { name: 'app', path: '/w/app' };
const lib = { name: 'lib', path: '/w/lib' };

test('an absolute path is in the folder that holds it, never joined onto the first one', () => {
  assert.deepEqual(fileCandidates('/w/app/notes.txt', [app]), [{ folder: 0, path: '/w/app/notes.txt' }]);
  assert.deepEqual(fileCandidates('/w/lib/x.go', [app, lib]), [{ folder: 1, path: '/w/lib/x.go' }]);
  assert.deepEqual(fileCandidates('/w/application/x.go', [app]), [{ file: '/w/application/x.go' }], 'a folder name\'s prefix is not the folder');
  assert.deepEqual(fileCandidates('/etc/hosts', [app]), [{ file: '/etc/hosts' }]);
  assert.deepEqual(fileCandidates('/etc/hosts', []), [{ file: '/etc/hosts' }]);
});

test('a Windows absolute path is in its folder, the drive letter compared without case', () => {
  assert.deepEqual(fileCandidates('C:\\w\\app\\main.go', [{ name: 'app', path: '/c:/w/app' }]), [{ folder: 0, path: '/c:/w/app/main.go' }]);
  assert.equal(uriPathOf('D:/x/y'), '/d:/x/y');
  assert.ok(isAbsolutePath('C:\\x') && isAbsolutePath('c:/x') && isAbsolutePath('/x') && isAbsolutePath('\\\\srv\\share'));
  assert.ok(!isAbsolutePath('x/y') && !isAbsolutePath('./x') && !isAbsolutePath('C:x'));
});

test('a file:// URI is itself', () => {
  assert.deepEqual(fileCandidates('file:///w/lib/x.go', [app, lib]), [{ uri: 'file:///w/lib/x.go' }]);
});

test('a relative path: the first folder (the server\'s), then each other folder, then the folder it names', () => {
  assert.deepEqual(fileCandidates('pkg/x.go', [app]), [{ folder: 0, path: '/w/app/pkg/x.go' }]);
  assert.deepEqual(fileCandidates('./pkg/x.go', [app, lib]), [{ folder: 0, path: '/w/app/pkg/x.go' }, { folder: 1, path: '/w/lib/pkg/x.go' }]);
  assert.deepEqual(fileCandidates('lib/x.go', [app, lib]), [{ folder: 0, path: '/w/app/lib/x.go' }, { folder: 1, path: '/w/lib/lib/x.go' }, { folder: 1, path: '/w/lib/x.go' }]);
  assert.deepEqual(fileCandidates('x.go', []), []);
});
