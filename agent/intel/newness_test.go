package intel

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/workspace"
)

func diag(line uint32, msg string) Diagnostic {
	return Diagnostic{Range: workspace.Range{Start: workspace.Position{Line: line}, End: workspace.Position{Line: line, Character: 3}}, Severity: SeverityError, Source: "compiler", Message: msg}
}

func TestNewAfterShift(t *testing.T) {
	before := "a\nb\nc\nd\n"
	tests := []struct {
		name     string
		after    string
		baseline []Diagnostic
		current  []Diagnostic
		want     []string
	}{
		{"same problem, lines moved down", "a\nx\ny\nb\nc\nd\n", []Diagnostic{diag(3, "bad d")}, []Diagnostic{diag(5, "bad d")}, nil},
		{"same problem, lines moved up", "a\nd\n", []Diagnostic{diag(3, "bad d")}, []Diagnostic{diag(1, "bad d")}, nil},
		{"new problem in the edit", "a\nb\nX\nd\n", []Diagnostic{diag(3, "bad d")}, []Diagnostic{diag(3, "bad d"), diag(2, "undefined: X")}, []string{"undefined: X"}},
		{"same message elsewhere is new", "a\nb\nc\nd\n", []Diagnostic{diag(0, "unused")}, []Diagnostic{diag(0, "unused"), diag(3, "unused")}, []string{"unused"}},
		{"problem inside the changed lines stays old", "a\nB\nB2\nc\nd\n", []Diagnostic{diag(1, "bad b")}, []Diagnostic{diag(2, "bad b")}, nil},
		{"above the edit keeps its line", "a\nb\nc\nd\ne\n", []Diagnostic{diag(0, "bad a")}, []Diagnostic{diag(0, "bad a")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := New(Shift(tc.baseline, before, tc.after), tc.current)
			var msgs []string
			for _, d := range got {
				msgs = append(msgs, d.Message)
			}
			if len(msgs) != len(tc.want) {
				t.Fatalf("new = %q, want %q", msgs, tc.want)
			}
			for i := range msgs {
				if msgs[i] != tc.want[i] {
					t.Fatalf("new = %q, want %q", msgs, tc.want)
				}
			}
		})
	}
}

// FuzzNothingIsNewUnchanged: a file whose text did not change has no new
// problems against its own diagnostics, and Shift keeps every problem.
func FuzzNothingIsNewUnchanged(f *testing.F) {
	f.Add("a\nb\n", "a\nc\nb\n", uint32(1), "m")
	f.Fuzz(func(t *testing.T, before, after string, line uint32, msg string) {
		line %= 1000
		ds := []Diagnostic{diag(line, msg)}
		if n := New(ds, ds); len(n) != 0 {
			t.Fatalf("unchanged diagnostics reported new: %v", n)
		}
		if got := Shift(ds, before, after); len(got) != 1 || got[0].Range.Start.Line > got[0].Range.End.Line {
			t.Fatalf("Shift lost or broke a problem: %v", got)
		}
	})
}

// stepSource answers Diagnostics from a list of snapshots, one a call (the
// last one repeated).
type stepSource struct {
	Source
	mu    sync.Mutex
	snaps []Snapshot
	calls int
}

func (s *stepSource) Diagnostics(context.Context, []string) (Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := min(s.calls, len(s.snaps)-1)
	s.calls++
	return s.snaps[i], nil
}

func TestSettle(t *testing.T) {
	one := map[string][]Diagnostic{"/a.go": {diag(1, "x")}}
	none := map[string][]Diagnostic{"/a.go": nil}
	t.Run("waits for the change and the quiet", func(t *testing.T) {
		src := &stepSource{snaps: []Snapshot{{Files: none, Pending: true}, {Files: none, Pending: true}, {Files: one}}}
		snap, settled, err := Settle(context.Background(), src, []string{"/a.go"}, time.Second)
		if err != nil || !settled || len(snap.Files["/a.go"]) != 1 {
			t.Fatalf("Settle = %v, %v, %v; want the problem, settled", snap, settled, err)
		}
		if src.calls < 4 {
			t.Fatalf("settled after %d polls, before %v of quiet", src.calls, QuietFor)
		}
	})
	t.Run("budget runs out", func(t *testing.T) {
		src := &stepSource{snaps: []Snapshot{{Files: none, Pending: true}}}
		_, settled, err := Settle(context.Background(), src, []string{"/a.go"}, 300*time.Millisecond)
		if err != nil || settled {
			t.Fatalf("Settle settled=%v err=%v; want settled false when the budget runs out", settled, err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		src := &stepSource{snaps: []Snapshot{{Files: none, Pending: true}}}
		if _, _, err := Settle(ctx, src, nil, time.Second); err == nil {
			t.Fatal("a cancelled Settle returned no error")
		}
	})
}

// hangingSource answers the first poll, then never (an editor that stops
// answering).
type hangingSource struct {
	Source
	calls atomic.Int32
}

func (h *hangingSource) Diagnostics(ctx context.Context, _ []string) (Snapshot, error) {
	if h.calls.Add(1) == 1 {
		return Snapshot{Pending: true}, nil
	}
	<-ctx.Done()
	return Snapshot{}, ctx.Err()
}

func TestSettleBoundsAHangingPoll(t *testing.T) {
	start := time.Now()
	_, settled, err := Settle(context.Background(), &hangingSource{}, nil, 300*time.Millisecond)
	if err != nil || settled {
		t.Fatalf("Settle = settled %v, %v; want the budget's end, not settled, no error", settled, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("a hanging source held Settle %v", d)
	}
}
