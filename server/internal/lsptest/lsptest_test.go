package lsptest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
)

// fakeTB records a failure and ends the failing goroutine, as t.Fatal does,
// without failing the real test.
type fakeTB struct {
	testing.TB
	mu       sync.Mutex
	failures []string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.failures = append(f.failures, fmt.Sprintf(format, args...))
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

func (f *fakeTB) Errorf(format string, args ...any) { f.Fatalf(format, args...) }

// awaitWith runs env.Await(exps...) with a fake TB and returns its failure
// messages (none when the expectations were met).
func awaitWith(env *Env, exps ...Expectation) []string {
	real := env.T
	fake := &fakeTB{TB: real}
	env.T = fake
	defer func() { env.T = real }()
	done := make(chan struct{})
	go func() {
		defer close(done)
		env.Await(exps...)
	}()
	<-done
	fake.mu.Lock()
	defer fake.mu.Unlock()
	return fake.failures
}

const helloScript = `
name: hello
steps:
  - text: "hello from the model"
`

// chunk is an agent_message_chunk containing text.
func chunk(text string) Expectation {
	return Update("agent_message_chunk", fmt.Sprintf("a chunk saying %q", text), func(u agentproto.MessageChunk) bool {
		return strings.Contains(u.Content.Text, text)
	})
}

// TestAwaitMet: expectations that hold end the wait without a failure.
func TestAwaitMet(t *testing.T) {
	env := Start(t, Setup{Script: helloScript})
	s := env.NewSession("plan")
	if r := env.Prompt(s.SessionID, "hi"); string(r.StopReason) != string(agentproto.StopEndTurn) {
		t.Fatalf("prompt = %+v", r)
	}
	if f := awaitWith(env, chunk("hello from"), OnceMet(TurnEnded(s.SessionID), chunk("model")), Received("agent/update")); len(f) != 0 {
		t.Fatalf("met expectations failed: %q", f)
	}
}

// TestAwaitFailureNamesTheExpectation: a wait whose deadline passes fails
// with the expectation's description and the last messages the server sent.
func TestAwaitFailureNamesTheExpectation(t *testing.T) {
	env := Start(t, Setup{Script: helloScript, WaitTimeout: 50 * time.Millisecond})
	s := env.NewSession("plan")
	env.Prompt(s.SessionID, "hi")
	f := awaitWith(env, chunk("hello from"), chunk("goodbye"))
	if len(f) != 1 {
		t.Fatalf("failures = %q, want one", f)
	}
	for _, want := range []string{
		`expectation not met within 50ms: a chunk saying "goodbye"`,
		"agent/prompt for session " + s.SessionID + ": returned",
		"messages from the server:",
		"agent/update (notification)",
		`"text":"hello from the"`,
	} {
		if !strings.Contains(f[0], want) {
			t.Errorf("failure lacks %q:\n%s", want, f[0])
		}
	}
	if strings.Contains(f[0], "hello from\"") {
		t.Errorf("the failure names a met expectation:\n%s", f[0])
	}
}

// TestAwaitUnmeetableFailsAtOnce: once the turn ended without the awaited
// chunk, the wait fails at once: the deadline is an hour, so a wait that
// did not fail fast would end only with the test binary's timeout.
func TestAwaitUnmeetableFailsAtOnce(t *testing.T) {
	env := Start(t, Setup{Script: helloScript, WaitTimeout: time.Hour})
	s := env.NewSession("plan")
	// The prompt is still running when the wait starts, or has just
	// returned: either way the wait ends when the turn has.
	done := env.PromptAsync(s.SessionID, "hi")
	f := awaitWith(env, OnceMet(TurnEnded(s.SessionID), chunk("goodbye")))
	<-done
	if len(f) != 1 {
		t.Fatalf("failures = %q, want one", f)
	}
	want := fmt.Sprintf(`expectation unmeetable: once the turn of session %s ended (agent/prompt returned): a chunk saying "goodbye"`, s.SessionID)
	if !strings.Contains(f[0], want) || !strings.Contains(f[0], `"text":"hello from the"`) {
		t.Errorf("failure = %s\nwant it to contain %q and the last messages", f[0], want)
	}
}

// TestVerdicts judges expectations on hand-made states.
func TestVerdicts(t *testing.T) {
	update := func(text string) lspclient.Message {
		return lspclient.Message{Method: "agent/update", Params: []byte(`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}`)}
	}
	running := []PromptState{{SessionID: "s"}}
	ended := []PromptState{{SessionID: "s", Returned: true}}
	never := Expectation{Description: "never", Check: func(State) Verdict { return Unmeetable }}
	tests := []struct {
		name string
		exp  Expectation
		st   State
		want Verdict
	}{
		{"chunk arrived", chunk("a"), State{Messages: []lspclient.Message{update("a")}}, Met},
		{"chunk not yet", chunk("b"), State{Messages: []lspclient.Message{update("a")}}, Unmet},
		{"other kind", Update[agentproto.ToolCallStarted]("tool_call", "", nil), State{Messages: []lspclient.Message{update("a")}}, Unmet},
		{"no prompt: turn not ended", TurnEnded(""), State{}, Unmet},
		{"turn running", TurnEnded("s"), State{Prompts: running}, Unmet},
		{"turn ended", TurnEnded("s"), State{Prompts: ended}, Met},
		{"another session's turn", TurnEnded("t"), State{Prompts: ended}, Unmet},
		{"one of two turns running", TurnEnded(""), State{Prompts: append(append([]PromptState{}, ended...), running...)}, Unmet},
		{"once met, must met", OnceMet(TurnEnded("s"), chunk("a")), State{Messages: []lspclient.Message{update("a")}, Prompts: ended}, Met},
		{"must met before pre", OnceMet(TurnEnded("s"), chunk("a")), State{Messages: []lspclient.Message{update("a")}, Prompts: running}, Met},
		{"pre unmet, must unmet", OnceMet(TurnEnded("s"), chunk("b")), State{Messages: []lspclient.Message{update("a")}, Prompts: running}, Unmet},
		{"pre met, must unmet", OnceMet(TurnEnded("s"), chunk("b")), State{Messages: []lspclient.Message{update("a")}, Prompts: ended}, Unmeetable},
		{"must unmeetable", OnceMet(TurnEnded("s"), never), State{Prompts: running}, Unmeetable},
		{"pre unmeetable, must unmet", OnceMet(never, chunk("b")), State{Messages: []lspclient.Message{update("a")}}, Unmeetable},
		{"pre unmeetable, must met", OnceMet(never, chunk("a")), State{Messages: []lspclient.Message{update("a")}}, Met},
		{"method count met", MethodCount("agent/update", 2), State{Messages: []lspclient.Message{update("a"), update("b")}}, Met},
		{"method count unmet", MethodCount("agent/update", 3), State{Messages: []lspclient.Message{update("a"), update("b")}}, Unmet},
		{"params containing", ParamsContaining("agent/update", `"text":"a"`, "chunk"), State{Messages: []lspclient.Message{update("a")}}, Met},
		{"params lacking one", ParamsContaining("agent/update", `"text":"a"`, "tool_call"), State{Messages: []lspclient.Message{update("a")}}, Unmet},
	}
	for _, tt := range tests {
		if got := tt.exp.Check(tt.st); got != tt.want {
			t.Errorf("%s: %s = %s, want %s", tt.name, tt.exp.Description, got, tt.want)
		}
	}
}
