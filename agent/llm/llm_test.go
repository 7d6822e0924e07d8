package llm

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestMessagePersistsCompatibly: a .chat line written before ProviderState
// existed loads unchanged, a message without state writes no new key, and
// provider state round-trips byte for byte.
func TestMessagePersistsCompatibly(t *testing.T) {
	old := `{"role":"assistant","content":"hi","tool_calls":[{"id":"c1","name":"read","arguments":"{}"}]}`
	var m Message
	if err := json.Unmarshal([]byte(old), &m); err != nil {
		t.Fatal(err)
	}
	want := Message{Role: RoleAssistant, Content: "hi", ToolCalls: []agentproto.ToolCall{{ID: "c1", Name: "read", Arguments: "{}"}}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("old line = %+v", m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != old {
		t.Errorf("re-encoded %s, want %s", b, old)
	}
	m.ProviderState = json.RawMessage(`{"type":"reasoning","encrypted_content":"gAAA"}`)
	b, _ = json.Marshal(m)
	if !strings.Contains(string(b), `"provider_state":{"type":"reasoning","encrypted_content":"gAAA"}`) {
		t.Fatalf("state not written: %s", b)
	}
	var back Message
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, m) {
		t.Fatalf("round trip = %+v, %v", back, err)
	}
}

// TestUsageCachedTokensOptional: a usage without cache hits encodes as before.
func TestUsageCachedTokensOptional(t *testing.T) {
	b, _ := json.Marshal(Usage{InputTokens: 3, OutputTokens: 4})
	if string(b) != `{"inputTokens":3,"outputTokens":4}` {
		t.Errorf("usage = %s", b)
	}
	b, _ = json.Marshal(Usage{InputTokens: 3, OutputTokens: 4, CachedInputTokens: 2})
	if string(b) != `{"inputTokens":3,"outputTokens":4,"cachedInputTokens":2}` {
		t.Errorf("usage = %s", b)
	}
}
