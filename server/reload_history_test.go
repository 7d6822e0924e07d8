package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestReloadKeepsToolOutcomes: a reloaded chat shows each tool call as it
// was shown live, after a restart of the server: titles ("read `main.go`",
// not "read"), kinds, a plan-mode refused edit failed with its refusal, and
// the question ask_user asked with the user's answer.
func TestReloadKeepsToolOutcomes(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files:    map[string]string{"main.go": "package main\n"},
		Handlers: lspclient.Handlers{AskUser: replySequence(map[string]any{"answers": map[string]any{"env": "staging"}})},
		Script: `
name: reload
steps:
  - tool_calls:
      - {id: r1, name: read, args: {path: main.go}}
  - tool_calls:
      - {id: e1, name: edit, args: {path: main.go, old_string: "package main", new_string: "package other"}}
  - tool_calls:
      - id: q1
        name: ask_user
        args:
          questions:
            - name: env
              question: Which environment?
              schema: {type: string, enum: [dev, staging]}
  - text: done
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "look"), "end_turn")
	dir := h.Dir
	if err := h.Editor.Close(); err != nil {
		t.Fatal(err)
	}

	h2 := lsptest.Start(t, lsptest.Setup{Dir: dir})
	loaded := lsptest.MustCall(h2, agentproto.LoadSession, agentproto.SessionParams{SessionID: s.SessionID})
	calls := map[string]agentproto.ToolCall{}
	results := map[string]agentproto.Message{}
	for _, m := range loaded.Messages {
		for _, c := range m.ToolCalls {
			calls[c.ID] = c
		}
		if m.Role == "tool" {
			results[m.ToolCallID] = m
		}
	}
	for id, want := range map[string]struct{ title, kind, status string }{
		"r1": {"read `main.go`", "read", "completed"},
		"e1": {"edit `main.go`", "edit", "failed"},
		"q1": {"", "other", "completed"},
	} {
		c, r := calls[id], results[id]
		if (want.title != "" && c.Title != want.title) || c.Title == "" || c.Kind != want.kind {
			t.Errorf("call %s shown as %q (%s), want %q (%s)", id, c.Title, c.Kind, want.title, want.kind)
		}
		if r.Status != want.status {
			t.Errorf("call %s reloaded %q, want %q", id, r.Status, want.status)
		}
	}
	if r := results["e1"].Refusal; r == nil || r.ToolName != "edit" || !strings.Contains(results["e1"].Content, "Plan Mode") {
		t.Errorf("refused edit reloaded without its refusal: %+v", results["e1"])
	}
	q := results["q1"]
	if len(q.Questions) != 1 || q.Questions[0].Question != "Which environment?" {
		t.Errorf("ask_user reloaded without its question: %+v", q.Questions)
	}
	var answers map[string]any
	if json.Unmarshal(q.Answers, &answers) != nil || answers["env"] != "staging" {
		t.Errorf("ask_user reloaded with answers %s, want env staging", q.Answers)
	}
}

// TestReloadKeepsPlanApproval: the plan approval exit_plan_mode asked is
// kept with the call: after a restart its question and the user's answer
// come back, and the call reads as its title, not "exit_plan_mode".
func TestReloadKeepsPlanApproval(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Script:   approvalScript(approvedScript),
		Handlers: lspclient.Handlers{AskUser: replySequence(map[string]any{"answers": map[string]any{"approve": true}})},
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan it"), "end_turn")
	dir := h.Dir
	if err := h.Editor.Close(); err != nil {
		t.Fatal(err)
	}
	h2 := lsptest.Start(t, lsptest.Setup{Dir: dir})
	var call agentproto.ToolCall
	var result agentproto.Message
	for _, m := range lsptest.MustCall(h2, agentproto.LoadSession, agentproto.SessionParams{SessionID: s.SessionID}).Messages {
		for _, c := range m.ToolCalls {
			if c.ID == "x" {
				call = c
			}
		}
		if m.Role == "tool" && m.ToolCallID == "x" {
			result = m
		}
	}
	if call.Title == "" || call.Title == "exit_plan_mode" || call.Kind != "switch_mode" {
		t.Errorf("exit_plan_mode reloaded as %q (%s)", call.Title, call.Kind)
	}
	var answers map[string]any
	if result.Status != "completed" || len(result.Questions) == 0 || result.Questions[0].Name != "approve" ||
		json.Unmarshal(result.Answers, &answers) != nil || answers["approve"] != true {
		t.Errorf("approval reloaded as %+v (answers %s), want completed with the question and approve: true", result, result.Answers)
	}
}
