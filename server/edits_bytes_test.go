package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// bytesKinds are files an editor cannot hold as they are, and a control:
// ONE is edited in the first turn, TWO in the second.
var bytesKinds = []struct{ name, data string }{
	{"latin1", "caf\xE9\nONE \xE9\nTWO\nend\n"},
	{"cr only", "a\rONE\rTWO\rb\r"},
	{"mixed", "a\r\nONE\nTWO\r\nd\n"},
	{"bom", "\uFEFFONE first\nTWO\nlast\n"},
	{"utf8 control", "one\nONE\nTWO\n"},
}

// odCommand prints a file's bytes in hex, one line.
func odCommand(name string) string { return "od -An -tx1 -v -w100000 " + name }

// odOf is what odCommand prints for data.
func odOf(data string) string {
	var b strings.Builder
	for i := 0; i < len(data); i++ {
		fmt.Fprintf(&b, " %02x", data[i])
	}
	return b.String()
}

// bytesEdited is data after the first turn's edit (ONE → CHANGED1 and a
// new line, which gets the file's first line break) and, when two, the
// second's (TWO → CHANGED2).
func bytesEdited(data string, two bool) string {
	out := strings.Replace(data, "ONE", "CHANGED1"+workspace.FormOf(data).EOL+"NEW", 1)
	if two {
		out = strings.Replace(out, "TWO", "CHANGED2", 1)
	}
	return out
}

// bytesTurn is one turn of bytesScript: word → CHANGED<n> (and a new line
// in turn 1) in each file, then od of each, which must show want[i].
func bytesTurn(b *strings.Builder, n int, word string, want []string) {
	b.WriteString("  - tool_calls:\n")
	for i := range want {
		repl := fmt.Sprintf("CHANGED%d", n)
		if n == 1 {
			repl += `\nNEW`
		}
		fmt.Fprintf(b, "      - {id: e%d_%d, name: edit, args: {path: f%d.txt, old_string: %s, new_string: \"%s\"}}\n", n, i, i, word, repl)
	}
	b.WriteString("  - tool_calls:\n")
	for i := range want {
		fmt.Fprintf(b, "      - {id: r%d_%d, name: run, args: {command: %q}}\n", n, i, odCommand(fmt.Sprintf("f%d.txt", i)))
	}
	fmt.Fprintf(b, "  - text: turn %d done\n    expect:\n      tool_result_contains:\n", n)
	for i, w := range want {
		fmt.Fprintf(b, "        r%d_%d: [%q]\n", n, i, w)
	}
}

// TestEditBytesOfOpenFiles: an agent edit of a file VS Code cannot hold as
// it is (Latin-1, lone CR or mixed line breaks, a BOM) open in a VS
// Code-like editor with no unsaved change lands on disk byte for byte
// (the edit applied to the file's bytes), a command run next sees it (and
// is not told of unsaved files), the editor reloads the file, a second
// edit after the reload lands so too, and a rewind restores the old bytes;
// the same for closed files. A buffer holding the user's unsaved text is
// not written behind: the edit goes into it and nothing the user typed is
// lost. Before, the open files' edits stayed unsaved in the editor and the
// commands saw the old bytes.
func TestEditBytesOfOpenFiles(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	var allow []string
	for i, k := range bytesKinds {
		name := fmt.Sprintf("f%d.txt", i)
		files[name] = k.data
		allow = append(allow, odCommand(name))
	}
	for _, state := range []string{"open", "open dirty", "closed"} {
		t.Run(state, func(t *testing.T) {
			t.Parallel()
			dirty := state == "open dirty"
			var script strings.Builder
			script.WriteString("name: editbytes\nsteps:\n")
			var want1, want2 []string
			for _, k := range bytesKinds {
				if dirty {
					// The disk as the editor leaves it: today's rule.
					want1 = append(want1, " ")
					continue
				}
				want1 = append(want1, odOf(bytesEdited(k.data, false)))
				want2 = append(want2, odOf(bytesEdited(k.data, true)))
			}
			bytesTurn(&script, 1, "ONE", want1)
			if !dirty {
				bytesTurn(&script, 2, "TWO", want2)
			}
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			var h *lsptest.Env
			h = lsptest.Start(t, lsptest.Setup{Dir: dir, Files: files, Caps: annotationCaps(), Script: script.String(),
				InitOpts: map[string]any{"run": map[string]any{"allow": allow}},
				Handlers: lspclient.Handlers{ApplyEdit: vscodeLike(ctx, func() *lspclient.Client { return h.Editor }, dir)}})
			if state != "closed" {
				for i := range bytesKinds {
					if err := h.Editor.OpenFile(h.Ctx, fmt.Sprintf("f%d.txt", i)); err != nil {
						t.Fatal(err)
					}
				}
			}
			if dirty {
				for i := range bytesKinds {
					if err := h.Editor.Change(h.Ctx, fmt.Sprintf("f%d.txt", i), workspace.TextEdit{NewText: "USER "}); err != nil {
						t.Fatal(err)
					}
				}
			}
			s := h.NewSession("build")
			wantStop(t, h.Prompt(s.SessionID, "edit one"), "end_turn")
			if dirty {
				for i, k := range bytesKinds {
					name := fmt.Sprintf("f%d.txt", i)
					// Line breaks aside: the document keeps its own kind.
					edited := lfOnly(lspclient.EditorText([]byte(bytesEdited(k.data, false))))
					if buf := lfOnly(mustBuffer(t, h, name)); buf != "USER "+edited {
						t.Errorf("%s: buffer\n got %q\nwant %q (the user's text and the edit)", k.name, buf, "USER "+edited)
					}
					// Saved when a save writes the file back (the
					// extension's rule), else left as it was.
					want := k.data
					if lspclient.RoundTrips([]byte(k.data)) {
						saved, _ := h.Editor.SavedBytes(name)
						want = string(saved)
					}
					if got := h.Read(name); got != want {
						t.Errorf("%s: disk\n got %q\nwant %q", k.name, got, want)
					}
				}
				return
			}
			check := func(two bool) {
				t.Helper()
				for i, k := range bytesKinds {
					name := fmt.Sprintf("f%d.txt", i)
					want := bytesEdited(k.data, two)
					if got := h.Read(name); got != want {
						t.Errorf("%s: disk\n got %q\nwant %q", k.name, got, want)
					}
					if state != "open" {
						continue
					}
					// VS Code reloads a document with no unsaved change
					// whose file changed on disk.
					if _, err := h.Editor.Revert(h.Ctx, name); err != nil {
						t.Fatal(err)
					}
					if buf := mustBuffer(t, h, name); buf != lspclient.EditorText([]byte(want)) || h.Editor.Dirty(name) {
						t.Errorf("%s: buffer\n got %q (dirty %v)\nwant %q, saved", k.name, buf, h.Editor.Dirty(name), lspclient.EditorText([]byte(want)))
					}
				}
			}
			check(false)
			wantStop(t, h.Prompt(s.SessionID, "edit two"), "end_turn")
			check(true)
			// No command is told that these files are unsaved (the
			// control's edit goes through the editor, whose model here
			// leaves it applied but unreported: not this test's matter).
			for _, m := range h.LoadSession(s.SessionID).Messages {
				var res struct {
					Result struct{ Warning string } `json:"result"`
				}
				_ = json.Unmarshal([]byte(m.Content), &res)
				for i := range bytesKinds[:len(bytesKinds)-1] {
					if name := fmt.Sprintf("f%d.txt", i); m.Name == "run" && strings.Contains(res.Result.Warning, name) {
						t.Errorf("%s: %s is unsaved: %s", m.ToolCallID, name, res.Result.Warning)
					}
				}
			}
			rewindToStart(t, h, s.SessionID)
		})
	}
}

// lfOnly is s with every line break "\n".
func lfOnly(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// TestEditBytesPlainClient: the rule is the server's, for any editor: a
// plain client (no agentls plugin) that shows a Latin-1 file's bytes as
// U+FFFD, or as Latin-1 (Neovim's latin1 fileencoding), gets the agent's
// edit of the open, saved buffer on disk byte for byte, new text in the
// file's encoding. Before, the U+FFFD buffer was edited and left unsaved
// (its bytes unknown), the disk unchanged.
func TestEditBytesPlainClient(t *testing.T) {
	t.Parallel()
	const data = "caf\xE9\nONE \xE9\nTWO\nend\n"
	for _, tc := range []struct {
		name, shown, newText, want string
	}{
		{"shown as U+FFFD", lspclient.EditorText([]byte(data)), "CHANGED", "caf\xE9\nCHANGED \xE9\nTWO\nend\n"},
		{"shown as Latin-1", "caf\u00E9\nONE \u00E9\nTWO\nend\n", "CHANG\u00C9", "caf\xE9\nCHANG\xC9 \xE9\nTWO\nend\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := lsptest.Start(t, lsptest.Setup{
				Caps: eglotCaps(), Files: map[string]string{"f.txt": data},
				InitOpts: map[string]any{"run": map[string]any{"allow": []string{odCommand("f.txt")}}},
				Script: fmt.Sprintf(`
name: plainbytes
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: f.txt, old_string: ONE, new_string: %q}}
  - tool_calls:
      - {id: r, name: run, args: {command: %q}}
  - text: done
    expect:
      tool_result_contains: {r: [%q]}
`, tc.newText, odCommand("f.txt"), odOf(tc.want)),
			})
			if err := h.Editor.Open(h.Ctx, "f.txt", tc.shown); err != nil {
				t.Fatal(err)
			}
			s := h.NewSession("build")
			wantStop(t, h.Prompt(s.SessionID, "edit"), "end_turn")
			if got := h.Read("f.txt"); got != tc.want {
				t.Fatalf("disk\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestEditBytesStillChecked: the disk path is behind the same checks as
// the editor's: in plan mode an edit of an open Latin-1 file that is not a
// plan is refused (nothing written), and an edit of an open Latin-1
// .envrc (a file the shell runs by itself) is asked, and written only
// when allowed.
func TestEditBytesStillChecked(t *testing.T) {
	t.Parallel()
	const data = "export A=caf\xE9\n# ONE\n"
	for _, tc := range []struct {
		name, file, mode, decision string
		asked, written             bool
	}{
		{"plan mode refuses", "notes.txt", "plan", "allow_once", false, false},
		{"auto-run file rejected", ".envrc", "build", "reject_once", true, false},
		{"auto-run file allowed", ".envrc", "build", "allow_once", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			asked := make(chan string, 4)
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			var h *lsptest.Env
			h = lsptest.Start(t, lsptest.Setup{Dir: dir, Files: map[string]string{tc.file: data},
				Script: fmt.Sprintf(`
name: checked
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: %s, old_string: ONE, new_string: TWO}}
  - text: done
`, tc.file),
				Handlers: lspclient.Handlers{
					ApplyEdit: vscodeLike(ctx, func() *lspclient.Client { return h.Editor }, dir),
					AskUser: func(raw json.RawMessage) any {
						asked <- string(raw)
						return map[string]any{"answers": map[string]any{"decision": tc.decision}}
					},
				}})
			if err := h.Editor.OpenFile(h.Ctx, tc.file); err != nil {
				t.Fatal(err)
			}
			s := h.NewSession(tc.mode)
			wantStop(t, h.Prompt(s.SessionID, "edit"), "end_turn")
			want := data
			if tc.written {
				want = strings.Replace(data, "ONE", "TWO", 1)
			}
			if got := h.Read(tc.file); got != want {
				t.Errorf("disk\n got %q\nwant %q", got, want)
			}
			if got := len(asked); (got > 0) != tc.asked {
				t.Errorf("asked %d times, want asked %v", got, tc.asked)
			}
			if buf := mustBuffer(t, h, tc.file); !tc.written && buf != lspclient.EditorText([]byte(data)) {
				t.Errorf("buffer %q: the refused edit reached it", buf)
			}
		})
	}
}

// TestEditBytesRewindKnowsTheWrite: with no command run after it (whose
// scan would record every file), the checkpoint knows an edit written
// under an open buffer as agentls's own write: a rewind restores the old
// bytes instead of keeping them as the user's change.
func TestEditBytesRewindKnowsTheWrite(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	var script strings.Builder
	script.WriteString("name: editbytes\nsteps:\n  - tool_calls:\n")
	for i, k := range bytesKinds {
		files[fmt.Sprintf("f%d.txt", i)] = k.data
		fmt.Fprintf(&script, "      - {id: e%d, name: edit, args: {path: f%d.txt, old_string: ONE, new_string: CHANGED}}\n", i, i)
	}
	script.WriteString("  - text: done\n")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var h *lsptest.Env
	h = lsptest.Start(t, lsptest.Setup{Dir: dir, Files: files, Caps: annotationCaps(), Script: script.String(),
		Handlers: lspclient.Handlers{ApplyEdit: vscodeLike(ctx, func() *lspclient.Client { return h.Editor }, dir)}})
	for i := range bytesKinds {
		if err := h.Editor.OpenFile(h.Ctx, fmt.Sprintf("f%d.txt", i)); err != nil {
			t.Fatal(err)
		}
	}
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "edit"), "end_turn")
	for i, k := range bytesKinds {
		if got, want := h.Read(fmt.Sprintf("f%d.txt", i)), strings.Replace(k.data, "ONE", "CHANGED", 1); got != want {
			t.Errorf("%s: disk\n got %q\nwant %q", k.name, got, want)
		}
	}
	rewindToStart(t, h, s.SessionID)
}

// rewindToStart rewinds the session's code to before its first message:
// no conflict, nothing skipped, every bytesKinds file f<i>.txt as before.
func rewindToStart(t *testing.T, h *lsptest.Env, sid string) {
	t.Helper()
	res, err := h.Rewind(agentproto.RewindParams{SessionID: sid, ToMessageID: firstUserMessage(t, h.LoadSession(sid).Messages), What: "code"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) > 0 || len(res.Skipped) > 0 {
		t.Errorf("rewind: conflicts %v, skipped %v", res.Conflicts, res.Skipped)
	}
	for i, k := range bytesKinds {
		if got := h.Read(fmt.Sprintf("f%d.txt", i)); got != k.data {
			t.Errorf("%s: disk after the rewind\n got %q\nwant %q", k.name, got, k.data)
		}
	}
}
