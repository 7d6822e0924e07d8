package server_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/server/internal/lsptest"
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
	hint     string // "" or a text the refusal's hint must hold
}

// rawOutput is the JSON of the rawOutput of the tool_call_update of call id.
func rawOutput(h *lsptest.Env, id string) string {
	h.T.Helper()
	for _, u := range lsptest.Updates[agent.UpdateToolCallDone](h, "tool_call_update") {
		if u.ToolCallID == id {
			// Decoded and encoded again: object keys sorted, as the
			// patterns below expect.
			var v any
			if len(u.RawOutput) > 0 {
				if err := json.Unmarshal(u.RawOutput, &v); err != nil {
					h.T.Fatal(err)
				}
			}
			b, err := json.Marshal(v)
			if err != nil {
				h.T.Fatal(err)
			}
			return string(b)
		}
	}
	h.T.Fatalf("no tool_call_update for %s", id)
	return ""
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
		"with resourceOperations": lsptest.FullCaps(),
		"without resourceOperations": {"workspace": map[string]any{
			"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}, "experimental": ourAgent()},
		"without applyEdit": {"experimental": ourAgent()}, // the server writes everything on disk
	}
}

// ourAgent is experimental.agent of a client like ours (it gets agent/update
// and saves edits) without the form.
func ourAgent() map[string]any {
	return map[string]any{"agent": map[string]any{"savesEdits": true}}
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
	tryAllIn(t, mode, func(string) lsptest.Setup { return lsptest.Setup{Files: files} }, attempts)
}

// tryAllIn is tryAll with a setup made for each fresh workspace folder dir.
func tryAllIn(t *testing.T, mode string, mk func(dir string) lsptest.Setup, attempts []attempt) {
	t.Helper()
	for name, caps := range editorCaps() {
		t.Run(mode+" "+name, func(t *testing.T) {
			dir := t.TempDir()
			su := mk(dir)
			su.Dir, su.Caps, su.Script = dir, caps, attemptScript(attempts)
			h := lsptest.Start(t, su)
			before := tree(t, h.Dir)
			s := h.NewSession(mode)
			if r := h.Prompt(s.SessionID, "try"); r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v (%s)", r, r.Error)
			}
			for _, a := range attempts {
				ok, _, errText := planToolResult(h, a.id)
				if ok || !strings.Contains(errText, a.want) {
					t.Errorf("%s %s %v: success %v, error %q; want a failure with %q", a.id, a.tool, a.args, ok, errText, a.want)
				}
				if a.hint != "" && !strings.Contains(rawOutput(h, a.id), a.hint) {
					t.Errorf("%s: the refusal's hint lacks %q: %s", a.id, a.hint, rawOutput(h, a.id))
				}
			}
			if d := diffTrees(before, tree(t, h.Dir)); len(d) > 0 {
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
	t.Parallel()
	tryAll(t, "plan", gitFiles, []attempt{
		{"lock", "write", map[string]any{"path": ".git/index.lock/x.plan", "content": "x"}, vcsRefusal, "through run"},
		{"branch", "write", map[string]any{"path": ".git/refs/heads/x.plan", "content": "x"}, vcsRefusal, ""},
		{"touch", "touch", map[string]any{"path": ".GIT/refs/heads/y.plan"}, vcsRefusal, ""},
		{"plan_write", "plan_write", map[string]any{"title": "T", "content": "c", "path": ".git/x.plan"}, vcsRefusal, ""},
		{"mv", "mv", map[string]any{"from": "plans/existing.plan", "to": ".git/refs/heads/z.plan"}, vcsRefusal, ""},
		{"svn", "write", map[string]any{"path": "vendor/dep/.svn/x.plan", "content": "x"}, vcsRefusal, ""},
		{"mkdir", "mkdir", map[string]any{"path": "plans/.git"}, vcsRefusal, ""},
	})
}

// TestVCSFoldersProtectedInBuildMode: in build mode too no tool changes
// `.git/` (or a submodule's `.git` file, or a folder holding one); git
// changes go through run.
func TestVCSFoldersProtectedInBuildMode(t *testing.T) {
	t.Parallel()
	tryAll(t, "build", gitFiles, []attempt{
		{"config", "write", map[string]any{"path": ".git/config", "content": "[core]\n\thooksPath = /tmp\n"}, vcsRefusal, ""},
		{"edit", "edit", map[string]any{"path": ".git/HEAD", "old_string": "main", "new_string": "evil"}, vcsRefusal, ""},
		{"hook", "write", map[string]any{"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}, vcsRefusal, ""},
		{"rm", "rm", map[string]any{"path": ".git", "recursive": true}, vcsRefusal, ""},
		{"mv", "mv", map[string]any{"from": ".git", "to": "git-old"}, vcsRefusal, ""},
		{"submodule", "write", map[string]any{"path": "mod/.git", "content": "gitdir: /tmp\n"}, vcsRefusal, ""},
		{"holder", "rm", map[string]any{"path": "mod", "recursive": true}, vcsRefusal, ""},
		{"nested", "mv", map[string]any{"from": "vendor", "to": "third_party"}, vcsRefusal, ""},
		{"mkdir", "mkdir", map[string]any{"path": "src/.git"}, vcsRefusal, ""},
	})
}

// TestParentFoldersInPlanMode: a `.plan` in a folder that does not exist
// would create that folder (the disk applier's MkdirAll, or the editor
// honouring CreateFile), which mkdir may not do outside the plans folder:
// refused with the plan-mode sentence and a hint naming the plans folder.
// Inside the plans folder new folders are fine.
func TestParentFoldersInPlanMode(t *testing.T) {
	t.Parallel()
	const where = "folders may be created only inside plans/"
	files := map[string]string{"plans/existing.plan": "---\ntitle: Existing\nstatus: draft\n---\n# Goal\n", "src/main.go": "package main\n"}
	tryAll(t, "plan", files, []attempt{
		{"write", "write", map[string]any{"path": "src/newpkg/x.plan", "content": "x"}, planRefusal, where},
		{"deep", "write", map[string]any{"path": "docs/deep/x.plan", "content": "x"}, planRefusal, where},
		{"touch", "touch", map[string]any{"path": "src/newpkg/y.plan"}, planRefusal, where},
		{"plan_write", "plan_write", map[string]any{"title": "T", "content": "c", "path": "docs/deep/z.plan"}, planRefusal, where},
		{"mv", "mv", map[string]any{"from": "plans/existing.plan", "to": "src/newpkg/moved.plan"}, planRefusal, where},
		{"mkdir", "mkdir", map[string]any{"path": "src/newpkg"}, planRefusal, ""},
	})
	for name, caps := range editorCaps() {
		t.Run("inside plans/ "+name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{Caps: caps, Files: files, Script: attemptScript([]attempt{
				{id: "w", tool: "write", args: map[string]any{"path": "plans/new/deeper/x.plan", "content": "# Goal\n"}},
			})})
			s := h.NewSession("plan")
			if r := h.Prompt(s.SessionID, "try"); r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v (%s)", r, r.Error)
			}
			if ok, _, errText := planToolResult(h, "w"); !ok {
				t.Fatalf("write plans/new/deeper/x.plan refused: %s", errText)
			}
			if got := h.Read("plans/new/deeper/x.plan"); got != "# Goal\n" {
				t.Fatalf("plans/new/deeper/x.plan = %q", got)
			}
		})
	}
}

const planRefusal = "System is in Plan Mode. You can only modify the plan."

// TestParentsOfAMissingPlansFolder: plan_write without a path names its file
// in the plans folder; when the configured plans folder and its parent do
// not exist yet, layer 2 sees the CreateFile's missing parents and allows
// them, as they lie on the way to the plans folder.
func TestParentsOfAMissingPlansFolder(t *testing.T) {
	t.Parallel()
	for name, caps := range editorCaps() {
		t.Run(name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{Caps: caps, Files: map[string]string{"src/main.go": "package main\n"},
				InitOpts: map[string]any{"plan_mode": map[string]any{"plans_dir": "work/plans"}},
				Script:   attemptScript([]attempt{{id: "w", tool: "plan_write", args: map[string]any{"title": "Nested", "content": "# Goal\n"}}})})
			s := h.NewSession("plan")
			if r := h.Prompt(s.SessionID, "try"); r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v (%s)", r, r.Error)
			}
			if ok, _, errText := planToolResult(h, "w"); !ok {
				t.Fatalf("plan_write refused: %s", errText)
			}
			entries, err := os.ReadDir(filepath.Join(h.Dir, "work", "plans"))
			if err != nil || len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".plan") {
				t.Fatalf("work/plans holds %v (%v), want one plan", entries, err)
			}
		})
	}
}

// configSetup is a workspace with agentls's configuration everywhere it can
// be: .agentls.yaml at the top and deeper, the --config file inside the
// workspace, and the user's config folder ($XDG_CONFIG_HOME/agentls) inside
// the workspace (as when the workspace is the home folder) or outside it.
func configSetup(xdgOutside string) func(dir string) lsptest.Setup {
	return func(dir string) lsptest.Setup {
		xdg := filepath.Join(dir, "xdg")
		if xdgOutside != "" {
			xdg = xdgOutside
		}
		return lsptest.Setup{
			Files: map[string]string{
				".agentls.yaml":           "plan_mode:\n  default_active: true\n",
				"pkg/.agentls.yaml":       "plan_mode:\n  default_active: true\n",
				"conf/team.yaml":          "plan_mode:\n  require_approval: true\n",
				"xdg/agentls/config.yaml": "plan_mode:\n  plans_dir: plans\n",
				"src/main.go":             "package main\n",
				"plans/existing.plan":     "---\ntitle: Existing\nstatus: draft\n---\n# Goal\n",
			},
			ConfigFile: filepath.Join(dir, "conf", "team.yaml"),
			Env:        map[string]string{"XDG_CONFIG_HOME": xdg},
		}
	}
}

const configRefusal = "agentls's configuration"

// TestConfigProtectedInBuildMode: in build mode the model could write
// .agentls.yaml (run.allow: ["*"], default_active: false) and the next start
// would honour it unseen. No tool may change agentls's configuration files.
func TestConfigProtectedInBuildMode(t *testing.T) {
	t.Parallel()
	tryAllIn(t, "build", configSetup(""), []attempt{
		{"write", "write", map[string]any{"path": ".agentls.yaml", "content": "run:\n  allow: [\"*\"]\n"}, configRefusal, "by the user's hand"},
		{"edit", "edit", map[string]any{"path": ".agentls.yaml", "old_string": "true", "new_string": "false"}, configRefusal, ""},
		{"rm", "rm", map[string]any{"path": ".agentls.yaml"}, configRefusal, ""},
		{"mv-from", "mv", map[string]any{"from": ".agentls.yaml", "to": "old.yaml"}, configRefusal, ""},
		{"mv-to", "mv", map[string]any{"from": "src/main.go", "to": "pkg2/.agentls.yaml"}, configRefusal, ""},
		{"nested", "write", map[string]any{"path": "pkg/.agentls.yaml", "content": "x: 1\n"}, configRefusal, ""},
		{"touch", "touch", map[string]any{"path": "src/.agentls.yaml"}, configRefusal, ""},
		{"mkdir", "mkdir", map[string]any{"path": "src/.agentls.yaml"}, configRefusal, ""},
		{"config-flag", "write", map[string]any{"path": "conf/team.yaml", "content": "plan_mode:\n  require_approval: false\n"}, configRefusal, ""},
		{"config-holder", "rm", map[string]any{"path": "conf", "recursive": true}, configRefusal, ""},
		{"user", "write", map[string]any{"path": "xdg/agentls/config.yaml", "content": "run:\n  allow: [\"*\"]\n"}, configRefusal, ""},
		{"user-new", "write", map[string]any{"path": "xdg/agentls/extra.yaml", "content": "x"}, configRefusal, ""},
	})
}

// TestConfigProtectedInPlanMode: the same files in plan mode, where a `.plan`
// name below them or a plan moved over them would change them too.
func TestConfigProtectedInPlanMode(t *testing.T) {
	t.Parallel()
	tryAllIn(t, "plan", configSetup(""), []attempt{
		{"write", "write", map[string]any{"path": ".agentls.yaml", "content": "x"}, configRefusal, ""},
		{"below", "write", map[string]any{"path": ".agentls.yaml/x.plan", "content": "x"}, configRefusal, ""},
		{"mv", "mv", map[string]any{"from": "plans/existing.plan", "to": "pkg/.agentls.yaml"}, configRefusal, ""},
		{"user", "write", map[string]any{"path": "xdg/agentls/x.plan", "content": "x"}, configRefusal, ""},
	})
}

// TestConfigOutsideTheWorkspaceNamed: a user config folder outside the
// workspace is refused as agentls's configuration, not only as a path
// outside the workspace.
func TestConfigOutsideTheWorkspaceNamed(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "agentls"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(outside, "agentls", "config.yaml")
	tryAllIn(t, "build", configSetup(outside), []attempt{
		{"write", "write", map[string]any{"path": target, "content": "run:\n  allow: [\"*\"]\n"}, configRefusal, ""},
	})
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("%s was written (%v)", target, err)
	}
}

// TestLayer2SeesProtectedPlansFolder: plan_write without a path names its
// file in the plans folder itself, so layer 1 has no path to judge; with the
// plans folder configured inside .git/, the CreateFile (or disk write) that
// would leave the server is refused by layer 2.
func TestLayer2SeesProtectedPlansFolder(t *testing.T) {
	t.Parallel()
	tryAllIn(t, "plan", func(string) lsptest.Setup {
		return lsptest.Setup{Files: gitFiles, InitOpts: map[string]any{"plan_mode": map[string]any{"plans_dir": ".git/plans"}}}
	}, []attempt{
		{"auto", "plan_write", map[string]any{"title": "Sneaky", "content": "# Goal\n"}, vcsRefusal, ""},
	})
}
