package server_test

import (
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// lensView is what an editor that re-requests code lenses only when told
// (workspace/codeLens/refresh) shows above a plan: the lenses of its last
// request. A plan whose text does not change (a rejection, or any plan
// while the approval's outcome is carried out) gets no other request.
type lensView struct {
	env atomic.Pointer[lsptest.Env]
	rel string

	fetch   sync.Mutex // one request at a time: the last one is the newest
	mu      sync.Mutex
	shown   []string
	changed chan struct{} // closed and replaced when shown changes
}

func newLensView(rel string) *lensView {
	return &lensView{rel: rel, changed: make(chan struct{})}
}

// refresh answers workspace/codeLens/refresh as VS Code does: it requests
// the plan's lenses again.
func (v *lensView) refresh(json.RawMessage) (any, error) {
	h := v.env.Load()
	if h == nil {
		return nil, nil
	}
	v.fetch.Lock()
	defer v.fetch.Unlock()
	var got []lens
	if err := h.Editor.Call(h.Ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": h.Editor.URI(v.rel)}}, &got); err != nil {
		return nil, err
	}
	v.mu.Lock()
	v.shown = renderLenses(got)
	close(v.changed)
	v.changed = make(chan struct{})
	v.mu.Unlock()
	return nil, nil
}

// await waits until the first lens shown is want. The editor gets no
// other chance to change what it shows: a refresh that never comes leaves
// the stale lens, and the wait ends at its bound.
func (v *lensView) await(t *testing.T, what, want string) {
	t.Helper()
	bound := time.NewTimer(10 * time.Second)
	defer bound.Stop()
	for {
		v.mu.Lock()
		shown, changed := v.shown, v.changed
		v.mu.Unlock()
		if len(shown) > 0 && shown[0] == want {
			return
		}
		select {
		case <-changed:
		case <-bound.C:
			t.Fatalf("%s: the editor shows %q, want first %q", what, shown, want)
		}
	}
}

// TestApprovalLensesRefresh: an editor that refreshes code lenses when
// asked shows "Approve & Build" / "Keep Planning" above a plan while its
// approval waits, and no longer once the approval is decided, however it
// was decided: the approved plan shows its status, the rejected one the
// draft's build lens. Before, the only refresh went out with the mode
// change, while the approval was still registered (so an editor asking
// then kept the approval lens above the approved plan), and a rejection
// or the dialog of an editor with agent/askUser sent none.
func TestApprovalLensesRefresh(t *testing.T) {
	t.Parallel()
	const rel = "plans/greet.plan"
	const script = `
name: approval-lenses
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nGreet.\n\n## Steps\n- [ ] Write hello.txt\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - tool_calls:
      - id: q
        name: ask_user
        args:
          questions:
            - {name: more, question: "Anything else?", schema: {type: string, enum: ["no", "yes"]}}
  - text: done
`
	const (
		statusLens = `Status: approved → agentls.showPlan {"path":"plans/greet.plan"}`
		buildLens  = `Approve & Build → agentls.buildPlan {"path":"plans/greet.plan"}`
	)
	tests := []struct {
		name string
		// shown: the editor opens the plan beside the question
		// (window/showDocument) and requests its lenses then; else the plan
		// was open already and only a refresh shows the approval lenses.
		shown bool
		// dialog is the approval dialog's answer; nil leaves it open and
		// the approval lens decides.
		dialog any
		want   string
	}{
		{"approve in the dialog", true, map[string]any{"answers": map[string]any{"approve": true}}, statusLens},
		{"keep planning in the dialog", true, map[string]any{"answers": map[string]any{"approve": false}}, buildLens},
		{"keep planning in the dialog, plan open already", false, map[string]any{"answers": map[string]any{"approve": false}}, buildLens},
		{"approve through the lens, plan open already", false, nil, statusLens},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			view := newLensView(rel)
			decide := make(chan any, 1)    // the approval dialog's answer
			answer := make(chan struct{})  // dismisses the turn's next question
			release := make(chan struct{}) // ends the questions left open
			defer close(release)
			caps := lsptest.FullCaps()
			caps["workspace"].(map[string]any)["codeLens"] = map[string]any{"refreshSupport": true}
			h := lsptest.Start(t, lsptest.Setup{
				Caps:   caps,
				Script: script,
				Handlers: lspclient.Handlers{
					AskUser: func(raw json.RawMessage) any {
						if strings.Contains(string(raw), `"purpose":"plan_approval"`) {
							select {
							case a := <-decide:
								return a
							case <-release:
							}
						}
						select {
						case <-answer:
						case <-release:
						}
						return map[string]any{"dismissed": true}
					},
					Requests: map[string]func(json.RawMessage) (any, error){"workspace/codeLens/refresh": view.refresh},
				},
			})
			view.env.Store(h)
			s := h.NewSession("plan")
			done := h.PromptAsync(s.SessionID, "plan a greeting")
			h.Await(lsptest.MethodCount("agent/askUser", 1))
			if tc.shown {
				h.Await(lsptest.MethodCount("window/showDocument", 1))
				if _, err := view.refresh(nil); err != nil {
					t.Fatalf("lenses of the shown plan: %v", err)
				}
			}

			approveLens := `Approve & Build → agentls.approvePlan {"planFile":"plans/greet.plan","sessionId":"` + s.SessionID + `"}`
			view.await(t, "while the approval waits", approveLens)
			if tc.dialog != nil {
				decide <- tc.dialog
			} else {
				var res agentproto.ApprovePlanResult
				h.ReadAsAPerson() // a person reads the plan before approving it
				if err := command(h, "agentls.approvePlan", map[string]any{"sessionId": s.SessionID}, &res); err != nil || res.Session == nil {
					t.Fatalf("approve lens: %+v, %v", res, err)
				}
			}
			// The turn goes on and waits on its next question: the
			// approval is over.
			h.Await(lsptest.MethodCount("agent/askUser", 2))
			view.await(t, "once the approval is decided", tc.want)

			answer <- struct{}{} // the question is dismissed, the turn ends
			if r := <-done; r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v", r)
			}
		})
	}
}
