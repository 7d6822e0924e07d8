package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// commentsScript: the planner presents a plan; the user's two review
// comments come back as the rejection's reason ("Request changes"); a
// revision that leaves one open is refused at exit_plan_mode, and so is one
// that deletes a comment instead of resolving it; the one that resolves
// both is approved.
const commentsScript = `
name: comments
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Write hello.txt\n- [ ] Test it\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x: ["Plan rejected by the user", "the user requests changes: 2 open review comment(s)", "name it greeting.txt", "test the accent"]
    tool_calls:
      - {id: w2, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Write greeting.txt\n> resolved: named greeting.txt\n- [ ] Test it\n> review: test the accent\n"}}
  - tool_calls:
      - {id: x2, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x2: ['"success":false', "1 open review comment(s)", "test the accent"]
    tool_calls:
      - {id: w2b, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Write greeting.txt\n> resolved: named greeting.txt\n- [ ] Test it\n"}}
  - tool_calls:
      - {id: x2b, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x2b: ['"success":false', "requested changes with 2 review comment(s), but the plan resolves only 1", "do not delete it"]
    tool_calls:
      - {id: w3, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Write greeting.txt\n> resolved: named greeting.txt\n- [ ] Test it with héllo\n> resolved: the test says héllo\n"}}
  - tool_calls:
      - {id: x3, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x3: ['"approved":true']
    text: building
`

// addComments writes the user's two review comments under the plan's steps
// as the user does in the editor: open, change, save, close.
func addComments(t *testing.T, h *lsptest.Env) {
	t.Helper()
	p := filepath.Join(h.Dir, "plans", "greet.plan")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "- [ ] Write hello.txt\n", "- [ ] Write hello.txt\n> review: name it greeting.txt\n", 1)
	text = strings.Replace(text, "- [ ] Test it\n", "- [ ] Test it\n> review: test the accent\n", 1)
	for _, err := range []error{h.Editor.Open(h.Ctx, greetPlan, text), h.Editor.Save(h.Ctx, greetPlan), h.Editor.CloseDocument(h.Ctx, greetPlan)} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlanComments: a plan with two open review comments cannot be
// approved (agent/resolvePlan, agentls.approvePlan and agent/setMode are
// refused with the reason); its lenses offer "Request changes" beside
// "Approve & Build", which rejects with the comments as the reason; the
// planner's revision that resolves both is approved, and the approval
// question says how many were resolved. Through agent/askUser (our
// plugins) and through window/showMessageRequest and commands (a plain
// editor).
func TestPlanComments(t *testing.T) {
	tests := []struct {
		name  string
		caps  map[string]any
		plain bool
	}{
		{"agent client", nil, false},
		{"plain editor", lsptest.PlainCaps(), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var questions []string
			calls := 0
			answer := func(text string, first, later any) any {
				mu.Lock()
				defer mu.Unlock()
				questions = append(questions, text)
				calls++
				if calls == 1 {
					return first // dismissed: the approval stays pending
				}
				return later
			}
			h := lsptest.Start(t, lsptest.Setup{
				Script: commentsScript, Caps: tc.caps,
				Handlers: lspclient.Handlers{
					AskUser: func(raw json.RawMessage) any {
						return answer(string(raw), map[string]any{"dismissed": true}, map[string]any{"answers": map[string]any{"approve": true}})
					},
					ShowMessageRequest: func(raw json.RawMessage) any {
						return answer(string(raw), nil, map[string]any{"title": "Accept & Build"})
					},
				},
			})
			s := h.NewSession("plan")
			done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
			method := "agent/askUser"
			if tc.plain {
				method = "window/showMessageRequest"
			}
			h.AwaitInTurn(s.SessionID, lsptest.Received(method))
			addComments(t, h)

			_, err := resolvePlan(h, s.SessionID, "approve", "")
			wantInvalidParams(t, err, "cannot be approved while it has 2 open review comment(s)")
			err = h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.approvePlan", "arguments": []any{map[string]any{"sessionId": s.SessionID}}}, nil)
			wantInvalidParams(t, err, "name it greeting.txt")
			err = h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "build"}, nil)
			wantInvalidParams(t, err, "open review comment")

			got := renderLenses(lensesOf(h, greetPlan))
			want := `Request changes (2 comments) → agentls.requestChanges {"sessionId":"` + s.SessionID + `"}`
			if len(got) < 3 || !strings.HasPrefix(got[0], "Approve & Build") || got[2] != want {
				t.Fatalf("lenses = %q, want Approve & Build, Keep Planning, then %q", got, want)
			}
			if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.requestChanges", "arguments": []any{map[string]any{"sessionId": s.SessionID}}}, nil); err != nil {
				t.Fatalf("agentls.requestChanges: %v", err)
			}
			out := <-done
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			wantStop(t, out.Result, "end_turn")
			if got := h.Editor.Mode(s.SessionID); got != "build" {
				t.Fatalf("mode = %q, want build after the revised plan's approval", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(questions) != 2 {
				t.Fatalf("%d approval questions, want 2", len(questions))
			}
			if strings.Contains(questions[0], "resolved") || !strings.Contains(questions[1], "2 review comments were resolved.") {
				t.Fatalf("approval questions do not count the resolved comments:\n%s\n---\n%s", questions[0], questions[1])
			}
		})
	}
}

// TestRequestChangesNeedsComments: without an open comment there is
// nothing to send, and the lens is not shown.
func TestRequestChangesNeedsComments(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{
		Script:   approvalScript(approvedScript),
		Handlers: lspclient.Handlers{AskUser: replySequence(map[string]any{"dismissed": true}, map[string]any{"answers": map[string]any{"approve": true}})},
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
	h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
	for _, l := range renderLenses(lensesOf(h, greetPlan)) {
		if strings.HasPrefix(l, "Request changes") {
			t.Fatalf("lens %q on a plan without comments", l)
		}
	}
	err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.requestChanges", "arguments": []any{map[string]any{"sessionId": s.SessionID}}}, nil)
	wantInvalidParams(t, err, "has no open review comment")
	h.ReadAsAPerson() // a person reads the plan before approving it
	if _, err := resolvePlan(h, s.SessionID, "approve", ""); err != nil {
		t.Fatal(err)
	}
	if out := <-done; out.Err != nil {
		t.Fatal(out.Err)
	}
}

// TestCommentOnThisStep: the code action on a step (or on one of its
// comments) inserts a "> review: " line after the step's comments; other
// lines and other documents get none.
func TestCommentOnThisStep(t *testing.T) {
	const plan = "---\ntitle: T\nstatus: draft\n---\n## Steps\n- [ ] One\n> resolved: done\n- [ ] Two\n"
	h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{"plans/t.plan": plan, "notes.md": "- [ ] One\n"}})
	type action struct {
		Title string
		Kind  string
		Edit  struct {
			Changes map[string][]struct {
				Range struct {
					Start struct{ Line int }
				}
				NewText string
			}
		}
	}
	actions := func(rel string, line int) []action {
		var out []action
		pos := map[string]any{"line": line, "character": 0}
		if err := h.Editor.Call(h.Ctx, "textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": h.Editor.URI(rel)}, "range": map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}},
		}, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct {
		line, want int
	}{{5, 7}, {6, 7}, {7, 8}} {
		got := actions("plans/t.plan", tc.line)
		if len(got) != 1 || got[0].Title != "Comment on this step" {
			t.Fatalf("line %d: actions %+v", tc.line, got)
		}
		edits := got[0].Edit.Changes[h.Editor.URI("plans/t.plan")]
		if len(edits) != 1 || edits[0].Range.Start.Line != tc.want || edits[0].NewText != "> review: \n" {
			t.Fatalf("line %d: edit %+v, want an insertion at line %d", tc.line, edits, tc.want)
		}
	}
	if got := actions("plans/t.plan", 4); len(got) != 0 {
		t.Fatalf("a heading got %+v", got)
	}
	if got := actions("notes.md", 0); len(got) != 0 {
		t.Fatalf("a markdown file got %+v", got)
	}
}
