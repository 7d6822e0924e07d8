package server_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

func TestInvalidParams(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Script: "name: x\nsteps:\n  - text: hi\n"})
	s := h.NewSession("build")
	tests := []struct {
		method string
		params map[string]any
		want   string
	}{
		{"agent/prompt", map[string]any{"sessionId": "nope", "text": "hi"}, `unknown session "nope"`},
		{"agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "yolo"}, `mode must be "plan" or "build"`},
		{"agent/newSession", map[string]any{"mode": "fast"}, `mode must be`},
		{"agent/loadSession", map[string]any{"sessionId": "../../etc/passwd"}, "session"},
		{"agent/answer", map[string]any{"sessionId": s.SessionID, "questionId": "q1", "answers": map[string]any{}}, `question "q1" is not pending`},
		{"agent/resolvePlan", map[string]any{"sessionId": s.SessionID, "decision": "approve"}, "no plan is awaiting approval"},
		{"agent/resolvePlan", map[string]any{"sessionId": s.SessionID, "decision": "reject"}, "non-empty reason"},
		{"agent/listPlans", map[string]any{"status": "lost"}, "status must be"},
		{"agent/prompt", map[string]any{"sessionId": s.SessionID, "text": 42}, "invalid params"},
	}
	for _, tc := range tests {
		t.Run(tc.method, func(t *testing.T) {
			err := h.Editor.Call(h.Ctx, tc.method, tc.params, nil)
			if lsptest.RPCCode(err) != -32602 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s(%v) = %v, want -32602 containing %q", tc.method, tc.params, err, tc.want)
			}
		})
	}
	// Nothing changed in the session.
	var loaded agentproto.Session
	if err := h.Editor.Call(h.Ctx, "agent/loadSession", map[string]any{"sessionId": s.SessionID}, &loaded); err != nil {
		t.Fatal(err)
	}
	if loaded.Mode != "build" {
		t.Fatalf("mode = %q after invalid calls", loaded.Mode)
	}
	if err := h.Editor.Call(h.Ctx, "agent/nonsense", map[string]any{}, nil); lsptest.RPCCode(err) != -32601 {
		t.Fatalf("unknown method: %v", err)
	}
}

// blockingAsk answers agent/askUser only once release is closed.
func blockingAsk(release <-chan struct{}, answer any) func(json.RawMessage) any {
	return func(json.RawMessage) any {
		<-release
		return answer
	}
}

const askScript = `
name: ask
steps:
  - tool_calls:
      - id: q
        name: ask_user
        args:
          questions:
            - name: env
              question: Which environment?
              schema: {type: string, enum: [dev, prod]}
  - text: "ok"
    expect:
      tool_result_contains: {q: ["\"status\":\"answered\"", "\"env\":\"dev\""]}
`

func TestSecondPromptWhileBusy(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := lsptest.Start(t, lsptest.Setup{Script: askScript, Handlers: lspclient.Handlers{
		AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"env": "dev"}}),
	}})
	s := h.NewSession("plan")
	done := h.PromptAsync(s.SessionID, "go")
	h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
	err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "again"}, nil)
	if lsptest.RPCCode(err) != -32803 || !strings.Contains(err.Error(), "session busy") {
		t.Fatalf("second prompt = %v, want -32803 session busy", err)
	}
	close(release)
	if r := <-done; r.StopReason != "end_turn" {
		t.Fatalf("first prompt = %+v", r)
	}
}

func TestCancelWithdrawsQuestion(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{Script: askScript, Handlers: lspclient.Handlers{
		AskUser: blockingAsk(release, map[string]any{"dismissed": true}),
	}})
	s := h.NewSession("plan")
	done := h.PromptAsync(s.SessionID, "go")
	h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
	if err := h.Editor.Call(h.Ctx, "agent/cancel", map[string]any{"sessionId": s.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.StopReason != "cancelled" {
		t.Fatalf("prompt = %+v, want cancelled", r)
	}
	h.Await(lsptest.Received("$/cancelRequest"))
}

func TestEditorRefusesEdit(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{"a.txt": "one\n"},
		Script: `
name: refused
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: one, new_string: two}}
  - text: noted
    expect:
      tool_result_contains: {e: ["\"success\":false", "buffer is read-only"]}
`,
		Handlers: lspclient.Handlers{ApplyEdit: func(json.RawMessage) (bool, string) { return false, "buffer is read-only" }},
	})
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "edit"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if got := h.Read("a.txt"); got != "one\n" {
		t.Fatalf("a.txt = %q", got)
	}
	ups := lsptest.Updates[agent.UpdateToolCallDone](h, "tool_call_update")
	if len(ups) != 1 || ups[0].Status != "failed" {
		t.Fatalf("tool_call_update = %v", ups)
	}
}

func TestBrokenToolCallJSON(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Script: `
name: garbage
steps:
  - tool_calls:
      - {id: bad, name: read, raw_args: '{"path": "a.txt",'}
      - {id: nope, name: teleport, args: {}}
  - text: recovered
    expect:
      tool_result_contains:
        bad: ["not valid JSON"]
        nope: ["unknown tool", "teleport", "the tools are: read"]
`,
	})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
}

func TestModelError(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Script: "name: e\nsteps:\n  - error: \"model request failed: 500 Internal Server Error\"\n"})
	s := h.NewSession("plan")
	r := h.Prompt(s.SessionID, "go")
	if r.StopReason != "error" || r.Error == nil || !strings.Contains(r.Error.Message, "500") {
		t.Fatalf("prompt = %+v", r)
	}
}

func TestClientGoneMidTurn(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{Script: askScript, Handlers: lspclient.Handlers{
		AskUser: blockingAsk(release, map[string]any{"dismissed": true}),
	}})
	s := h.NewSession("plan")
	go func() {
		_ = h.Editor.Call(context.Background(), "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "go"}, nil)
	}()
	h.Await(lsptest.Received("agent/askUser"))
	// Disconnect returns only once the server has returned: no turn is left blocked.
	if err := h.Editor.Disconnect(); err != nil {
		t.Fatalf("server: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(h.Dir, ".agentls", "chats", s.SessionID+".chat"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "---\n") || !strings.Contains(string(data), "mode: plan") {
		t.Fatalf("session file after the client vanished:\n%s", data)
	}
}

func TestSetModeTakesEffectMidTurn(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{"a.txt": "one\n"},
		Script: `
name: midturn
steps:
  - tool_calls:
      - id: q
        name: ask_user
        args: {questions: [{name: ok, question: "Go on?", schema: {type: boolean}}]}
  - expect:
      system_contains: ["You are in PLAN mode", "changed from BUILD to PLAN"]
    tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: one, new_string: two}}
  - text: stopped
    expect:
      tool_result_contains: {e: ["System is in Plan Mode"]}
`,
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"ok": true}})},
	})
	s := h.NewSession("build")
	done := h.PromptAsync(s.SessionID, "go")
	h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
	var info agentproto.Session
	if err := h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "plan"}, &info); err != nil {
		t.Fatal(err)
	}
	if info.Mode != "plan" {
		t.Fatalf("setMode = %+v", info)
	}
	close(release)
	if r := <-done; r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if got := h.Read("a.txt"); got != "one\n" {
		t.Fatalf("a.txt = %q: the edit ran after the switch to plan", got)
	}
}

func TestDiskEditsWithoutApplyEdit(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:  map[string]any{},
		Files: map[string]string{"a.txt": "one\n"},
		Script: `
name: disk
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: one, new_string: two}}
      - {id: w, name: write, args: {path: sub/new.txt, content: "fresh\n"}}
      - {id: m, name: mv, args: {from: a.txt, to: b.txt}}
  - text: done
    expect:
      tool_result_contains: {e: ["\"success\":true"], w: ["\"success\":true"], m: ["\"success\":true"]}
`,
	})
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if n := len(h.Messages("workspace/applyEdit")); n != 0 {
		t.Fatalf("%d applyEdit requests to an editor without applyEdit", n)
	}
	if got := h.Read("b.txt"); got != "two\n" {
		t.Fatalf("b.txt = %q", got)
	}
	if got := h.Read("sub/new.txt"); got != "fresh\n" {
		t.Fatalf("sub/new.txt = %q", got)
	}
}

// TestCancelRequestEndsTurn: `$/cancelRequest` on the prompt's id ends the
// turn and withdraws the question the editor is showing.
func TestCancelRequestEndsTurn(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{Script: askScript, Handlers: lspclient.Handlers{
		AskUser: blockingAsk(release, map[string]any{"dismissed": true}),
	}})
	s := h.NewSession("plan")
	ctx, cancel := context.WithCancel(h.Ctx)
	done := make(chan error, 1)
	go func() {
		done <- h.Editor.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "go"}, nil)
	}()
	h.Await(lsptest.Received("agent/askUser"))
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled prompt returned no error to the caller")
	}
	// The server withdrew its question: the editor got $/cancelRequest.
	h.Await(lsptest.Received("$/cancelRequest"))
}
