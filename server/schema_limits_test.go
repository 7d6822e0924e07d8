package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// stallTimeout bounds a turn that must end at once: before the schema
// limits, these schemas held the turn (and a core) for hours.
const stallTimeout = 20 * time.Second

// stallArgs is the ask_user arguments of questions/testdata/<name>.json as
// a YAML scalar for raw_args.
func stallArgs(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "questions", "testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := json.Marshal(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return string(q)
}

// TestStallingSchemasRefused: the model's ask_user with a 2 KB chain of 40
// anyOf/$ref levels and with a 32 KB schema nested 4,000 deep get the limit
// error as their tool result and the turn ends normally; the next prompt is
// answered and agent/cancel still ends it.
func TestStallingSchemasRefused(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"branch": "late"}})},
		Script: `
name: stall
steps:
  - tool_calls:
      - {id: chain, name: ask_user, raw_args: ` + stallArgs(t, "stall_anyof_refs") + `}
  - tool_calls:
      - {id: deep, name: ask_user, raw_args: ` + stallArgs(t, "stall_deep") + `}
    expect:
      tool_result_contains: {chain: ['is nested 82 deep; the limit is 16', 'nothing was shown to the user']}
  - text: refused
    expect:
      tool_result_contains: {deep: ['is 32017 bytes of JSON; the limit is 16384']}
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [` + branchQuestion + `]}}
  - text: never reached
`,
	})
	s := h.NewSession("plan")
	select {
	case r := <-h.PromptAsync(s.SessionID, "ask me"):
		wantStop(t, r, "end_turn")
	case <-time.After(stallTimeout):
		stalled(t)
	}
	if n := len(h.Messages("agent/askUser")); n != 0 {
		t.Fatalf("%d agent/askUser requests: a refused schema reached the editor", n)
	}
	for _, id := range []string{"chain", "deep"} {
		if status, _ := h.ToolOutput(id); status != "failed" {
			t.Fatalf("ask_user %s = %s, want failed", id, status)
		}
	}
	h.AwaitChunk("refused")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "ask again"})
	cancelWhileAsked(h, t, s.SessionID, done, "agent/askUser")
}

// stalled ends the test binary: the server's turn is stuck in the schema
// validator, which nothing can interrupt, so the Env's cleanup (which waits
// for the server, and runs even on a panic in the test's goroutine) would
// hang too. A panic in another goroutine ends the process at once.
func stalled(t *testing.T) {
	msg := fmt.Sprintf("%s: the turn did not end within %v: a question schema stalled the server", t.Name(), stallTimeout)
	go func() { panic(msg) }()
	select {}
}
