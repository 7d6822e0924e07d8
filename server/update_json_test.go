package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

const trickyText = "a <b> & \"c\"\n\t\u2028\u2029 \x00 \xff ünïcode ✓ \\"

// updateCases take every field updateParams writes, empty and not, and
// every shape it leaves to encoding/json.
var updateCases = []struct {
	name   string
	u      agent.Update
	direct bool
}{
	{"chunk", agentproto.MessageChunk{SessionUpdate: "agent_message_chunk", Content: agentproto.TextContent{Type: "text", Text: "Looking at the code."}, MessageID: "m1"}, true},
	{"thought chunk without id", agentproto.MessageChunk{SessionUpdate: "agent_thought_chunk", Content: agentproto.TextContent{Type: "text", Text: trickyText}}, true},
	{"tool call", agentproto.ToolCallStarted{SessionUpdate: "tool_call", ToolCallID: "call_1_read", Title: "read f1.go", Kind: "read", Status: "pending",
		RawInput: json.RawMessage(`{ "path": "f1.go", "limit": 40, "q": "<&>" }`)}, true},
	{"tool call, sub-agent", agentproto.ToolCallStarted{SessionUpdate: "tool_call", ToolCallID: trickyText, Title: trickyText, Kind: "other", Status: "in_progress",
		ParentToolCallID: "task_1", ChildSessionID: "child"}, true},
	{"tool call, invalid input", agentproto.ToolCallStarted{SessionUpdate: "tool_call", RawInput: json.RawMessage(`{"path":`)}, false},
	{"tool call done", agent.UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: "call_1_read", Status: "completed",
		Content:   []agentproto.ToolContent{{Type: "content", Content: agentproto.TextContent{Type: "text", Text: "package f1\n\nfunc A() { if a && b { } }\n"}}, {Type: "content"}},
		RawOutput: json.RawMessage("{\"success\":true,\n \"result\": {\"content\": \"x < y && z\"}}"), ParentToolCallID: "p", ChildSessionID: "c"}, true},
	{"tool call done, bare", agent.UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: "c", Status: "failed"}, true},
	{"tool call done, refused", agent.UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: "c", Status: "failed",
		Refusal: &guard.Refusal{ToolName: "write", Hint: "plan mode"}}, false},
	{"tool call done, invalid output", agent.UpdateToolCallDone{SessionUpdate: "tool_call_update", RawOutput: json.RawMessage(`nope`)}, false},
	{"usage", agentproto.UsageUpdate{SessionUpdate: "usage_update", InputTokens: 1234, OutputTokens: 56, ContextTokens: 7890, ContextWindow: 128000}, true},
	{"usage, zero", agentproto.UsageUpdate{SessionUpdate: "usage_update", InputTokens: -1}, true},
	{"usage with sub-agents", agentproto.UsageUpdate{SessionUpdate: "usage_update", Children: []agentproto.ChildUsage{{ToolCallID: "t", InputTokens: 1}}}, false},
	{"usage with a total", agentproto.UsageUpdate{SessionUpdate: "usage_update", Total: &agentproto.TokenTotal{InputTokens: 3}}, false},
	{"title", agentproto.SessionInfoUpdate{SessionUpdate: "session_info_update", Title: trickyText, UpdatedAt: "2026-11-26T19:37:40Z"}, true},
	{"mode (not written directly)", agentproto.ModeUpdate{SessionUpdate: "current_mode_update"}, false},
}

// TestUpdateParams: agent/update's params written directly are what
// encoding/json makes of the map the server sent before, and the shapes
// updateParams does not write are left to it.
func TestUpdateParams(t *testing.T) {
	t.Parallel()
	for _, tc := range updateCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, id := range []string{"01a2195d-163a-7b22-aade-4ebaba69ea78", trickyText} {
				got, ok := updateParams(id, tc.u)
				if ok != tc.direct {
					t.Fatalf("written directly = %v, want %v", ok, tc.direct)
				}
				if !ok {
					continue
				}
				want, err := json.Marshal(map[string]any{"sessionId": id, "update": tc.u})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("updateParams:\n%s\nencoding/json:\n%s", got, want)
				}
			}
		})
	}
}

// FuzzUpdateParams: for any text in any field, what updateParams writes is
// what encoding/json writes.
func FuzzUpdateParams(f *testing.F) {
	f.Add("s1", "Looking.", "call_1", `{"path":"a.go"}`, 12)
	f.Add(trickyText, "", "", "", -3)
	f.Add("", "\xff<", "\u2028", "{ \"a\" : [1, \"<\"] }", 0)
	f.Fuzz(func(t *testing.T, id, text, callID, raw string, n int) {
		for _, u := range []agent.Update{
			agentproto.MessageChunk{SessionUpdate: text, Content: agentproto.TextContent{Type: callID, Text: text}, MessageID: callID},
			agentproto.ToolCallStarted{SessionUpdate: "tool_call", ToolCallID: callID, Title: text, Kind: id, Status: raw, RawInput: json.RawMessage(raw), ChildSessionID: text},
			agent.UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: callID, Status: text,
				Content: []agentproto.ToolContent{{Type: raw, Content: agentproto.TextContent{Type: id, Text: text}}}, RawOutput: json.RawMessage(raw), ParentToolCallID: callID},
			agentproto.UsageUpdate{SessionUpdate: text, InputTokens: n, OutputTokens: -n, ContextTokens: n * 3, ContextWindow: n % 7},
			agentproto.SessionInfoUpdate{SessionUpdate: id, Title: text, UpdatedAt: raw},
		} {
			got, ok := updateParams(id, u)
			want, err := json.Marshal(map[string]any{"sessionId": id, "update": u})
			if !ok {
				continue // left to encoding/json (invalid raw JSON)
			}
			if err != nil {
				t.Fatalf("%T written directly where encoding/json fails: %v", u, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%T:\nupdateParams:\n%s\nencoding/json:\n%s", u, got, want)
			}
		}
	})
}

// BenchmarkUpdateParams: a tool call's end with its result, as every call
// sends it, written directly and by encoding/json.
func BenchmarkUpdateParams(b *testing.B) {
	u := agent.UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: "call_1_read", Status: "completed",
		RawOutput: json.RawMessage(`{"success":true,"result":{"path":"f1.go","content":"package f1\n\nfunc Handler1(w http.ResponseWriter, r *http.Request) { serve(w, r, 31) }\n"}}`)}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			updateParams("01a2195d-163a-7b22-aade-4ebaba69ea78", u)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(map[string]any{"sessionId": "01a2195d-163a-7b22-aade-4ebaba69ea78", "update": u}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
