package agent

import (
	"context"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// progressTools is a tool source with one read-only tool, tick, that
// reports one progress line while it runs (as run reports a command's
// newest output line).
type progressTools struct{}

func (progressTools) SessionTools(context.Context, string) []tools.Tool {
	return []tools.Tool{tools.New(tools.Def[struct{}]{Name: "tick", Description: "Tick.\n", Kind: "read",
		Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended,
			Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace, Paths: guard.NoPaths()},
		Run: func(ctx context.Context, env tools.Env, _ struct{}) (tools.Result, error) {
			env.(tools.ProgressReporter).ReportProgress(ctx, "tick", "half way")
			return tools.OK("ticked"), nil
		}})}
}

// TestSubAgentProgressReachesTheRoot: a sub-agent's running call reports
// its progress (a command's newest line) on the root's stream, under the
// call's id as the stream names it (the one its tool_call and its end
// carry), between the two. Fails on 5a68df6: treeNotes dropped it, so
// a sub-agent's long command showed nothing while it ran.
func TestSubAgentProgressReachesTheRoot(t *testing.T) {
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: tick}}
  - text: done
children:
  explore-1:
    - tool_calls: [{id: k, name: tick}]
    - text: ticked
`
	m, ed := newToolSourceManager(t, script, progressTools{})
	s := newTestSession(t, m, "plan")
	if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	started, progress, done := -1, -1, -1
	var wire string
	for i, u := range ed.updates {
		switch v := u.(type) {
		case agentproto.ToolCallStarted:
			if v.ParentToolCallID != "" && v.Title != "" && started < 0 {
				started, wire = i, v.ToolCallID
			}
		case UpdateToolCallProgress:
			if v.ToolCallID == wire && len(v.Content) == 1 && v.Content[0].Content.Text == "half way" && v.Status == "in_progress" {
				progress = i
			}
		case UpdateToolCallDone:
			if v.ToolCallID == wire && wire != "" {
				done = i
			}
		}
	}
	if started < 0 || progress < 0 || done < 0 || !(started < progress && progress < done) {
		t.Fatalf("the child's call on the root's stream: started %d, progress %d, done %d (id %q); updates:\n%+v", started, progress, done, wire, ed.updates)
	}
	if wire == "k" {
		t.Errorf("the child's call kept its own id %q on the root's stream", wire)
	}
}
