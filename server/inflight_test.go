package server

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestInflightWait: Serve's wait for the running handlers ends when the
// last returns, at once when none runs, and at the bound (on synctest's
// clock) when one never returns; after it no handler is admitted.
func TestInflightWait(t *testing.T) {
	t.Parallel()
	const bound = 10 * time.Second
	for _, tc := range []struct {
		name     string
		running  int
		leaveAll bool
		want     time.Duration
	}{
		{"none running", 0, false, 0},
		{"two that return", 2, true, 0},
		{"one that hangs", 1, false, bound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var g inflight
				for range tc.running {
					if !g.enter() {
						t.Fatal("a handler was refused before close")
					}
				}
				if tc.leaveAll {
					for range tc.running {
						go g.leave()
					}
				}
				start := time.Now()
				g.wait(bound)
				if d := time.Since(start); d != tc.want {
					t.Errorf("wait took %s, want %s", d, tc.want)
				}
				if g.enter() {
					t.Error("a handler was admitted after the wait")
				}
			})
		})
	}
}
