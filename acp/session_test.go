package acp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

func TestStopReasonsMaxTurnRequestsAndRefusal(t *testing.T) {
	q := &queueModel{}
	r := newRig(t, setup{model: q, userConfig: "max_turn_requests: 2\n", files: map[string]string{"a.txt": "a\n"}})
	sid := r.newSession().SessionId
	for i := 0; i < 3; i++ {
		q.push(agentproto.ToolCall{ID: "c" + string(rune('1'+i)), Name: "read", Arguments: `{"path":"a.txt"}`})
	}
	if stop := r.mustPrompt(sid, "loop"); stop != sdk.StopReasonMaxTurnRequests {
		t.Errorf("stop %s, want max_turn_requests", stop)
	}
	q.mu.Lock()
	q.queue = []llm.Response{{Message: llm.Message{Role: llm.RoleAssistant, Content: "I can't help with that."}, FinishReason: "content_filter"}}
	q.mu.Unlock()
	if stop := r.mustPrompt(sid, "something filtered"); stop != sdk.StopReasonRefusal {
		t.Errorf("stop %s, want refusal", stop)
	}
}

func TestResumeAndCloseSession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	first := newRig(t, setup{dir: dir, script: "steps:\n  - text: \"One.\"\n"})
	sid := first.newSession().SessionId
	first.mustPrompt(sid, "hello")
	if _, err := first.conn.CloseSession(first.ctx, sdk.CloseSessionRequest{SessionId: sid}); err != nil {
		t.Fatalf("close: %v", err)
	}
	var re *sdk.RequestError
	if _, err := first.prompt(sid, "after close"); !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("prompt after close: %v", err)
	}
	first.stop()
	second := newRig(t, setup{dir: dir, script: "steps:\n  - text: \"Two.\"\n    expect: {last_message_contains: [\"again\"]}\n"})
	res, err := second.conn.ResumeSession(second.ctx, sdk.ResumeSessionRequest{SessionId: sid, Cwd: dir})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if res.Modes == nil || res.Modes.CurrentModeId != "plan" || len(res.ConfigOptions) != 4 {
		t.Errorf("resume: %+v", res)
	}
	for _, k := range second.client.kinds() {
		if k == "user_message_chunk" || k == "agent_message_chunk" {
			t.Errorf("resume replayed the history (%s)", k)
		}
	}
	if stop := second.mustPrompt(sid, "again"); stop != sdk.StopReasonEndTurn {
		t.Errorf("prompt after resume: %s", stop)
	}
}

func TestModelConfigOptions(t *testing.T) {
	r := newRig(t, setup{userConfig: "model: {name: big-model, plan_name: small-model}\n"})
	sid := r.newSession().SessionId
	res, err := r.conn.SetSessionConfigOption(r.ctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: "plan_model", Value: "big-model"}})
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]string{}
	for _, o := range res.ConfigOptions {
		current[string(o.Select.Id)] = string(o.Select.CurrentValue)
	}
	if current["plan_model"] != "big-model" || current["model"] != "big-model" || current["mode"] != "plan" {
		t.Errorf("options after set: %v", current)
	}
	// The choice is the session's (agent/setModel's core): another session
	// keeps the configured models.
	for _, o := range r.newSession().ConfigOptions {
		if o.Select != nil && o.Select.Id == "plan_model" && o.Select.CurrentValue != "small-model" {
			t.Errorf("another session's plan model is %q, want the configured small-model", o.Select.CurrentValue)
		}
	}
	var re *sdk.RequestError
	_, err = r.conn.SetSessionConfigOption(r.ctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: "model", Value: "gpt-unknown"}})
	if !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("unknown model: %v", err)
	}
}

// An untrusted workspace .agentls.yaml cannot widen permissions on this
// face: its run.allow is ignored, so run still asks.
func TestUntrustedWorkspaceConfigDoesNotWiden(t *testing.T) {
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{userConfig: buildByDefault, client: client,
		files: map[string]string{".agentls.yaml": "run: {allow: ['touch *']}\n"}, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - expect: {tool_result_contains: {r1: ["rejected"]}}
    text: "OK."
`})
	r.mustPrompt(r.newSession().SessionId, "make it")
	perms := client.permissionsSeen()
	if len(perms) != 2 {
		t.Fatalf("%d permission requests, want the trust question then the run (the untrusted run.allow let the command run unasked?)", len(perms))
	}
	// The trust question came first, through the permission service: every
	// widening key in full, "Don't trust" first.
	if text := permissionText(perms[0]); !strings.HasPrefix(text, "Trust ") || !strings.Contains(text, "- `run.allow: [\"touch *\"]`") {
		t.Errorf("trust request:\n%s", text)
	}
	if got := optionIDs(perms[0]); strings.Join(got, " ") != "reject_once/reject_once allow_always/allow_always" {
		t.Errorf("trust options %v", got)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "made")); err == nil {
		t.Error("the command ran")
	}
}

// TestTrustedOnACPApplies: "Trust" in the ACP trust question applies the
// workspace file at once (its run.allow lets the command run unasked in the
// same prompt) and is remembered: the next prompt asks nothing.
func TestTrustedOnACPApplies(t *testing.T) {
	client := &testClient{permit: func(_ context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		id := "reject_once"
		if p.ToolCall.Title != nil && strings.HasPrefix(*p.ToolCall.Title, "Trust ") {
			id = "allow_always"
		}
		return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}
	}}
	r := newRig(t, setup{userConfig: buildByDefault, client: client,
		files: map[string]string{".agentls.yaml": "run: {allow: ['touch *']}\n"}, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - expect: {tool_result_contains: {r1: ['"success":true']}}
    text: "OK."
  - text: "Again."
`})
	sid := r.newSession().SessionId
	r.mustPrompt(sid, "make it")
	r.mustPrompt(sid, "again")
	if perms := client.permissionsSeen(); len(perms) != 1 || !strings.HasPrefix(permissionText(perms[0]), "Trust ") {
		t.Fatalf("permission requests %d, want only the trust question", len(perms))
	}
	if _, err := os.Stat(filepath.Join(r.dir, "made")); err != nil {
		t.Errorf("the trusted run.allow did not apply: %v", err)
	}
}

// usage_update carries used (the next request's estimated tokens) and size
// (the model's context window).
func TestUsageUpdate(t *testing.T) {
	r := newRig(t, setup{userConfig: "model: {context_window: 8000}\n", script: "steps:\n  - text: \"Hi.\"\n"})
	r.mustPrompt(r.newSession().SessionId, "hello")
	var got []map[string]any
	for _, p := range r.wire.requests("session/update") {
		if u, _ := p["update"].(map[string]any); u["sessionUpdate"] == "usage_update" {
			got = append(got, u)
		}
	}
	if len(got) != 1 || got[0]["size"] != float64(8000) || got[0]["used"].(float64) <= 0 {
		t.Errorf("usage_update %v", got)
	}
	r.client.mu.Lock()
	defer r.client.mu.Unlock()
	n := 0
	for _, u := range r.client.updates {
		if u.Update.UsageUpdate != nil && u.Update.UsageUpdate.Size == 8000 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the SDK client decoded %d usage updates", n)
	}
}

// usage_update carries the session's cumulative cost when the model's
// price is known: each request's tokens at the price, added up.
func TestUsageUpdateCost(t *testing.T) {
	defer acp.SetPriceForTest(1e6, 2e6)() // 1 USD per input token, 2 per output token
	r := newRig(t, setup{userConfig: "model: {context_window: 8000}\n", script: "steps:\n  - text: \"Hi.\"\n  - text: \"Again.\"\n"})
	sid := r.newSession().SessionId
	r.mustPrompt(sid, "hello")
	r.mustPrompt(sid, "hello again")
	var amounts []float64
	for _, p := range r.wire.requests("session/update") {
		if u, _ := p["update"].(map[string]any); u["sessionUpdate"] == "usage_update" {
			c, _ := u["cost"].(map[string]any)
			if c == nil || c["currency"] != "USD" {
				t.Fatalf("usage_update without a USD cost: %v", u)
			}
			amounts = append(amounts, c["amount"].(float64))
		}
	}
	if len(amounts) != 2 || amounts[0] <= 0 || amounts[1] <= amounts[0] {
		t.Errorf("costs %v: want two, growing (cumulative)", amounts)
	}
}
