package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server"
)

// crashPlannerScript: the parent's planner tries the plan twice: refused
// while the killed builder's session file says it builds the plan, written
// once that session is gone.
var crashPlannerScript = `
name: crash-planner
steps:
  - tool_calls:
      - {id: w1, name: write, args: {path: proj/plans/x.plan, content: "first"}}
  - text: refused
    expect:
      tool_result_contains: {w1: ["` + guard.PlanBuiltMessage("proj/plans/x.plan") + `"]}
  - tool_calls:
      - {id: w2, name: write, args: {path: proj/plans/x.plan, content: "second"}}
  - text: written
    expect:
      tool_result_contains: {w2: ['"success":true']}
`

// TestPlanLockAfterKill (issue 17 item 6): a real agentls process builds
// plans/x.plan of the project and is killed (kill -9): its registry entry
// stays, and a server whose workspace is the project's parent still sees
// the lock while the session file says the session builds the plan; once
// that session file is gone the stale entry is ignored and the plan can be
// written.
func TestPlanLockAfterKill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	base := t.TempDir()
	parent := filepath.Join(base, "p")
	proj := filepath.Join(parent, "proj")
	plan := "---\ntitle: X\nstatus: draft\n---\n## Steps\n- [ ] one\n"
	if err := os.MkdirAll(filepath.Join(proj, "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "plans", "x.plan"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(base, "state"), "XDG_CONFIG_HOME": filepath.Join(base, "config"), "HOME": filepath.Join(base, "home")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// The builder: a real process, killed once the plan is being built.
	started := make(chan *os.Process, 1)
	ed, err := lspclient.Start(ctx, proj, processServeWith(t, started, func(cmd *exec.Cmd) {
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}), lspclient.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	defer ed.Close()
	proc := <-started
	if err := ed.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + filepath.ToSlash(proj), "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	var builder struct {
		SessionID string `json:"sessionId"`
	}
	if err := ed.Call(ctx, "workspace/executeCommand", map[string]any{"command": "agentls.buildPlan", "arguments": []any{map[string]any{"path": "plans/x.plan"}}}, &builder); err != nil {
		t.Fatalf("buildPlan: %v", err)
	}
	if err := proc.Kill(); err != nil {
		t.Fatal(err)
	}
	_, _ = proc.Wait()
	locks, _ := os.ReadDir(filepath.Join(config.StateDir(func(k string) string { return env[k] }), "planlocks"))
	if len(locks) != 1 {
		t.Fatalf("plan locks after the kill: %v, want the builder's entry", locks)
	}

	// The planner: a server on the parent folder.
	sc, err := scripted.Parse([]byte(crashPlannerScript))
	if err != nil {
		t.Fatal(err)
	}
	model := scripted.New(sc)
	ped, err := lspclient.Start(ctx, parent, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return server.Serve(ctx, rwc, server.Options{Getenv: func(k string) string { return env[k] },
			NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) { return model, nil }})
	}, lspclient.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	defer ped.Close()
	if err := ped.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + filepath.ToSlash(parent), "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	var planner struct {
		SessionID string `json:"sessionId"`
	}
	if err := ped.Call(ctx, "agent/newSession", map[string]any{"mode": "plan"}, &planner); err != nil {
		t.Fatal(err)
	}
	prompt := func(text string) {
		t.Helper()
		var res struct {
			StopReason string `json:"stopReason"`
		}
		if err := ped.Call(ctx, "agent/prompt", map[string]any{"sessionId": planner.SessionID, "text": text}, &res); err != nil || res.StopReason != "end_turn" {
			t.Fatalf("prompt %q: %+v %v", text, res, err)
		}
	}
	prompt("rewrite it")
	if got, _ := os.ReadFile(filepath.Join(proj, "plans", "x.plan")); strings.Contains(string(got), "first") {
		t.Fatalf("the killed builder's plan was rewritten while its session still builds it:\n%s", got)
	}

	// The builder's session file goes (the user removed it): the entry
	// left by the killed process no longer holds.
	for _, ext := range []string{".chat", ".meta"} {
		_ = os.Remove(filepath.Join(proj, ".agentls", "chats", builder.SessionID+ext))
	}
	prompt("now write it")
	if got, _ := os.ReadFile(filepath.Join(proj, "plans", "x.plan")); !strings.Contains(string(got), "second") {
		t.Fatalf("the stale lock still held:\n%s", got)
	}
}
