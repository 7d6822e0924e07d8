package server_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestPlainClientSeesSubagentLines (issue 23): a plain editor gets one log
// line per sub-agent tool call in the parent's stream, prefixed with the
// sub-agent's short id.
func TestPlainClientSeesSubagentLines(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Files: map[string]string{"a.txt": "one\n"}, Script: `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: "read a"}}
  - text: "Done."
children:
  explore-1:
    - tool_calls:
        - {id: r, name: read, args: {path: a.txt}}
        - {id: w, name: write, args: {path: a.txt, content: two}}
    - text: "a says one"
`})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "look"), "end_turn")
	var children struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
			ParentID  string `json:"parentId"`
		} `json:"sessions"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/listSessions", map[string]any{"includeChildren": true}, &children); err != nil {
		t.Fatal(err)
	}
	child := ""
	for _, c := range children.Sessions {
		if c.ParentID == s.SessionID {
			child = strings.ReplaceAll(c.SessionID, "-", "")
		}
	}
	if child == "" {
		t.Fatalf("no child session in %+v", children)
	}
	prefix := "[PLAN " + shortOf(s.SessionID) + "] [" + child[len(child)-8:] + "] "
	lines := h.LogLines()
	for _, want := range []string{prefix + "→ read `a.txt`", prefix + "✗ refused write `a.txt`: not given to this sub-agent"} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("log lines %q lack %q", lines, want)
		}
	}
	if !slices.Contains(lines, "[PLAN "+shortOf(s.SessionID)+"] → task explore") {
		t.Errorf("log lines %q lack the task call's own line", lines)
	}
}
