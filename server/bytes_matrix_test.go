package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// editorKind is a file kind of the data-integrity matrix for the editor
// path (b): its bytes, and the line "TARGET" the agent edits, on a line
// away from the odd bytes or after them on the same line (where a wrong
// UTF-16 column lands the edit on the wrong bytes).
type editorKind struct {
	name string
	data string
	// decoded is the text a plain editor (Neovim, Emacs) holds in its
	// buffer for the file: Latin-1 decoded, "\r" of line breaks dropped;
	// empty for data itself.
	decoded string
}

var editorKinds = []editorKind{
	{name: "utf8 lf", data: "one\ntwo\nTARGET\n"},
	{name: "latin1", data: "caf\xE9\nTARGET\nend\n", decoded: "café\nTARGET\nend\n"},
	{name: "latin1 before target on its line", data: "x \xE9\xE9 TARGET \xE9\n", decoded: "x éé TARGET é\n"},
	{name: "invalid utf8 before target", data: "\xE2\x82 \xF0\x9F TARGET\n", decoded: "\u00E2\u0082 \u00F0\u009F TARGET\n"},
	{name: "utf8 bom", data: "\uFEFFTARGET first\nlast\n", decoded: "TARGET first\nlast\n"},
	{name: "crlf", data: "a\r\nTARGET\r\nb\r\n", decoded: "a\nTARGET\nb\n"},
	{name: "mixed crlf lf", data: "a\r\nb\nTARGET\r\nd\n"},
	{name: "cr only", data: "a\rTARGET\rb\r", decoded: "a\nTARGET\nb\n"},
	{name: "no final newline", data: "a\nTARGET"},
	{name: "astral and combining before target", data: "😀\n😀😀 e\u0301 TARGET 😀\n"},
	{name: "replacement char before target", data: "\uFFFD\uFFFD TARGET\n"},
}

// editorScript edits TARGET in each file k<i>.txt.
func editorScript(n int) string {
	var b strings.Builder
	b.WriteString("name: bytes\nsteps:\n  - tool_calls:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - {id: e%d, name: edit, args: {path: k%d.txt, old_string: TARGET, new_string: CHANGED}}\n", i, i)
	}
	b.WriteString("  - text: done\n")
	return b.String()
}

// TestBytesMatrixEditor is the data-integrity matrix for edits through the
// editor's workspace/applyEdit (b), in review mode (c) and a rewind after
// them (d): the fake
// editor decodes a file it opens as VS Code does and counts positions in
// UTF-16 units on its own. Whatever the route, the file's bytes outside
// the edited word stay, and a rewind restores the file byte for byte.
func TestBytesMatrixEditor(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i, k := range editorKinds {
		files[fmt.Sprintf("k%d.txt", i)] = k.data
	}
	tests := []struct {
		name string
		caps map[string]any
		// open: the editor has each file open, with this text in its buffer.
		open func(k editorKind) string
		// review: review mode (c), each edit applied once the user's
		// Apply (window/showMessageRequest) answers its question.
		review bool
	}{
		{name: "vscode, files not open", caps: lsptest.FullCaps()},
		{name: "vscode, files open", caps: lsptest.FullCaps(),
			open: func(k editorKind) string { return lspclient.EditorText([]byte(k.data)) }},
		{name: "review, plain editor, files not open", caps: lsptest.PlainCaps(), review: true},
		{name: "plain editor writing behind, files open decoded", caps: lsptest.PlainCaps(),
			open: func(k editorKind) string {
				if k.decoded != "" {
					return k.decoded
				}
				return k.data
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var asked []string // the review questions
			apply := func(raw json.RawMessage) any {
				var p struct {
					Message string            `json:"message"`
					Actions []json.RawMessage `json:"actions"`
				}
				_ = json.Unmarshal(raw, &p)
				mu.Lock()
				asked = append(asked, p.Message)
				mu.Unlock()
				for _, a := range p.Actions {
					if strings.Contains(string(a), `"Apply"`) {
						return a
					}
				}
				return nil
			}
			h := lsptest.Start(t, lsptest.Setup{Caps: tc.caps, Files: files, Script: editorScript(len(editorKinds)),
				Handlers: lspclient.Handlers{ShowMessageRequest: apply}})
			for i, k := range editorKinds {
				if tc.open != nil {
					if err := h.Editor.Open(h.Ctx, fmt.Sprintf("k%d.txt", i), tc.open(k)); err != nil {
						t.Fatal(err)
					}
				}
			}
			s := h.NewSession("build")
			if tc.review {
				setReview(t, h, s.SessionID, "edits")
			}
			wantStop(t, h.Prompt(s.SessionID, "edit"), "end_turn")
			mu.Lock()
			if n := len(asked); tc.review && n != len(editorKinds) {
				t.Errorf("asked %d review questions, want one per edit (%d)", n, len(editorKinds))
			}
			mu.Unlock()
			for i, k := range editorKinds {
				name := fmt.Sprintf("k%d.txt", i)
				edited := strings.Replace(k.data, "TARGET", "CHANGED", 1)
				if tc.open != nil && tc.caps["experimental"] != nil && !workspace.FormOf(k.data).EditorSafe() {
					// A file the editor cannot hold as it is: agentls
					// writes the edit on disk (edits_bytes.go) and VS
					// Code reloads the document.
					if got := h.Read(name); got != edited {
						t.Errorf("%s: disk bytes\n got %q\nwant %q", k.name, got, edited)
					}
					if _, err := h.Editor.Revert(h.Ctx, name); err != nil {
						t.Fatal(err)
					}
					if buf, _ := h.Editor.Buffer(name); buf != lspclient.EditorText([]byte(edited)) {
						t.Errorf("%s: buffer after the reload\n got %q\nwant %q", k.name, buf, lspclient.EditorText([]byte(edited)))
					}
					continue
				}
				if tc.open != nil && tc.caps["experimental"] != nil {
					// The editor saves its buffer itself: the buffer is
					// what it holds, edited at the right columns.
					buf, _ := h.Editor.Buffer(name)
					if want := strings.Replace(tc.open(k), "TARGET", "CHANGED", 1); buf != want {
						t.Errorf("%s: buffer\n got %q\nwant %q", k.name, buf, want)
					}
					continue
				}
				if got, want := h.Read(name), strings.Replace(k.data, "TARGET", "CHANGED", 1); got != want {
					t.Errorf("%s: disk bytes\n got %q\nwant %q", k.name, got, want)
				}
			}
			if tc.open != nil {
				return
			}
			// (d) A rewind to before the turn restores every file's bytes.
			turn1 := firstUserMessage(t, h.LoadSession(s.SessionID).Messages)
			if _, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn1, What: "code"}); err != nil {
				t.Fatal(err)
			}
			for i, k := range editorKinds {
				if got := h.Read(fmt.Sprintf("k%d.txt", i)); got != k.data {
					t.Errorf("%s: after rewind\n got %q\nwant %q", k.name, got, k.data)
				}
			}
		})
	}
}
