package workspace

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestOverlayWaitReported: a wait after an applied agent edit ends with the
// editor's report (its text and version), at its bound, or with its
// context; a known version or a closed document does not wait.
func TestOverlayWaitReported(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		applied   bool
		report    func(o *Overlay) // run after a second, in its own goroutine
		cancel    bool
		wantKnown bool
		wantText  string
		wantAfter time.Duration
	}{
		{name: "known: no wait", wantKnown: true, wantText: "old"},
		{name: "reported", applied: true, report: func(o *Overlay) { _ = o.Change("/w/a", 4, []ContentChange{{Text: "new"}}) }, wantKnown: true, wantText: "new", wantAfter: time.Second},
		{name: "reopened", applied: true, report: func(o *Overlay) { o.Open("/w/a", 9, "new") }, wantKnown: true, wantText: "new", wantAfter: time.Second},
		{name: "closed meanwhile", applied: true, report: func(o *Overlay) { o.Close("/w/a") }, wantAfter: time.Second},
		{name: "never reported", applied: true, wantAfter: 5 * time.Second},
		{name: "cancelled", applied: true, cancel: true, wantAfter: time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := NewOverlay()
				o.Open("/w/a", 0, "old")
				if c.applied {
					o.SetApplied("/w/a", "new")
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() {
					time.Sleep(time.Second)
					if c.report != nil {
						c.report(o)
					}
					if c.cancel {
						cancel()
					}
				}()
				start := time.Now()
				text, _, known := o.WaitReported(ctx, "/w/a", 5*time.Second)
				if known != c.wantKnown || text != c.wantText {
					t.Errorf("WaitReported = %q, %v; want %q, %v", text, known, c.wantText, c.wantKnown)
				}
				if got := time.Since(start); got != c.wantAfter {
					t.Errorf("returned after %v, want %v", got, c.wantAfter)
				}
				time.Sleep(2 * time.Second) // the reporting goroutine ends (fake time)
			})
		})
	}
}
