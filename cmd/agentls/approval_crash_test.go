package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/internal/lspclient"
)

// TestKillDuringApprovalGrantsNothing kills the real agentls process (kill
// -9) while its plan approval question is open in the editor; a restarted
// agentls loads the session: it is still in PLAN mode, the plan is not
// approved, no approval is pending to be granted by a late answer, and the
// model's next request is a planning one (no approved plan in its system
// prompt) whose history reports the interrupted exit_plan_mode as failed.
func TestKillDuringApprovalGrantsNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	dir := t.TempDir()
	const planText = "# Goal\nGreet.\n\n## Steps\n- [ ] Write hello.txt\n"
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		last := r.Messages[len(r.Messages)-1]
		switch {
		case r.LastUser() == "plan it" && last.Role == "user":
			return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{
				fakeopenai.Call("call_w", "plan_write", `{"title":"Greeting","path":"plans/greet.plan","content":"`+strings.ReplaceAll(planText, "\n", `\n`)+`"}`),
			}}
		case r.LastUser() == "plan it" && last.ToolCallID == "call_w":
			return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{
				fakeopenai.Call("call_x", "exit_plan_mode", `{"plan_file_path":"plans/greet.plan"}`),
			}}
		}
		return fakeopenai.Reply{Text: "Still planning."}
	}})
	defer fake.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	init := map[string]any{
		"rootUri": "file://" + filepath.ToSlash(dir),
		"capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true},
			"experimental": map[string]any{"agent": map[string]any{"askUser": true, "savesEdits": true}}},
		"initializationOptions": map[string]any{
			"model": map[string]any{"provider": "openai", "base_url": fake.URL, "api_key_env": "MY_KEY", "name": "m"},
		},
	}

	// First process: the approval question reaches the editor, which kills
	// agentls instead of answering.
	started := make(chan *os.Process, 1)
	var once sync.Once
	var proc *os.Process
	ed, err := lspclient.Start(ctx, dir, processServe(t, started), lspclient.Handlers{
		OnMessage: func(m lspclient.Message) {
			if m.Method == "agent/askUser" && strings.Contains(string(m.Params), `"purpose":"plan_approval"`) {
				once.Do(func() { _ = proc.Kill() })
			}
		},
		Unanswered: []string{"agent/askUser"},
	})
	if err != nil {
		t.Fatal(err)
	}
	proc = <-started
	if err := ed.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := ed.Call(ctx, "agent/newSession", map[string]any{"mode": "plan"}, &s); err != nil {
		t.Fatal(err)
	}
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "plan it"}, nil); err == nil {
		t.Fatal("the prompt of the killed process returned a result")
	}
	_ = ed.Close()

	// Second process: the session is loaded as it was before the question.
	started2 := make(chan *os.Process, 1)
	ed2, err := lspclient.Start(ctx, dir, processServe(t, started2), lspclient.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	defer ed2.Close()
	<-started2
	if err := ed2.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	var loaded struct {
		Mode     string `json:"mode"`
		PlanFile string `json:"planFile"`
	}
	if err := ed2.Call(ctx, "agent/loadSession", map[string]any{"sessionId": s.SessionID}, &loaded); err != nil {
		t.Fatal(err)
	}
	if loaded.Mode != "plan" {
		t.Fatalf("after the kill the session is in %q mode, want plan", loaded.Mode)
	}
	plan, err := os.ReadFile(filepath.Join(dir, "plans", "greet.plan"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plan), "status: approved") || strings.Contains(string(plan), "status: in_progress") {
		t.Fatalf("the plan was approved by a kill:\n%s", plan)
	}
	err = ed2.Call(ctx, "agent/resolvePlan", map[string]any{"sessionId": s.SessionID, "decision": "approve"}, nil)
	if err == nil || !strings.Contains(err.Error(), "no plan is awaiting approval") {
		t.Fatalf("agent/resolvePlan after the restart = %v, want no pending approval", err)
	}
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := ed2.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "what now?"}, &res); err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "end_turn" {
		t.Fatalf("stopReason = %q, want end_turn", res.StopReason)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-1]
	if sys := last.System(); !strings.Contains(sys, "PLAN mode") || strings.Contains(sys, "APPROVED EXECUTION PLAN") {
		t.Fatalf("the model's next request is not a planning one:\n%s", sys)
	}
	for _, m := range last.Messages {
		if m.ToolCallID == "call_x" {
			if !strings.Contains(m.Content, `"success":false`) {
				t.Fatalf("the interrupted exit_plan_mode reads %s, want a failure", m.Content)
			}
			t.Logf("exit_plan_mode after the kill: %s", m.Content)
			return
		}
	}
	t.Fatal("the next request has no result for the interrupted exit_plan_mode")
}
