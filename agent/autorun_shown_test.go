package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/sandbox"
)

// TestAutoRunQuestionShowsAllKeepKeeps: the question after a command shows
// everything Keep would keep. A new repository with 12 settings beyond
// git's own, the 10th core.fsmonitor (a program VS Code's git runs by
// itself): the question names it with its program. A command creating 500
// hook files: the question stays short and refers to a generated document
// in the state folder, opened beside it, that lists all 500. Fails on
// b6eedb7: the question listed 8 keys then "4 more", no value, and all 500
// hooks in the question itself.
func TestAutoRunQuestionShowsAllKeepKeeps(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	var settings strings.Builder
	for i := 1; i <= 12; i++ {
		if i == 10 {
			settings.WriteString(`[core]\n\tfsmonitor = /opt/evil/fsmon --watch\n`)
			continue
		}
		fmt.Fprintf(&settings, `[x%d]\n\tk = v%d\n`, i, i)
	}
	for _, tc := range []struct {
		name    string
		command string
		// want are in the question's text, or in the document when doc.
		want []string
		doc  bool
	}{
		{"twelve settings", "cd w && git init -q sub && printf '" + settings.String() + "' >> sub/.git/config",
			[]string{"- `w/sub/.git/config`: created with settings beyond git's own", "  - `core.fsmonitor = /opt/evil/fsmon --watch`", "  - `x12.k = v12`", "  - `x1.k = v1`"}, false},
		{"500 hooks", "cd w && git init -q sub && for i in $(seq 500); do echo x > sub/.git/hooks/h$i; done",
			[]string{"- `w/sub/.git/hooks/h1`: created", "- `w/sub/.git/hooks/h250`: created", "- `w/sub/.git/hooks/h500`: created"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var asked []permission.Request
			ed := &memEditor{}
			ed.ask = func(_ context.Context, req AskRequest) (AskReply, error) {
				if req.Permission != nil && req.Permission.Kind == agentproto.PermissionRun {
					return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
				}
				mu.Lock()
				defer mu.Unlock()
				if req.Permission != nil {
					asked = append(asked, *req.Permission)
				}
				return AskReply{Answers: map[string]any{"decision": "reject_once"}}, nil
			}
			script := "name: sentinel\nsteps:\n  - tool_calls:\n      - {id: c, name: run, args: {command: " + quoteYAML(tc.command) + "}}\n  - text: done\n"
			m, _ := newTestManager(t, script, ed, func(c *config.Config) {
				if sandbox.Detect().Status(sandbox.ModeLandlock).Mode == string(sandbox.ModeLandlock) {
					c.Sandbox.Mode = string(sandbox.ModeLandlock) // as TestAutoRunCommandAsked
				}
			})
			m.stateDir = t.TempDir()
			if err := os.MkdirAll(filepath.Join(m.ws.Root(), "w"), 0o755); err != nil { // Landlock alone: no new entry at the top
				t.Fatal(err)
			}
			s := newTestSession(t, m, "build")
			_, _ = m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"})
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 {
				t.Fatalf("asked %d times: %+v (the run: %s)", len(asked), asked, ed.toolResult("c"))
			}
			text := asked[0].Text()
			shown := text
			if tc.doc {
				doc := asked[0].Document
				if doc == "" || filepath.Dir(doc) != filepath.Join(m.stateDir, "questions") {
					t.Fatalf("document %q, want one in %s; the question (%d bytes):\n%.2000s", doc, m.stateDir, len(text), text)
				}
				if !strings.Contains(text, "What it did: 501 lines, in full in "+doc+" (opened beside this question)") && !strings.Contains(text, "What it did: 500 lines, in full in "+doc) {
					t.Errorf("the question does not refer to the document:\n%s", text)
				}
				if len(text) > 2000 {
					t.Errorf("the question is %d bytes long", len(text))
				}
				body, err := os.ReadFile(doc)
				if err != nil {
					t.Fatal(err)
				}
				shown = string(body)
				if n := strings.Count(shown, "\n- `w/sub/.git/hooks/h"); n != 500 {
					t.Errorf("the document lists %d hooks, want 500", n)
				}
				ed.mu.Lock()
				opened := ed.shown
				ed.mu.Unlock()
				if len(opened) != 1 || opened[0] != doc {
					t.Errorf("opened %v, want the document %s", opened, doc)
				}
			} else if asked[0].Document != "" {
				t.Errorf("a document %s for 13 lines", asked[0].Document)
			}
			for _, want := range tc.want {
				if !strings.Contains(shown, want) {
					t.Errorf("what the question shows lacks %q:\n%.3000s", want, shown)
				}
			}
			if title := asked[0].Title(); len(title) > len(tc.command)+300 { // the command, and a few changes
				t.Errorf("title %d bytes long: %.300s…", len(title), title)
			}
		})
	}
}
