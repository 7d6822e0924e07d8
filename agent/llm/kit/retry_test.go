package kit

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentls/agentls/agent/llm"
)

// step is one scripted attempt: its error (nil: success), whether it emitted
// output first, and the response header it saw.
type step struct {
	err     error
	emitted bool
	header  http.Header
}

// errTransient and errPermanent are the two kinds of failure the script uses.
var (
	errTransient = errors.New("transient")
	errPermanent = errors.New("permanent")
)

var quiet = slog.New(slog.DiscardHandler)

func classifyTest(err error) *Error {
	if errors.Is(err, errTransient) {
		return &Error{Message: err.Error(), Transient: true, Err: err}
	}
	return Classify(err)
}

// TestRun: the retry loop is provider-neutral; a scripted attempt function
// shows each rule.
func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		steps      []step
		fallback   bool
		wantErr    string // substring; empty: success
		wantCalls  int
		wantSleeps []time.Duration
	}{
		{"success", []step{{}}, false, "", 1, nil},
		{"errTransient then success", []step{{err: errTransient}, {}}, false, "", 2, []time.Duration{-1}},
		{"Retry-After is honoured", []step{{err: errTransient, header: http.Header{"Retry-After": {"2"}}}, {}}, false, "", 2, []time.Duration{2 * time.Second}},
		{"errPermanent is not retried", []step{{err: errPermanent}}, false, "model request failed: permanent", 1, nil},
		{"retries run out", []step{{err: errTransient}, {err: errTransient}, {err: errTransient}}, false, "model request failed after 3 attempts: transient", 3, []time.Duration{-1, -1}},
		{"output started: not retried", []step{{err: errTransient, emitted: true}}, false, "output had started, not retried", 1, nil},
		{"a fallback is not a retry", []step{{err: errPermanent}, {}}, true, "", 2, nil},
		{"a dropped stream is transient", []step{{err: &StreamDrop{Err: errors.New("EOF")}}, {}}, false, "", 2, []time.Duration{-1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sleeps []time.Duration
			pol := Policy{MaxRetries: 2, InitialBackoff: time.Second, MaxBackoff: 10 * time.Second, Logger: quiet,
				Sleep: func(_ context.Context, d time.Duration) error {
					if d%time.Millisecond != 0 {
						d = -1 // a computed (jittered) delay
					}
					sleeps = append(sleeps, d)
					return nil
				}}.WithDefaults()
			calls, fellBack := 0, false
			call := Call{Model: "m", Classify: classifyTest,
				Do: func(_ context.Context, a *Attempt) (llm.Response, error) {
					s := tt.steps[calls]
					calls++
					a.Emitted, a.Header = s.emitted, s.header
					return llm.Response{FinishReason: "stop"}, s.err
				}}
			if tt.fallback {
				call.Fallback = func(context.Context, *Error) bool {
					if fellBack {
						return false
					}
					fellBack = true
					return true
				}
			}
			_, err := pol.Run(context.Background(), call)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if calls != tt.wantCalls {
				t.Errorf("%d attempts, want %d", calls, tt.wantCalls)
			}
			if len(sleeps) != len(tt.wantSleeps) {
				t.Fatalf("sleeps %v, want %v", sleeps, tt.wantSleeps)
			}
			for i := range sleeps {
				if sleeps[i] != tt.wantSleeps[i] {
					t.Errorf("sleeps %v, want %v", sleeps, tt.wantSleeps)
				}
			}
		})
	}
}

// TestRunWatchdog: an attempt that never answers is ended by the first-byte
// timeout and retried; one silent after a beat by the idle timeout.
func TestRunWatchdog(t *testing.T) {
	// In a synctest bubble the clock moves only when every goroutine waits:
	// the beat always comes before the first-byte timeout (on a loaded
	// machine a real 1 ms timer could fire first).
	synctest.Test(t, testRunWatchdog)
}

func testRunWatchdog(t *testing.T) {
	pol := Policy{MaxRetries: -1, Logger: quiet, FirstByteTimeout: time.Millisecond, IdleTimeout: time.Millisecond}.WithDefaults()
	for _, beat := range []bool{false, true} {
		_, err := pol.Run(context.Background(), Call{Classify: Classify,
			Do: func(ctx context.Context, a *Attempt) (llm.Response, error) {
				if beat {
					a.Dog.Beat()
				}
				<-ctx.Done()
				return llm.Response{}, ctx.Err()
			}})
		var fail *Error
		if !errors.As(err, &fail) || !fail.Transient {
			t.Fatalf("beat=%v: err = %v, want a errTransient *Error", beat, err)
		}
		want := "model.first_byte_timeout_secs"
		if beat {
			want = "model.idle_timeout_secs"
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("beat=%v: err = %v, want it to name %s", beat, err, want)
		}
	}
}

// TestRunCancel: a cancelled context ends the loop with ctx's error, not
// a retry.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Policy{Logger: quiet}.WithDefaults().Run(ctx, Call{Classify: classifyTest,
		Do: func(context.Context, *Attempt) (llm.Response, error) {
			calls++
			cancel()
			return llm.Response{}, errTransient
		}})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Fatalf("err = %v after %d calls", err, calls)
	}
}

func TestContextExceeded(t *testing.T) {
	for _, tt := range []struct {
		texts []string
		want  bool
	}{
		{[]string{"context_length_exceeded"}, true},
		{[]string{"", "This model's maximum context length is 8192 tokens"}, true},
		{[]string{"the request exceeds the available context size"}, true},
		{[]string{"exceed_context_size_error"}, true},
		{[]string{"prompt is too long: 210000 tokens > 200000 maximum"}, true},
		{[]string{"INVALID_ARGUMENT", "The input token count (12575) exceeds the maximum number of tokens allowed (12000)."}, true},
		{[]string{"Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough."}, true},
		{[]string{"Context size has been exceeded."}, true},
		{[]string{"Reached context length of 4096 tokens with model (arch: qwen3vlmoe) that does not currently support mid-generation context overflow."}, false},
		{[]string{"Error: Input length 6491 exceeds context length 1500"}, true},
		{[]string{`{"error":"the input length exceeds the context length"}`}, true},
		{[]string{"invalid_value", "Invalid value for temperature"}, false},
		{nil, false},
	} {
		if got := ContextExceeded(tt.texts...); got != tt.want {
			t.Errorf("ContextExceeded(%q) = %v", tt.texts, got)
		}
		if got := errors.Is(&Error{ContextExceeded: tt.want}, llm.ErrContextExceeded); got != tt.want {
			t.Errorf("errors.Is for %q = %v", tt.texts, got)
		}
	}
}
