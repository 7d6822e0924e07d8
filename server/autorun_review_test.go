package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// autoRunWhy is what every face shows for the change to .vscode/tasks.json.
const autoRunWhy = "your editor or shell runs what it names by itself, outside agentls's sandbox"

// autoRunScript writes .vscode/tasks.json with a task that runs when the
// folder opens, review mode off; the model reads whether it applied.
func autoRunScript(applied bool) string {
	want := `["\"success\":false", "\"declined\":[{\"path\":\".vscode/tasks.json\",\"change\":\"create\"}]", "runs by itself, so every change to it is asked"]`
	if applied {
		want = `["\"success\":true"]`
	}
	return `
name: autorun
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: .vscode/tasks.json, content: "{\"tasks\":[{\"runOptions\":{\"runOn\":\"folderOpen\"}}]}"}}
  - text: done
    expect:
      tool_result_contains:
        w: ` + want + `
`
}

// answerAction picks the showMessageRequest action titled want.
func answerAction(raw json.RawMessage, want string) any {
	var p struct {
		Actions []json.RawMessage `json:"actions"`
	}
	_ = json.Unmarshal(raw, &p)
	for _, a := range p.Actions {
		var act struct {
			Title string `json:"title"`
		}
		_ = json.Unmarshal(a, &act)
		if act.Title == want {
			return a
		}
	}
	return nil
}

// TestAutoRunEditAskedOnEveryLSPClient: review mode off, the builder's
// write of .vscode/tasks.json is asked on every kind of LSP client, saying
// why: VS Code-like (change annotations: the annotated edit, its label
// naming the reason, needsConfirmation), an agent client without them
// (agent/askUser, purpose permission, kind edit), a plain client
// (window/showMessageRequest). Rejected (or unchecked), nothing applies.
func TestAutoRunEditAskedOnEveryLSPClient(t *testing.T) {
	for _, tc := range []struct {
		name  string
		caps  map[string]any
		apply bool
	}{
		{"annotations declined", annotationCaps(), false},
		{"annotations applied", annotationCaps(), true},
		{"askUser rejected", lsptest.FullCaps(), false},
		{"askUser applied", lsptest.FullCaps(), true},
		{"showMessageRequest rejected", lsptest.PlainCaps(), false},
		{"showMessageRequest applied", lsptest.PlainCaps(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var shown []string // what each face showed: the label, the question
			answer := "Reject"
			if tc.apply {
				answer = "Apply"
			}
			var h *lsptest.Env
			h = lsptest.Start(t, lsptest.Setup{
				Script: autoRunScript(tc.apply), Caps: tc.caps,
				Handlers: lspclient.Handlers{
					ApplyEditResult: func(raw json.RawMessage) any {
						var edit lspwire.WorkspaceEdit
						_ = json.Unmarshal(raw, &edit)
						mu.Lock()
						for _, a := range edit.ChangeAnnotations {
							if !a.NeedsConfirmation {
								t.Errorf("annotation %+v does not need confirmation", a)
							}
							shown = append(shown, a.Label)
						}
						mu.Unlock()
						if len(edit.ChangeAnnotations) > 0 && !tc.apply {
							return map[string]any{"applied": false} // Discard
						}
						ok, reason := h.Editor.ApplyToDisk(raw)
						return map[string]any{"applied": ok, "failureReason": reason}
					},
					AskUser: func(raw json.RawMessage) any {
						var q lsptest.AskUser
						_ = json.Unmarshal(raw, &q)
						mu.Lock()
						defer mu.Unlock()
						if q.Purpose != "permission" || q.Permission == nil || q.Permission.Kind != "edit" {
							t.Errorf("askUser %+v, want an edit permission", q)
							return map[string]any{"dismissed": true}
						}
						shown = append(shown, q.Permission.What, q.Questions[0].Question)
						decision := "reject_once"
						if tc.apply {
							decision = "allow_once"
						}
						return map[string]any{"answers": map[string]any{"decision": decision}}
					},
					ShowMessageRequest: func(raw json.RawMessage) any {
						var p struct {
							Message string `json:"message"`
						}
						_ = json.Unmarshal(raw, &p)
						mu.Lock()
						shown = append(shown, p.Message)
						mu.Unlock()
						return answerAction(raw, answer)
					},
				},
			})
			s := h.NewSession("build")
			if s.Review != "off" {
				t.Fatalf("review = %q, want off", s.Review)
			}
			wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
			_, err := os.Stat(filepath.Join(h.Dir, ".vscode", "tasks.json"))
			if applied := err == nil; applied != tc.apply {
				t.Fatalf("tasks.json applied = %v, want %v", applied, tc.apply)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(shown) == 0 {
				t.Fatal("nothing was shown to the user")
			}
			for _, text := range shown {
				if !strings.Contains(text, ".vscode/tasks.json") || !strings.Contains(text, autoRunWhy) {
					t.Errorf("shown %q, want the file and why", text)
				}
			}
		})
	}
}
