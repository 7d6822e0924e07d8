package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// dupIDModel answers its first turn request with calls, then records every
// later request and ends the turn.
type dupIDModel struct {
	calls []agentproto.ToolCall

	mu   sync.Mutex
	n    int
	reqs []llm.Request
}

func (p *dupIDModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if p.n == 1 {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: p.calls}, FinishReason: "tool_calls"}, nil
	}
	p.reqs = append(p.reqs, req)
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "done"}, FinishReason: "stop"}, nil
}

// TestDuplicateToolCallIDsKeepEveryResult: an endpoint answers with
// two tool calls that carry the same id (a buggy or hostile server; some
// number every call "call_0"). Both calls run, so both results must reach
// the model on the next request, each answering a call of its own: the
// request the model gets must hold no assistant message with two calls of
// one id (endpoints reject it) and no call whose result was dropped.
// Today the second result is dropped as a "duplicate" by the history
// repair and the assistant message keeps both calls under one id.
func TestDuplicateToolCallIDsKeepEveryResult(t *testing.T) {
	t.Parallel()
	model := &dupIDModel{calls: []agentproto.ToolCall{
		{ID: "call_0", Name: "read", Arguments: `{"path":"first.txt"}`},
		{ID: "call_0", Name: "read", Arguments: `{"path":"second.txt"}`},
	}}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	m.Reconfigure(m.config(), model)
	root := ed.ws.Root()
	if err := os.WriteFile(filepath.Join(root, "first.txt"), []byte("FIRST-FILE-BODY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "second.txt"), []byte("SECOND-FILE-BODY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "build")
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "read both files"})
	if err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v; want end_turn", res, err)
	}
	if len(model.reqs) != 1 {
		t.Fatalf("%d requests after the tool calls, want 1", len(model.reqs))
	}
	msgs := model.reqs[0].Messages
	var wire strings.Builder
	for i, msg := range msgs {
		if msg.Role != llm.RoleAssistant || len(msg.ToolCalls) == 0 {
			continue
		}
		seen := map[string]bool{}
		for _, c := range msg.ToolCalls {
			if seen[c.ID] {
				t.Errorf("the assistant message sent to the model holds two tool calls with id %q", c.ID)
			}
			seen[c.ID] = true
		}
		results := 0
		for j := i + 1; j < len(msgs) && msgs[j].Role == llm.RoleTool; j++ {
			results++
			wire.WriteString(msgs[j].Content)
		}
		if results != len(msg.ToolCalls) {
			t.Errorf("the assistant message sent to the model has %d tool calls but %d results follow it", len(msg.ToolCalls), results)
		}
	}
	for _, body := range []string{"FIRST-FILE-BODY", "SECOND-FILE-BODY"} {
		if !strings.Contains(wire.String(), body) {
			t.Errorf("the result of the call that read %s never reached the model", body)
		}
	}
}

// TestUniqueCallIDs: empty and repeated ids of one answer, and ids an
// earlier answer used, get fresh ones, never one another call holds.
func TestUniqueCallIDs(t *testing.T) {
	t.Parallel()
	const msgID = "01a223f9-18d9-7613-abfb-a5ee8221b3e1"
	fresh := "call_" + ShortID(msgID) + "_"
	tests := []struct{ in, earlier, want []string }{
		{[]string{"a", "b"}, nil, []string{"a", "b"}},
		{[]string{"call_0", "call_0"}, nil, []string{"call_0", fresh + "1"}},
		{[]string{"", ""}, nil, []string{fresh + "0", fresh + "1"}},
		{[]string{"", fresh + "0"}, nil, []string{fresh + "0_1", fresh + "0"}},
		// An earlier answer's ids: numbered from call_0 again, or ours.
		{[]string{"call_0", "call_1"}, []string{"call_0"}, []string{fresh + "0", "call_1"}},
		{[]string{"call_0", ""}, []string{"call_0", fresh + "1"}, []string{fresh + "0", fresh + "1_1"}},
	}
	for _, tc := range tests {
		calls := make([]agentproto.ToolCall, len(tc.in))
		for i, id := range tc.in {
			calls[i].ID = id
		}
		earlier := map[string]bool{}
		for _, id := range tc.earlier {
			earlier[id] = true
		}
		uniqueCallIDs(msgID, calls, earlier)
		var got []string
		for _, c := range calls {
			got = append(got, c.ID)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("uniqueCallIDs(%q, earlier %q) = %q, want %q", tc.in, tc.earlier, got, tc.want)
		}
	}
}
