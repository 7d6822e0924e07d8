package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestReplayKeepsToolOutcomes: session/load after a restart replays each
// tool call as it was shown: its title ("edit `main.go`") and a plan-mode
// refused edit as failed — the same stored data agent/loadSession shows.
func TestReplayKeepsToolOutcomes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	first := newRig(t, setup{dir: dir, files: map[string]string{"main.go": "package main\n"}, script: `
steps:
  - tool_calls:
      - {id: r1, name: read, args: {path: main.go}}
      - {id: e1, name: edit, args: {path: main.go, old_string: "package main", new_string: "package other"}}
  - text: "Refused, as expected."
`})
	sid := first.newSession().SessionId
	first.mustPrompt(sid, "change it")
	first.stop()

	second := newRig(t, setup{dir: dir})
	if _, err := second.conn.LoadSession(second.ctx, sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("load: %v", err)
	}
	second.client.mu.Lock()
	updates := append([]sdk.SessionNotification(nil), second.client.updates...)
	second.client.mu.Unlock()
	titles, statuses := map[string]string{}, map[string]string{}
	for _, u := range updates {
		b, _ := json.Marshal(u.Update)
		var m struct {
			SessionUpdate string `json:"sessionUpdate"`
			ToolCallID    string `json:"toolCallId"`
			Title         string `json:"title"`
			Status        string `json:"status"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		switch m.SessionUpdate {
		case "tool_call":
			titles[m.ToolCallID] = m.Title
		case "tool_call_update":
			statuses[m.ToolCallID] = m.Status
		}
	}
	if titles["r1"] != "read `main.go`" || !strings.Contains(titles["e1"], "main.go") {
		t.Errorf("replayed titles %v, want read `main.go` and an edit naming main.go", titles)
	}
	if statuses["r1"] != "completed" || statuses["e1"] != "failed" {
		t.Errorf("replayed statuses %v, want the read completed and the refused edit failed", statuses)
	}
}
