package acptest

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/testcache"
)

// TestMain keeps agentls's logs out of test output unless AGENTLS_TEST_LOG is set.
func TestMain(m *testing.M) {
	if os.Getenv("AGENTLS_TEST_LOG") == "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(testcache.Run(m)) // the commands' caches go to a temporary folder
}

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
steps:
  - text: "hello from the model"
`

// TestAwaitVerdicts: met expectations end the wait; an unmet one fails at
// its deadline naming itself and showing the last messages; a negative
// one fails at once when what it forbids arrived.
func TestAwaitVerdicts(t *testing.T) {
	env := Start(t, Setup{Script: helloScript})
	sid := env.NewSession()
	env.PromptAsync(sid, "hi")
	if f := awaitWith(env, TurnEndedWith(sid, sdk.StopReasonEndTurn), AgentTextIs("hello from the model"),
		AnyOf(Received("no/such"), Update("agent_message_chunk", "", nil))); len(f) != 0 {
		t.Fatalf("met expectations failed: %q", f)
	}
	env.waitTimeout = 200 * time.Millisecond // the failing waits below end at it
	tests := []struct {
		name string
		exps []Expectation
		want []string
	}{
		{"deadline", []Expectation{Received("no/such")}, []string{"acptest: expectation not met within 200ms: a no/such", "messages from agentls", "session/update (notification)", "hello from the", "(response 1) {", "returned end_turn"}},
		{"negative", []Expectation{AllOf(Received("no/such"), Not(Update("agent_message_chunk", "a chunk", nil)))}, []string{"expectation unmeetable: all of (a no/such; not a chunk)"}},
		{"turn ended without it", []Expectation{OnceMet(TurnEnded(sid), Received("no/such"))}, []string{"expectation unmeetable: once the turn of session"}},
		{"another stop reason", []Expectation{TurnEndedWith(sid, sdk.StopReasonCancelled)}, []string{"unmeetable: the turn of session " + string(sid) + " ended with cancelled"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := awaitWith(env, tc.exps...)
			if len(f) != 1 {
				t.Fatalf("failures %q, want one", f)
			}
			for _, w := range tc.want {
				if !strings.Contains(f[0], w) {
					t.Errorf("failure lacks %q:\n%s", w, f[0])
				}
			}
		})
	}
}
