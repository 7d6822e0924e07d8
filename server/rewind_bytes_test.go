package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// rewindKinds are the file kinds whose bytes a rewind must restore exactly:
// ONE is edited in turn 1, TWO in turn 2.
var rewindKinds = []struct{ name, data string }{
	{"utf8 lf", "one\nONE\nTWO\n"},
	{"crlf", "a\r\nONE\r\nTWO\r\nb\r\n"},
	{"bom", "\uFEFFONE first\nTWO\nlast\n"},
	{"cr only", "a\rONE\rTWO\rb\r"},
	{"mixed", "a\r\nONE\nTWO\r\nd\n"},
	{"latin1", "caf\xE9\nONE \xE9\nTWO\nend\n"},
	{"astral", "😀\n😀 ONE 😀\nTWO e\u0301 𝄞\n"},
}

// rewindBytesScript edits ONE in every file in turn 1 and, when two, TWO
// in turn 2.
func rewindBytesScript(n int, two bool) string {
	var b strings.Builder
	b.WriteString("name: rewindbytes\nsteps:\n")
	turns := []string{"ONE"}
	if two {
		turns = append(turns, "TWO")
	}
	for t, word := range turns {
		b.WriteString("  - tool_calls:\n")
		for i := range n {
			fmt.Fprintf(&b, "      - {id: t%de%d, name: edit, args: {path: f%d.txt, old_string: %s, new_string: CHANGED%d}}\n", t, i, i, word, t+1)
		}
		fmt.Fprintf(&b, "  - text: turn %d done\n", t+1)
	}
	return b.String()
}

// vscodeLike answers workspace/applyEdit as VS Code with the agentls
// extension does: edits go into the open documents (decoded, their line
// breaks), closed files are opened, edited and saved; then the extension
// saves each open document the edit touched, unless a save would re-encode
// the file (editors/vscode/src/saveCheck.ts: its text saved is not the
// bytes on disk) — that one stays unsaved.
func vscodeLike(ctx context.Context, ed func() *lspclient.Client, dir string) func(json.RawMessage) (bool, string) {
	return func(raw json.RawMessage) (bool, string) {
		e := ed()
		var edit lspwire.WorkspaceEdit
		if err := json.Unmarshal(raw, &edit); err != nil {
			return false, err.Error()
		}
		var uris []string
		for u := range edit.Changes {
			uris = append(uris, u)
		}
		for _, dc := range edit.DocumentChanges {
			if dc.TextDocument != nil {
				uris = append(uris, dc.TextDocument.URI)
			}
		}
		var save []string
		for _, u := range uris {
			rel := strings.TrimPrefix(strings.TrimPrefix(u, "file://"), filepath.ToSlash(dir)+"/")
			if _, open := e.Buffer(rel); !open {
				continue
			}
			disk, _ := os.ReadFile(filepath.Join(dir, rel))
			// A document with unsaved changes is judged by the file as
			// VS Code opens it (savedForm.ts openedText).
			if saved, _ := e.SavedBytes(rel); e.Dirty(rel) && lspclient.RoundTrips(disk) || !e.Dirty(rel) && string(saved) == string(disk) {
				save = append(save, rel)
			}
		}
		if ok, why := e.ApplyToDisk(raw); !ok {
			return false, why
		}
		for _, rel := range save {
			if err := e.Save(ctx, rel); err != nil {
				return false, err.Error()
			}
		}
		return true, ""
	}
}

// TestRewindBytes: whatever a file's bytes (CRLF, a BOM, CR or mixed line
// breaks, Latin-1, astral characters), open in a VS Code-like editor or not,
// a rewind after one turn, or after two to the first, restores them byte
// for byte, and an open document then shows the file as VS Code shows it
// from disk with nothing to save that would re-encode it (the agent's edits
// of an open file VS Code cannot hold as it is went on disk and VS Code
// reloaded them: edits_bytes.go); an edit accepted in review mode changes
// only the edited bytes.
func TestRewindBytes(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i, k := range rewindKinds {
		files[fmt.Sprintf("f%d.txt", i)] = k.data
	}
	for _, open := range []bool{false, true} {
		for _, sc := range []string{"rewind after one turn", "rewind after two turns to the first", "review edit accepted"} {
			t.Run(fmt.Sprintf("%s, open %v", sc, open), func(t *testing.T) {
				t.Parallel()
				two := strings.Contains(sc, "two")
				var h *lsptest.Env
				dir := t.TempDir()
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				h = lsptest.Start(t, lsptest.Setup{Dir: dir, Files: files, Caps: annotationCaps(), Script: rewindBytesScript(len(rewindKinds), two),
					Handlers: lspclient.Handlers{ApplyEdit: vscodeLike(ctx, func() *lspclient.Client { return h.Editor }, dir),
						// Review mode asks (agent/askUser) for a change the
						// editor cannot review: the user applies it.
						AskUser: func(json.RawMessage) any {
							return map[string]any{"answers": map[string]any{"decision": "allow_once"}}
						}}})
				if open {
					for i := range rewindKinds {
						if err := h.Editor.OpenFile(h.Ctx, fmt.Sprintf("f%d.txt", i)); err != nil {
							t.Fatal(err)
						}
					}
				}
				s := h.NewSession("build")
				review := strings.HasPrefix(sc, "review")
				if review {
					setReview(t, h, s.SessionID, "edits")
				}
				wantStop(t, h.Prompt(s.SessionID, "edit one"), "end_turn")
				if two {
					wantStop(t, h.Prompt(s.SessionID, "edit two"), "end_turn")
				}
				if review {
					for i, k := range rewindKinds {
						name := fmt.Sprintf("f%d.txt", i)
						edited := strings.Replace(k.data, "ONE", "CHANGED1", 1)
						if open {
							// An edit agentls wrote under a saved document
							// (edits_bytes.go): VS Code reloads it.
							if _, err := h.Editor.Revert(h.Ctx, name); err != nil {
								t.Fatal(err)
							}
						}
						disk := h.Read(name)
						if !open && disk != edited || open && disk != edited && disk != k.data {
							t.Errorf("%s: disk\n got %q\nwant %q", k.name, disk, edited)
						}
						if buf, ok := h.Editor.Buffer(name); open && (!ok || buf != lspclient.EditorText([]byte(edited))) {
							t.Errorf("%s: buffer\n got %q\nwant %q", k.name, buf, lspclient.EditorText([]byte(edited)))
						}
					}
					return
				}
				turn1 := firstUserMessage(t, h.LoadSession(s.SessionID).Messages)
				res, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn1, What: "code"})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Conflicts) > 0 || len(res.Skipped) > 0 {
					t.Errorf("rewind: conflicts %v, skipped %v", res.Conflicts, res.Skipped)
				}
				for i, k := range rewindKinds {
					name := fmt.Sprintf("f%d.txt", i)
					if open {
						// VS Code reloads a document without unsaved
						// changes whose file changed on disk.
						if _, err := h.Editor.Revert(h.Ctx, name); err != nil {
							t.Fatal(err)
						}
					}
					if got := h.Read(name); got != k.data {
						t.Errorf("%s: disk after the rewind\n got %q\nwant %q", k.name, got, k.data)
					}
					if !open {
						continue
					}
					if buf, want := mustBuffer(t, h, name), lspclient.EditorText([]byte(k.data)); buf != want {
						t.Errorf("%s: buffer after the rewind\n got %q\nwant %q (the file as VS Code shows it)", k.name, buf, want)
					}
					if saved, _ := h.Editor.SavedBytes(name); h.Editor.Dirty(name) && string(saved) != k.data {
						t.Errorf("%s: the buffer is unsaved, and saving it would write\n %q\nover %q", k.name, saved, k.data)
					}
				}
			})
		}
	}
}

// mustBuffer is an open document's text.
func mustBuffer(t *testing.T, h *lsptest.Env, name string) string {
	t.Helper()
	buf, ok := h.Editor.Buffer(name)
	if !ok {
		t.Fatalf("%s is not open", name)
	}
	return buf
}
