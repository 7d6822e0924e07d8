package server_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// progressCaps is fullCaps with work-done progress.
func progressCaps() map[string]any {
	caps := lsptest.FullCaps()
	caps["window"] = map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}}
	return caps
}

// TestUnansweredProgressCreate: an editor that never answers
// window/workDoneProgress/create holds neither its turn nor another
// session's: the create gives up after editor.request_timeout_secs and the
// turns run to their end without progress.
func TestUnansweredProgressCreate(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:     progressCaps(),
		Handlers: lspclient.Handlers{Unanswered: []string{"window/workDoneProgress/create"}},
		InitOpts: map[string]any{"editor": map[string]any{"request_timeout_secs": 1}},
		Files:    map[string]string{"a.txt": "x\n"},
		Script: `
name: two-turns
steps:
  - text: one
  - text: two
  - text: three
`,
	})
	a, b := h.NewSession("plan"), h.NewSession("plan")
	first, second := h.PromptAsync(a.SessionID, "go"), h.PromptAsync(b.SessionID, "go")
	for _, r := range []agentproto.PromptResult{<-first, <-second} {
		if r.StopReason != "end_turn" {
			t.Fatalf("prompt = %+v (%s)", r, r.Error)
		}
	}
	if n := len(h.Messages("window/workDoneProgress/create")); n != 2 {
		t.Fatalf("%d progress creates, want one per turn", n)
	}
	// Once a create went unanswered, later turns do not ask again (each
	// would wait as long before its first model request).
	if r := <-h.PromptAsync(a.SessionID, "again"); r.StopReason != "end_turn" {
		t.Fatalf("third prompt = %+v (%s)", r, r.Error)
	}
	if n := len(h.Messages("window/workDoneProgress/create")); n != 2 {
		t.Fatalf("%d progress creates after the editor stayed silent, want no new one", n)
	}
	if n := len(h.Messages("$/progress")); n != 0 {
		t.Fatalf("%d $/progress for a token the editor never created", n)
	}
}

// TestProgressCancelEndsTheTurn: the progress is cancellable, and the
// editor's window/workDoneProgress/cancel cancels the turn it shows.
func TestProgressCancelEndsTheTurn(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:     progressCaps(),
		Handlers: lspclient.Handlers{Unanswered: []string{"agent/askUser"}}, // the user never answers
		Script: `
name: cancelled-by-progress
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [` + branchQuestion + `]}}
  - text: not reached
`,
	})
	s := h.NewSession("plan")
	done := h.PromptAsync(s.SessionID, "go")
	var begin struct {
		Token string `json:"token"`
		Value struct {
			Kind        string `json:"kind"`
			Cancellable bool   `json:"cancellable"`
		} `json:"value"`
	}
	h.Await(lsptest.MessageMatching("a $/progress begin", func(m lspclient.Message) bool {
		return m.Method == "$/progress" && json.Unmarshal(m.Params, &begin) == nil && begin.Value.Kind == "begin"
	}))
	if !begin.Value.Cancellable {
		t.Fatal("the turn's progress is not cancellable")
	}
	if err := h.Editor.Notify(h.Ctx, "window/workDoneProgress/cancel", map[string]any{"token": begin.Token}); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.StopReason != "cancelled" {
		t.Fatalf("prompt after window/workDoneProgress/cancel = %+v", r)
	}
}

// TestUnansweredApplyEdit: an editor that never answers workspace/applyEdit
// fails the edit's tool call after editor.request_timeout_secs (the model
// reads why) and the turn goes on; nothing was written.
func TestUnansweredApplyEdit(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{Unanswered: []string{"workspace/applyEdit"}},
		InitOpts: map[string]any{"editor": map[string]any{"request_timeout_secs": 1}},
		Files:    map[string]string{"a.txt": "alpha\n"},
		Script: `
name: hung-apply
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: alpha, new_string: beta}}
  - text: the edit failed
    expect:
      tool_result_contains: {e: ["did not answer workspace/applyEdit within 1s (editor.request_timeout_secs)"]}
`,
	})
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "edit"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	if got := h.Read("a.txt"); got != "alpha\n" {
		t.Fatalf("a.txt = %q", got)
	}
}

// TestRunOutputInWorkDoneProgress: while a command runs, its newest output
// line is the turn's work-done progress ("BUILD: run: compiling"), shown by
// any editor with progress (the status line of Neovim, Helix, eglot 1.12+,
// VS Code's progress) before the command ends.
func TestRunOutputInWorkDoneProgress(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:     progressCaps(),
		InitOpts: map[string]any{"plan_mode": map[string]any{"default_active": false}, "run": map[string]any{"allow": []string{"sh build.sh"}}},
		Files:    map[string]string{"build.sh": "echo compiling; sleep 2; echo done\n"},
		Script: `
name: run-progress
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "sh build.sh"}}
  - text: built
`,
	})
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "build"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	var texts []string
	for _, raw := range h.Messages("$/progress") {
		var p struct {
			Value struct{ Message string } `json:"value"`
		}
		_ = json.Unmarshal(raw, &p)
		texts = append(texts, p.Value.Message)
	}
	if !slices.Contains(texts, "BUILD: run: compiling") {
		t.Fatalf("progress messages %q lack the command's output line", texts)
	}
}
