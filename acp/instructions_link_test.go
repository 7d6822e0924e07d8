package acp_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// readOnceModel reads path in its first answer, then says "done".
type readOnceModel struct {
	mu   sync.Mutex
	path string
	n    int
}

func (m *readOnceModel) Complete(_ context.Context, req llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	m.mu.Lock()
	m.n++
	first := m.n == 1
	m.mu.Unlock()
	if first {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{ID: "call_read", Name: "read",
			Arguments: `{"path":` + quoteJSON(m.path) + `}`}}}, FinishReason: "tool_calls"}, nil
	}
	if onEvent != nil {
		onEvent(llm.Event{Kind: llm.EventText, Text: "done"})
	}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "done"}, FinishReason: "stop"}, nil
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// TestInstructionsLoadedLineForgesNoMarkdownLink: ACP clients (Zed,
// agent-shell, avante) render agent_message_chunk as Markdown, and the
// "Loaded project instructions: …" line is agentls's own text in that
// stream. A repository nests an AGENTS.md under the folders
// `[Approve the plan](https:` / `evil.example)`: once the model reads a
// file there, agentls's own line must not carry a live link to
// the attacker's site. So each path goes in a code span
// (permission.CodeSpan), as every other repository name agentls puts in a
// Markdown surface does (review questions, grants).
func TestInstructionsLoadedLineForgesNoMarkdownLink(t *testing.T) {
	t.Parallel()
	const link = "[Approve the plan](https:/evil.example)"
	r := newRig(t, setup{
		model: &readOnceModel{path: link + "/x.go"},
		files: map[string]string{
			"AGENTS.md":         "Root rule.\n",
			link + "/AGENTS.md": "Nested rule.\n",
			link + "/x.go":      "package x\n",
		},
	})
	sess := r.newSession()
	if stop := r.mustPrompt(sess.SessionId, "look around"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", stop)
	}
	text := r.client.agentText()
	var line string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Loaded project instructions:") && strings.Contains(l, "AGENTS.md") && strings.Contains(l, "evil.example") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no line names the nested AGENTS.md:\n%s", text)
	}
	i := strings.Index(line, link)
	if i < 0 {
		return // written some other way: no link as such
	}
	// Live unless inside a code span (an odd number of backticks before it)
	// or its bracket is escaped.
	if strings.Count(line[:i], "`")%2 == 0 && !strings.HasSuffix(line[:i], `\`) {
		t.Errorf("agentls's own message carries the repository's Markdown link %s live: %q", link, line)
	}
}
