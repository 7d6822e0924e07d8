package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// writeAndAskPlanP are a script's steps that write plans/p.plan (call w)
// and ask its approval (call x).
const writeAndAskPlanP = `  - tool_calls:
      - {id: w, name: plan_write, args: {title: P, path: plans/p.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] one\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/p.plan}}
`

// TestApprovalAfterKeepPlanningIsWhatTheModelReads: the person answers
// the plan's approval with Keep Planning, so the tool result tells the
// model the plan was rejected and to revise it. /approve (agent/resolvePlan,
// the lens) then has no approval to decide: it is refused and nothing
// changes. Switching to build mode does approve the attached plan: the
// model's next request must say that the user approved it and that the
// earlier rejection no longer holds, beside BUILD mode and the approved
// plan (before, the "Plan rejected … present a revised plan" result stood
// unanswered in its context, and only the mode change was said).
func TestApprovalAfterKeepPlanningIsWhatTheModelReads(t *testing.T) {
	t.Parallel()
	const script = `
name: keep-then-build
steps:
` + writeAndAskPlanP + `  - expect:
      tool_result_contains: {x: ["Plan rejected by the user", "keep planning"]}
    text: still planning
  - expect:
      system_contains:
        - "You are in BUILD mode"
        - "APPROVED EXECUTION PLAN"
        - "The user approved the plan plans/p.plan by switching to BUILD mode"
        - "an earlier answer that it was not approved no longer holds"
    text: building
`
	ed := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
		return AskReply{Answers: map[string]any{"approve": false}}, nil // Keep Planning
	}}
	m, _ := newTestManager(t, script, ed, nil)
	s := newTestSession(t, m, "plan")
	ctx := context.Background()
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "plan"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn 1: %+v %v", res, err)
	}
	if _, err := m.ResolvePlan(ctx, s.ID(), "approve", ""); err == nil || !strings.Contains(err.Error(), "no plan is awaiting approval") {
		t.Fatalf("/approve after Keep Planning: %v, want it refused (no plan awaits approval)", err)
	}
	if got := s.State().Mode; got != agentproto.ModePlan {
		t.Fatalf("mode after the refused /approve = %s", got)
	}
	if _, err := m.SetMode(ctx, s.ID(), "build"); err != nil {
		t.Fatal(err)
	}
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "go on"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn 2 (the model's request lacks the approval): %+v %v", res, err)
	}
}

// TestApproveAfterADismissedApprovalIsWhatTheModelReads: a dismissed
// approval question stays pending, so /approve (agent/resolvePlan) decides
// it while the tool still waits: the tool result the model reads says the
// plan was approved and BUILD mode is on, with no "not approved" left in
// its context.
func TestApproveAfterADismissedApprovalIsWhatTheModelReads(t *testing.T) {
	t.Parallel()
	const script = `
name: dismiss-then-approve
steps:
` + writeAndAskPlanP + `  - expect:
      tool_result_contains: {x: ['"approved":true', "The user approved the plan. You are now in BUILD mode"]}
      system_contains: ["You are in BUILD mode", "APPROVED EXECUTION PLAN"]
    text: building
`
	asked := make(chan struct{})
	ed := &memEditor{answerAtOnce: true, ask: func(context.Context, AskRequest) (AskReply, error) {
		close(asked)
		return AskReply{Dismissed: true}, nil
	}}
	m, _ := newTestManager(t, script, ed, nil)
	s := newTestSession(t, m, "plan")
	ctx := context.Background()
	turn := make(chan error, 1)
	go func() {
		res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "plan"})
		if err == nil && res.StopReason != agentproto.StopEndTurn {
			err = fmt.Errorf("stop %s: %v", res.StopReason, res.Err)
		}
		turn <- err
	}()
	<-asked
	time.Sleep(personReads) // the person reads the plan, then types /approve
	if _, err := m.ResolvePlan(ctx, s.ID(), "approve", ""); err != nil {
		t.Fatalf("/approve after the dismissed question: %v", err)
	}
	if err := <-turn; err != nil {
		t.Fatalf("turn (the model's request lacks the approval): %v", err)
	}
	for _, msg := range s.modelMessages() {
		if strings.Contains(msg.Content, "not approved") || strings.Contains(msg.Content, "Plan rejected") {
			t.Errorf("the model's context still says the plan was not approved: %s", msg.Content)
		}
	}
}
