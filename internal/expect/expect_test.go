package expect

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixed is an expectation whose verdict is v.
func fixed(name string, v Verdict) Expectation[int] {
	return Expectation[int]{Description: name, Check: func(int) Verdict { return v }}
}

// atLeast is met once the state reaches n.
func atLeast(n int) Expectation[int] {
	return Expectation[int]{Description: "at least", Check: func(s int) Verdict {
		if s >= n {
			return Met
		}
		return Unmet
	}}
}

func TestCombinators(t *testing.T) {
	met, unmet, never := fixed("m", Met), fixed("u", Unmet), fixed("x", Unmeetable)
	tests := []struct {
		name string
		e    Expectation[int]
		want Verdict
	}{
		{"not met", Not(met), Unmeetable},
		{"not unmet", Not(unmet), Met},
		{"not unmeetable", Not(never), Met},
		{"all met", AllOf(met, met), Met},
		{"all with unmet", AllOf(met, unmet), Unmet},
		{"all with unmeetable", AllOf(unmet, never), Unmeetable},
		{"all of none", AllOf[int](), Met},
		{"any with met", AnyOf(never, met), Met},
		{"any with unmet", AnyOf(never, unmet), Unmet},
		{"any all unmeetable", AnyOf(never, never), Unmeetable},
		{"any of none", AnyOf[int](), Unmeetable},
		{"once: musts met", OnceMet(unmet, met), Met},
		{"once: pre unmet", OnceMet(unmet, unmet), Unmet},
		{"once: pre met, must unmet", OnceMet(met, unmet), Unmeetable},
		{"once: must unmeetable", OnceMet(unmet, never), Unmeetable},
		{"negative while the wait runs", AllOf(unmet, Not(unmet)), Unmet},
		{"negative broken", AllOf(unmet, Not(met)), Unmeetable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.e.Check(0); got != tc.want {
				t.Fatalf("%s = %s, want %s", tc.e.Description, got, tc.want)
			}
		})
	}
}

func TestWait(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	state := 0
	changed := make(chan struct{})
	src := func() (int, []<-chan struct{}) {
		mu.Lock()
		defer mu.Unlock()
		return state, []<-chan struct{}{changed}
	}
	t.Run("met after a change", func(t *testing.T) {
		state = 0
		changed = make(chan struct{})
		done := make(chan *Failure[int])
		go func() { done <- Wait(ctx, time.Minute, src, atLeast(1)) }()
		mu.Lock()
		state = 1
		close(changed)
		mu.Unlock()
		if f := <-done; f != nil {
			t.Fatalf("wait failed: %s", f)
		}
	})
	t.Run("unmeetable at once", func(t *testing.T) {
		f := Wait(ctx, time.Minute, src, atLeast(0), Not(atLeast(0)))
		if f == nil || f.Why != "unmeetable" || !strings.Contains(f.String(), "not at least") {
			t.Fatalf("failure %v", f)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		f := Wait(ctx, time.Millisecond, func() (int, []<-chan struct{}) { return 0, nil }, atLeast(5))
		if f == nil || !strings.Contains(f.Why, "not met within") {
			t.Fatalf("failure %v", f)
		}
	})
	t.Run("context ends", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		f := Wait(cctx, time.Minute, func() (int, []<-chan struct{}) { return 0, nil }, atLeast(5))
		if f == nil || !strings.Contains(f.Why, "context ended") {
			t.Fatalf("failure %v", f)
		}
	})
}

func TestReport(t *testing.T) {
	f := &Failure[int]{Why: "unmeetable", Expectation: atLeast(1)}
	items := []string{"a", "b", strings.Repeat("x", 500)}
	got := Report("h", f, []string{"call 1: running"}, "messages", items, func(s string) Shown {
		return Shown{Method: "m", Kind: "notification", Params: []byte(s)}
	})
	want := "h: expectation unmeetable: at least\ncall 1: running\nlast 3 of 3 messages:\n  #1 m (notification) a\n  #2 m (notification) b\n  #3 m (notification) " +
		strings.Repeat("x", 400) + "… (500 bytes)"
	if got != want {
		t.Fatalf("%q\nwant %q", got, want)
	}
}

// TestLog: each Add and Set closes the channel of the snapshot before it.
func TestLog(t *testing.T) {
	var l Log[string]
	items, changed := l.Snapshot()
	if len(items) != 0 {
		t.Fatalf("items %q", items)
	}
	i := l.Add("a")
	select {
	case <-changed:
	default:
		t.Fatal("Add did not signal")
	}
	_, changed = l.Snapshot()
	l.Set(i, "b")
	select {
	case <-changed:
	default:
		t.Fatal("Set did not signal")
	}
	if items, _ := l.Snapshot(); len(items) != 1 || items[0] != "b" {
		t.Fatalf("items %q", items)
	}
}

// TestTranscript: the transcript's source sees both lists as they are and
// wakes on a change of either; its report has a line per prompt call.
func TestTranscript(t *testing.T) {
	var msgs Log[string]
	var calls Log[int]
	source := TranscriptOf(msgs.Snapshot, calls.Snapshot)
	msgs.Add("m1")
	calls.Add(7)
	st, changed := source()
	if len(st.Messages) != 1 || st.Messages[0] != "m1" || len(st.Prompts) != 1 || st.Prompts[0] != 7 {
		t.Fatalf("transcript %+v", st)
	}
	for i, add := range []func(){func() { msgs.Add("m2") }, func() { calls.Set(0, 8) }} {
		add()
		select {
		case <-changed[i]:
		default:
			t.Fatalf("change %d did not signal", i)
		}
	}
	st, _ = source()
	f := &Failure[Transcript[string, int]]{Why: "unmeetable", Expectation: Expectation[Transcript[string, int]]{Description: "x"}, State: st}
	got := ReportTranscript("h", f, "agent/prompt", func(c int) (string, string) { return "s", fmt.Sprint("returned ", c) }, "messages", func(m string) Shown {
		return Shown{Method: m, Kind: "notification"}
	})
	want := "h: expectation unmeetable: x\nagent/prompt for session s: returned 8\nlast 2 of 2 messages:\n  #1 m1 (notification) \n  #2 m2 (notification) "
	if got != want {
		t.Fatalf("%q\nwant %q", got, want)
	}
}
