package server_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// This file proves the guard's every-mode protections and the parent-folder
// rule end to end: a scripted model tries each attempt through the real
// server, with an editor that takes resource operations (create, rename,
// delete go to the editor, which creates parent folders as editors do) and
// with one that does not (the server writes them on disk); each attempt must
// fail with its refusal and leave the workspace as it was.

// attempt is one tool call of the scripted model and the text its failed
// result must hold.
type attempt struct {
	id, tool string
	args     map[string]any
	want     string
}

// attemptScript is a model that makes every attempt in one step, then ends.
func attemptScript(attempts []attempt) string {
	var calls []map[string]any
	for _, a := range attempts {
		calls = append(calls, map[string]any{"id": a.id, "name": a.tool, "args": a.args})
	}
	b, err := json.Marshal(map[string]any{"name": "attempts", "steps": []any{
		map[string]any{"tool_calls": calls},
		map[string]any{"text": "done"},
	}})
	if err != nil {
		panic(err)
	}
	return string(b) // JSON is YAML
}

// editorCaps are the editors every attempt is tried with.
func editorCaps() map[string]map[string]any {
	return map[string]map[string]any{
		"with resourceOperations": fullCaps(),
		"without resourceOperations": {"workspace": map[string]any{
			"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}},
	}
}

// tree is every file and folder of dir but agentls's own .agentls/ (whose
// session files change with every turn), with file contents.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == ".agentls" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffTrees lists what differs between two trees.
func diffTrees(before, after map[string]string) []string {
	var diffs []string
	for p, a := range after {
		if b, ok := before[p]; !ok {
			diffs = append(diffs, "added "+p)
		} else if a != b {
			diffs = append(diffs, "changed "+p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			diffs = append(diffs, "removed "+p)
		}
	}
	return diffs
}

// tryAll runs the attempts in a new session of the given mode, with each
// editor, in a fresh workspace of files; every attempt must be refused with
// its text and the workspace must not change.
func tryAll(t *testing.T, mode string, files map[string]string, attempts []attempt) {
	t.Helper()
	for name, caps := range editorCaps() {
		t.Run(mode+" "+name, func(t *testing.T) {
			h := start(t, setup{script: attemptScript(attempts), caps: caps, files: files})
			before := tree(t, h.dir)
			s := h.newSession(mode)
			if r := h.prompt(s.SessionID, "try"); r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v (%s)", r, r.Error)
			}
			for _, a := range attempts {
				ok, _, errText := h.planToolResult(a.id)
				if ok || !strings.Contains(errText, a.want) {
					t.Errorf("%s %s %v: success %v, error %q; want a failure with %q", a.id, a.tool, a.args, ok, errText, a.want)
				}
			}
			if d := diffTrees(before, tree(t, h.dir)); len(d) > 0 {
				t.Errorf("the workspace changed: %v", d)
			}
		})
	}
}

// gitFiles is a workspace with a repository, a submodule and a nested
// Subversion checkout.
var gitFiles = map[string]string{
	".git/HEAD":               "ref: refs/heads/main\n",
	".git/config":             "[core]\n",
	".git/refs/heads/main":    "0000000000000000000000000000000000000000\n",
	"mod/.git":                "gitdir: ../.git/modules/mod\n",
	"mod/lib.go":              "package mod\n",
	"vendor/dep/.svn/entries": "svn\n",
	"plans/existing.plan":     "---\ntitle: Existing\nstatus: draft\n---\n# Goal\n",
	"src/main.go":             "package main\n",
}

const vcsRefusal = "version-control folder"

// TestVCSFoldersProtectedInPlanMode: `.plan` names under `.git/` (which would
// lock the repository or make a branch) are refused in plan mode.
func TestVCSFoldersProtectedInPlanMode(t *testing.T) {
	tryAll(t, "plan", gitFiles, []attempt{
		{"lock", "write", map[string]any{"path": ".git/index.lock/x.plan", "content": "x"}, vcsRefusal},
		{"branch", "write", map[string]any{"path": ".git/refs/heads/x.plan", "content": "x"}, vcsRefusal},
		{"touch", "touch", map[string]any{"path": ".GIT/refs/heads/y.plan"}, vcsRefusal},
		{"plan_write", "plan_write", map[string]any{"title": "T", "content": "c", "path": ".git/x.plan"}, vcsRefusal},
		{"mv", "mv", map[string]any{"from": "plans/existing.plan", "to": ".git/refs/heads/z.plan"}, vcsRefusal},
		{"svn", "write", map[string]any{"path": "vendor/dep/.svn/x.plan", "content": "x"}, vcsRefusal},
		{"mkdir", "mkdir", map[string]any{"path": "plans/.git"}, vcsRefusal},
	})
}

// TestVCSFoldersProtectedInBuildMode: in build mode too no tool changes
// `.git/` (or a submodule's `.git` file, or a folder holding one); git
// changes go through run.
func TestVCSFoldersProtectedInBuildMode(t *testing.T) {
	tryAll(t, "build", gitFiles, []attempt{
		{"config", "write", map[string]any{"path": ".git/config", "content": "[core]\n\thooksPath = /tmp\n"}, vcsRefusal},
		{"edit", "edit", map[string]any{"path": ".git/HEAD", "old_string": "main", "new_string": "evil"}, vcsRefusal},
		{"hook", "write", map[string]any{"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}, vcsRefusal},
		{"rm", "rm", map[string]any{"path": ".git", "recursive": true}, vcsRefusal},
		{"mv", "mv", map[string]any{"from": ".git", "to": "git-old"}, vcsRefusal},
		{"submodule", "write", map[string]any{"path": "mod/.git", "content": "gitdir: /tmp\n"}, vcsRefusal},
		{"holder", "rm", map[string]any{"path": "mod", "recursive": true}, vcsRefusal},
		{"nested", "mv", map[string]any{"from": "vendor", "to": "third_party"}, vcsRefusal},
		{"mkdir", "mkdir", map[string]any{"path": "src/.git"}, vcsRefusal},
	})
}
