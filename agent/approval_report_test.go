package agent

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// lensEditor is a memEditor that, as the LSP face computes a plan's code
// lenses, asks whether the plan awaits approval whenever it is told that
// the plan's lenses may have changed: at each ApprovalChanged and
// ModeChanged (each sends workspace/codeLens/refresh there).
type lensEditor struct {
	*memEditor
	m atomic.Pointer[Manager]

	seenMu sync.Mutex
	seen   []string
}

func (e *lensEditor) look(what string) {
	m := e.m.Load()
	if m == nil {
		return
	}
	_, awaiting := m.AwaitingApproval("plans/p.plan")
	e.seenMu.Lock()
	defer e.seenMu.Unlock()
	e.seen = append(e.seen, fmt.Sprintf("%s: awaiting %v", what, awaiting))
}

func (e *lensEditor) ApprovalChanged(_, plan string) { e.look("approval of " + plan) }

func (e *lensEditor) ModeChanged(ctx context.Context, mc agentproto.ModeChangedParams) {
	e.memEditor.ModeChanged(ctx, mc)
	e.look("mode " + string(mc.Mode))
}

// TestApprovalReportedForLenses: the editor hears when a plan's approval
// starts and once it is withdrawn, whoever decided, and the plan no longer
// awaits approval once a decision was accepted: the mode change, which
// comes while the approval is still carried out, does not show the
// approval lenses above the approved plan (before, AwaitingApproval held
// until the tool returned, after the only refresh).
func TestApprovalReportedForLenses(t *testing.T) {
	t.Parallel()
	const script = `
name: lenses
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: P, path: plans/p.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] one\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/p.plan}}
  - text: next
`
	started := "approval of plans/p.plan: awaiting true"
	withdrawn := "approval of plans/p.plan: awaiting false"
	tests := []struct {
		name    string
		dialog  map[string]any // the dialog's answers; nil: agent/resolvePlan approves
		want    []string
		wantEnd agentproto.Mode
	}{
		{"approve in the dialog", map[string]any{"approve": true}, []string{started, "mode build: awaiting false", withdrawn}, agentproto.ModeBuild},
		{"keep planning in the dialog", map[string]any{"approve": false}, []string{started, withdrawn}, agentproto.ModePlan},
		{"agent/resolvePlan approves", nil, []string{started, "mode build: awaiting false", withdrawn}, agentproto.ModeBuild},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			asked := make(chan struct{})
			ed := &lensEditor{memEditor: &memEditor{}}
			ed.ask = func(ctx context.Context, req AskRequest) (AskReply, error) {
				close(asked)
				if tc.dialog != nil {
					return AskReply{Answers: tc.dialog}, nil
				}
				<-ctx.Done() // withdrawn once agent/resolvePlan decided
				return AskReply{}, ctx.Err()
			}
			m, _ := newTestManagerOf(t, script, ed.memEditor, ed, nil)
			s := newTestSession(t, m, "plan")
			ed.m.Store(m) // from here on: the new session's own mode change is not the approval's
			turn := make(chan error, 1)
			go func() {
				_, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "plan"})
				turn <- err
			}()
			<-asked
			if tc.dialog == nil {
				time.Sleep(personReads) // a person reads the plan, then approves it
				if _, err := m.ResolvePlan(context.Background(), s.ID(), "approve", ""); err != nil {
					t.Fatalf("ResolvePlan: %v", err)
				}
			}
			if err := <-turn; err != nil {
				t.Fatalf("turn: %v", err)
			}
			ed.seenMu.Lock()
			seen := slices.Clone(ed.seen)
			ed.seenMu.Unlock()
			if !slices.Equal(seen, tc.want) {
				t.Fatalf("the editor saw %q, want %q", seen, tc.want)
			}
			if mode := s.State().Mode; mode != tc.wantEnd {
				t.Fatalf("mode %s, want %s", mode, tc.wantEnd)
			}
		})
	}
}
