package agent

import (
	"fmt"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// historyFromBytes builds a conversation from fuzz bytes: each byte picks a
// message (user, assistant text, assistant with one to three calls, a tool
// result) and the call ids from a set of three, so that strays, repeats
// and missing results all occur.
func historyFromBytes(data []byte) []llm.Message {
	var msgs []llm.Message
	id := func(b byte) string { return fmt.Sprintf("c%d", b%3) }
	for _, b := range data {
		switch b % 4 {
		case 0:
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "u"})
		case 1:
			msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: "a"})
		case 2:
			var calls []agentproto.ToolCall
			for k := range int(b>>2)%3 + 1 {
				calls = append(calls, agentproto.ToolCall{ID: id(b>>4 + byte(k)), Name: "read"})
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: calls})
		case 3:
			msgs = append(msgs, llm.Message{Role: llm.RoleTool, ToolCallID: id(b >> 2), Content: "r"})
		}
	}
	return msgs
}

// FuzzWellFormed: the fast path (no copy) is taken exactly when the repair
// would change nothing, and then gives the same messages.
func FuzzWellFormed(f *testing.F) {
	for _, seed := range [][]byte{{}, {0, 2, 3}, {0, 6, 3, 7}, {3}, {0, 2, 0}, {2, 3, 3}, {0, 10, 3, 19}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs := historyFromBytes(data)
		out, syn, drop := repairCopy(msgs, nil)
		unchanged := len(syn) == 0 && len(drop) == 0
		if got := wellFormed(msgs); got != unchanged {
			t.Fatalf("wellFormed %v, but the repair added %v and dropped %v: %+v", got, syn, drop, msgs)
		}
		if unchanged && len(out) != len(msgs) {
			t.Fatalf("an unchanged repair has %d messages, not %d", len(out), len(msgs))
		}
		for i := range out {
			if unchanged && (out[i].Role != msgs[i].Role || out[i].ToolCallID != msgs[i].ToolCallID) {
				t.Fatalf("an unchanged repair reordered message %d", i)
			}
		}
	})
}

// TestRepairHistoryNoCopy: a well-formed history is returned as it is.
func TestRepairHistoryNoCopy(t *testing.T) {
	msgs := historyFromBytes([]byte{0, 2, 3, 1, 0})
	out, _, _ := repairHistory(msgs)
	if len(out) != len(msgs) || &out[0] != &msgs[0] {
		t.Fatal("a well-formed history was copied")
	}
}
