package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// rewindFiles is the workspace before turn 1 of rewind_build.yaml.
var rewindFiles = map[string]string{
	"main.go":       "package main\n\n// hello\nfunc main() {}\n",
	"util.go":       "package main\n\nfunc util() {}\n",
	"old_name.go":   "package main\n\nfunc named() {}\n",
	"notes.txt":     "notes\n",
	".gitignore":    "build/\n",
	"build/out.txt": "ignored build output\n",
}

// gitRepo makes dir a git repository with one commit of its files.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "start"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// fileDigests is every file under dir (slash-separated paths) with its bytes'
// digest, skipping the folders named in skip.
func fileDigests(t *testing.T, dir string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			for _, s := range skip {
				if rel == s {
					return filepath.SkipDir
				}
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// digestDiff lists the paths whose digests differ between a and b.
func digestDiff(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// firstUserMessage is the id of a loaded session's first user message.
func firstUserMessage(t *testing.T, msgs []agentproto.Message) string {
	t.Helper()
	for _, m := range msgs {
		if m.Role == string(llm.RoleUser) {
			if m.ID == "" {
				t.Fatal("a loaded message has no id")
			}
			return m.ID
		}
	}
	t.Fatal("no user message")
	return ""
}

// TestRewindThreeBuildTurns (issue 20's done-means): three scripted BUILD
// turns create, edit, delete and rename files, one change made by `run`;
// the user then edits a file the agent created; a code rewind to before
// turn 1 brings every other path back byte for byte (through the editor as
// one workspace/applyEdit, or on disk for an editor without applyEdit),
// reports the user's file as a conflict and leaves it alone, and never
// touches .git; a rewind to the rewind's own checkpoint undoes it.
func TestRewindThreeBuildTurns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		caps       map[string]any
		wantEdits  int // workspace/applyEdit requests of the rewind
		wantRename bool
		streams    bool // the editor gets agent/update
	}{
		{"through the editor, one edit", lsptest.FullCaps(), 1, true, true},
		{"on disk", map[string]any{}, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range rewindFiles {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			gitRepo(t, dir)
			h := lsptest.Start(t, lsptest.Setup{
				Dir: dir, Caps: tc.caps, Script: loadScript(t, "rewind_build.yaml"),
				// The run tool's permission: "Run" (a plain editor's list puts Reject first).
				Handlers: lspclient.Handlers{AskUser: decide("run"), ShowMessageRequest: func(raw json.RawMessage) any {
					var p struct{ Actions []map[string]any }
					_ = json.Unmarshal(raw, &p)
					for _, a := range p.Actions {
						if a["title"] == "Run" {
							return a
						}
					}
					return nil
				}},
			})
			before := fileDigests(t, dir, ".git", ".agentls")
			gitBefore := fileDigests(t, filepath.Join(dir, ".git"))

			s := h.NewSession("build")
			for _, turn := range []string{"turn one", "turn two", "turn three"} {
				wantStop(t, h.Prompt(s.SessionID, turn), "end_turn")
			}
			for _, name := range []string{"pkg/created.go", "new_name.go", "made_by_run.txt"} {
				if !exists(t, h, name) {
					t.Fatalf("after the turns %s is missing", name)
				}
			}
			if exists(t, h, "util.go") || exists(t, h, "old_name.go") {
				t.Fatal("after the turns util.go or old_name.go is still there")
			}
			if got := h.Read("notes.txt"); got != "changed by run\n" {
				t.Fatalf("notes.txt after run = %q", got)
			}
			// The user edits the file the agent created.
			const mine = "package pkg\n\n// the user's own version\n"
			if err := os.WriteFile(filepath.Join(dir, "pkg", "created.go"), []byte(mine), 0o644); err != nil {
				t.Fatal(err)
			}
			beforeRewind := fileDigests(t, dir, ".git", ".agentls")

			loaded := h.LoadSession(s.SessionID).Messages
			turn1 := firstUserMessage(t, loaded)
			// Each streamed chunk names the saved message it belongs to.
			ids := map[string]string{}
			for _, m := range loaded {
				ids[m.ID] = m.Content
			}
			chunks := lsptest.Updates[agentproto.MessageChunk](h, "agent_message_chunk")
			if tc.streams && len(chunks) == 0 {
				t.Fatal("no chunks")
			}
			for _, c := range chunks {
				if content, ok := ids[c.MessageID]; !ok || !strings.Contains(content, c.Content.Text) {
					t.Fatalf("chunk %+v names no saved message holding its text", c)
				}
			}
			edits := len(h.Messages("workspace/applyEdit"))
			res, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn1, What: "code"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conflicts) != 1 || res.Conflicts[0].Path != "pkg/created.go" || res.Conflicts[0].Reason == "" {
				t.Fatalf("conflicts = %+v, want pkg/created.go", res.Conflicts)
			}
			if got := h.Read("pkg/created.go"); got != mine {
				t.Fatalf("the user's file was changed: %q", got)
			}
			after := fileDigests(t, dir, ".git", ".agentls")
			delete(after, "pkg/created.go")
			if d := digestDiff(before, after); len(d) != 0 {
				t.Fatalf("after the rewind these paths differ from the checkpoint: %v (result %+v)", d, res)
			}
			if d := digestDiff(gitBefore, fileDigests(t, filepath.Join(dir, ".git"))); len(d) != 0 {
				t.Fatalf(".git changed: %v", d)
			}
			wantRestored := []string{"made_by_run.txt", "main.go", "new_name.go", "notes.txt", "old_name.go", "util.go"}
			if strings.Join(res.Restored, " ") != strings.Join(wantRestored, " ") || len(res.Skipped) != 0 {
				t.Fatalf("result = %+v, want restored %v", res, wantRestored)
			}
			sent := h.Messages("workspace/applyEdit")[edits:]
			if len(sent) != tc.wantEdits {
				t.Fatalf("the rewind sent %d workspace/applyEdit requests, want %d: %s", len(sent), tc.wantEdits, sent)
			}
			if tc.wantRename && !strings.Contains(string(sent[0]), `"kind":"rename"`) {
				t.Fatalf("the rewind's edit renames nothing back: %s", sent[0])
			}
			if tc.wantEdits == 1 {
				wantFileOpsFirst(t, sent[0])
			}

			// Undo: a rewind to the rewind's own checkpoint.
			if res.UndoMessageID == "" {
				t.Fatal("no undo checkpoint")
			}
			undo, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: res.UndoMessageID, What: "code"})
			if err != nil {
				t.Fatal(err)
			}
			if d := digestDiff(beforeRewind, fileDigests(t, dir, ".git", ".agentls")); len(d) != 0 {
				t.Fatalf("after the undo these paths differ from before the rewind: %v (result %+v)", d, undo)
			}
			if d := digestDiff(gitBefore, fileDigests(t, filepath.Join(dir, ".git"))); len(d) != 0 {
				t.Fatalf(".git changed: %v", d)
			}
		})
	}
}

// wantFileOpsFirst fails unless the workspace/applyEdit request raw lists
// every resource operation before the first text edit, and has both (VS
// Code makes one undo element of one run of text edits: docs/rewind.md).
func wantFileOpsFirst(t *testing.T, raw json.RawMessage) {
	t.Helper()
	var p struct {
		Edit struct {
			DocumentChanges []struct {
				Kind         string          `json:"kind"`
				TextDocument json.RawMessage `json:"textDocument"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("decode the rewind's edit: %v", err)
	}
	texts, ops := 0, 0
	for _, dc := range p.Edit.DocumentChanges {
		if dc.TextDocument != nil {
			texts++
			continue
		}
		ops++
		if texts > 0 {
			t.Fatalf("the rewind's edit has a %s after a text edit (file operations go first): %s", dc.Kind, raw)
		}
	}
	if texts == 0 || ops == 0 {
		t.Fatalf("the rewind's edit has %d text edits and %d file operations, want both: %s", texts, ops, raw)
	}
}
