package acp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
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

// TestStallingSchemasRefused: on the ACP face, the model's ask_user with a
// 2 KB chain of 40 anyOf/$ref levels and a 32 KB schema nested 4,000 deep
// get the limit error as their tool result, the turn ends normally, no
// elicitation is sent for them, and session/cancel still ends the next turn.
func TestStallingSchemasRefused(t *testing.T) {
	t.Parallel()
	script := `
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
      - {id: q, name: ask_user, args: {questions: [{name: colour, question: "Which colour?", schema: {type: string}}]}}
`
	r, asked := heldElicitationRig(t, script)
	sid := r.newSession().SessionId
	select {
	case res := <-r.promptAsync(sid, "ask me"):
		if res.err != nil || res.stop != sdk.StopReasonEndTurn {
			t.Fatalf("stop %s (%v), want end_turn", res.stop, res.err)
		}
	case <-time.After(stallTimeout):
		stalled(t)
	}
	if n := len(r.wire.requests("elicitation/create")); n != 0 {
		t.Fatalf("%d elicitations: a refused schema reached the client", n)
	}
	if !strings.HasSuffix(r.client.agentText(), "refused") {
		t.Errorf("agent text %q", r.client.agentText())
	}
	done := r.promptAsync(sid, "ask again")
	<-asked
	r.cancel(sid)
	if res := <-done; res.stop != sdk.StopReasonCancelled {
		t.Errorf("stop %s (%v), want cancelled", res.stop, res.err)
	}
}

// stalled ends the test binary: the turn is stuck in the schema validator,
// which nothing can interrupt, and the rig's cleanup would wait for it. A
// panic in another goroutine ends the process at once.
func stalled(t *testing.T) {
	msg := fmt.Sprintf("%s: the turn did not end within %v: a question schema stalled the server", t.Name(), stallTimeout)
	go func() { panic(msg) }()
	select {}
}
