package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// fuzzPaths are the workspace paths the fuzzed operations act on: auto-run
// files and folders, a repository's hooks and config, a new repository's
// hooks, a file over the cap, and an ordinary folder that holds one.
var fuzzPaths = []string{
	".vscode", ".vscode/settings.json", ".vscode/tasks.json", ".vscode/sub", ".vscode/sub/x.json",
	".envrc", "sub", "sub/.envrc", "sub/.dir-locals.el", "x.code-workspace", "big.code-workspace",
	"repo/.git/hooks", "repo/.git/hooks/pre-push", "repo/.git/hooks/pre-commit", "repo/.git/hooks/x.sample",
	"repo/.git/config", "repo/.git/commondir", "new/.git/hooks/pre-commit", "new/.git/hooks/y.sample", ".idea",
}

// fuzzOp applies one operation, as a command in the workspace could,
// never through a symbolic link (the sandbox keeps a command inside the
// workspace: only the restore could write outside, which is what is
// checked).
func fuzzOp(root, outside string, op byte, rel string, data []byte) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	dir := filepath.Dir(p)
	for d := dir; d != root && len(d) > len(root); d = filepath.Dir(d) {
		if fi, err := os.Lstat(d); err == nil && !fi.IsDir() {
			return // a link or a file on the way: a command in the sandbox could not go through it
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	fi, err := os.Lstat(p)
	link := err == nil && fi.Mode()&fs.ModeSymlink != 0
	switch op % 9 {
	case 0, 1: // create or overwrite a file
		if link {
			_ = os.Remove(p)
		}
		_ = os.WriteFile(p, data, 0o644)
	case 2: // append
		if !link && err == nil && fi.Mode().IsRegular() {
			if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0); err == nil {
				_, _ = f.Write(append(data, 'x'))
				f.Close()
			}
		}
	case 3: // make executable
		if !link && err == nil {
			_ = os.Chmod(p, fi.Mode().Perm()|0o111)
		}
	case 4: // take the executable bits
		if !link && err == nil {
			_ = os.Chmod(p, fi.Mode().Perm()&^0o111)
		}
	case 5: // a link to a folder outside
		_ = os.RemoveAll(p)
		_ = os.Symlink(outside, p)
	case 6: // a link to a file outside
		_ = os.RemoveAll(p)
		_ = os.Symlink(filepath.Join(outside, "keep.txt"), p)
	case 7:
		_ = os.RemoveAll(p)
	case 8:
		_ = os.Mkdir(p, 0o755)
	}
}

// FuzzSentinelRestore: whatever a command does to auto-run paths between
// the snapshot before it and the one after (create, change, chmod, link,
// remove, in any order), undoing it leaves nothing auto-run different from
// before, except what the check reports it could not undo (a changed file
// over the cap, a path now below a symbolic link); and nothing outside the
// workspace is written.
func FuzzSentinelRestore(f *testing.F) {
	for _, s := range [][]byte{
		{0, 2, 'a'}, {5, 0, 0}, {7, 11, 0, 0, 12, 'x'}, {3, 13}, {5, 6, 0, 8, 7}, {1, 17, 'h', 0, 18, 's'},
		{2, 10, 'y'}, {6, 5}, {7, 0, 8, 0, 0, 2, 'z'}, {4, 14, 3, 14}, {1, 15, 'c'}, {5, 11},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 60 {
			ops = ops[:60]
		}
		root, outside := t.TempDir(), t.TempDir()
		files := map[string]string{
			".vscode/settings.json": "{}\n", ".vscode/sub/x.json": "x", ".envrc": "export A=1\n", "sub/.envrc": "b",
			"sub/.dir-locals.el": "()", "repo/.git/hooks/pre-push": "#!/bin/sh\n", "repo/.git/hooks/x.sample": "s",
			"repo/.git/config": "[core]\n", "big.code-workspace": strings.Repeat("b", sentinelFileCap+1), "plain.txt": "p",
		}
		for rel, c := range files {
			writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), c)
		}
		if err := os.Symlink("settings.json", filepath.Join(root, ".vscode", "link.json")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(outside, "keep.txt"), "outside\n")
		outsideBefore := treeState(t, outside)
		folders := []string{root}
		before := takeSnapshot(folders, scanWorkspace(folders), nil)
		for i := 0; i+1 < len(ops); i += 3 {
			var data []byte
			if i+2 < len(ops) {
				data = []byte{ops[i+2]}
			}
			fuzzOp(root, outside, ops[i], fuzzPaths[int(ops[i+1])%len(fuzzPaths)], data)
		}
		changes := diffSnaps(before, takeSnapshot(folders, scanWorkspace(folders), before.repos), configAll, sandbox.Policy{UntrustedPath: folders})
		failed := restoreChanges(changes)
		left := diffSnaps(before, takeSnapshot(folders, scanWorkspace(folders), before.repos), configAll, sandbox.Policy{UntrustedPath: folders})
		for _, c := range left {
			if (c.before == nil || c.before.mode.IsDir()) && (c.after == nil || c.after.mode.IsDir()) {
				continue // a folder: made by the command and holding what is not watched, or shown by what it held
			}
			ok := c.after == nil && folderGone(root, c.rel) // removed with a folder nothing watches: not put back, not reported
			for _, fl := range failed {
				ok = ok || fl.rel == c.rel || strings.HasPrefix(c.rel, fl.rel+"/")
			}
			if !ok {
				t.Errorf("after undoing, %s is %s and was not reported (ops %v; failed %v)", c.rel, c.what, ops, failed)
			}
		}
		for _, fl := range failed {
			if !strings.Contains(fl.why, "size limit") && !strings.Contains(fl.why, "symbolic link") && !strings.Contains(fl.why, "no longer a folder") &&
				!strings.Contains(fl.why, "is gone") {
				t.Errorf("%s not undone: %s (ops %v)", fl.rel, fl.why, ops)
			}
		}
		if after := treeState(t, outside); !maps.Equal(after, outsideBefore) {
			t.Errorf("outside the workspace changed: %v → %v (ops %v)", outsideBefore, after, ops)
		}
		if _, err := os.Lstat(filepath.Join(root, "plain.txt")); errors.Is(err, fs.ErrNotExist) {
			t.Errorf("an ordinary file was removed (ops %v)", ops)
		}
	})
}

// pathState is what is at rel: missing, a link and its target, a folder
// and its mode, or a file's mode and content (hashed).
func pathState(root, rel string) string {
	p := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return "missing"
	case fi.Mode()&fs.ModeSymlink != 0:
		t, _ := os.Readlink(p)
		return "link " + t
	case fi.IsDir():
		return "dir " + fi.Mode().String()
	}
	b, _ := os.ReadFile(p)
	sum := sha256.Sum256(b)
	return fi.Mode().String() + " " + hex.EncodeToString(sum[:8])
}

// treeState is every path under dir with its state (symlinks not followed).
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = pathState(dir, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// folderGone reports whether a folder on the way to rel no longer exists.
func folderGone(root, rel string) bool {
	for d := filepath.Dir(filepath.Join(root, filepath.FromSlash(rel))); len(d) > len(root); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}
