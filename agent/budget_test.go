package agent

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

func TestRepairHistory(t *testing.T) {
	t.Parallel()
	call := func(ids ...string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, agentproto.ToolCall{ID: id, Name: "read"})
		}
		return m
	}
	result := func(id string) llm.Message { return llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: "r"} }
	user := llm.Message{Role: llm.RoleUser, Content: "u"}
	tests := []struct {
		name               string
		in                 []llm.Message
		want               string
		synthetic, dropped string
	}{
		{"valid", []llm.Message{user, call("a"), result("a")}, "user assistant tool:a", "", ""},
		{"crash at the end", []llm.Message{user, call("a", "b"), result("b")}, "user assistant tool:b tool:a*", "a", ""},
		{"crash mid history", []llm.Message{user, call("a"), user}, "user assistant tool:a* user", "a", ""},
		{"orphan", []llm.Message{user, result("x"), call("a"), result("a"), result("a")}, "user assistant tool:a", "", "x a"},
		{"result of an older call", []llm.Message{call("a"), result("a"), user, result("a")}, "assistant tool:a user", "", "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, syn, drop := repairHistory(tt.in)
			var got []string
			for _, m := range out {
				s := string(m.Role)
				if m.Role == llm.RoleTool {
					s += ":" + m.ToolCallID
					if m.Content == interruptedResult {
						s += "*"
					}
				}
				got = append(got, s)
			}
			if strings.Join(got, " ") != tt.want || strings.Join(syn, " ") != tt.synthetic || strings.Join(drop, " ") != tt.dropped {
				t.Fatalf("got %q, synthetic %q, dropped %q", strings.Join(got, " "), syn, drop)
			}
			again, syn2, drop2 := repairHistory(out)
			if len(again) != len(out) || len(syn2)+len(drop2) != 0 {
				t.Fatal("repairing a repaired history changed it")
			}
		})
	}
}
