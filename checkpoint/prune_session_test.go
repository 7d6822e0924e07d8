package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSessionPrune: between two whole prunes (PruneInterval apart) a prune
// looks at its own session's checkpoints and the objects' total only:
// another session's expired checkpoints wait for the next whole prune,
// which drops them. (The session's own excess goes at once, with a whole
// prune: TestPruneCadence.)
func TestSessionPrune(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, Retention{PerSession: 3, MaxAge: 24 * time.Hour, MaxBytes: 1 << 20})
	clock := time.Now()
	s.now = func() time.Time { return clock }
	if _, err := s.Save(ctx, "s1", "c1"); err != nil { // whole (no stamp yet)
		t.Fatal(err)
	}
	other := Open(s.ws, s.retention)
	for _, id := range []string{"o1", "o2"} {
		if _, err := other.Save(ctx, "old", id); err != nil {
			t.Fatal(err)
		}
		p, _ := other.manifestPath("old", id)
		expired := clock.Add(-48 * time.Hour)
		if err := os.Chtimes(p, expired, expired); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"c2", "c3"} {
		if _, err := s.Save(ctx, "s1", id); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Has("old", "o1") || !s.Has("old", "o2") {
		t.Fatal("a session prune dropped another session's checkpoints")
	}
	clock = clock.Add(PruneInterval + time.Minute)
	if _, err := s.Save(ctx, "s1", "c4"); err != nil { // whole again
		t.Fatal(err)
	}
	if s.Has("old", "o1") || s.Has("old", "o2") {
		t.Fatal("the whole prune kept another session's expired checkpoints")
	}
	if s.Has("s1", "c1") || !s.Has("s1", "c2") || !s.Has("s1", "c4") {
		t.Fatal("the whole prune did not keep the session's last PerSession checkpoints")
	}
}

// TestSessionPruneOverBudget: a session prune that finds the objects over
// MaxBytes goes on to the whole workspace and drops its oldest checkpoint,
// of whatever session.
func TestSessionPruneOverBudget(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, nil, Retention{PerSession: 100, MaxBytes: 1500})
	clock := time.Now()
	s.now = func() time.Time { return clock }
	for i, c := range []struct{ session, id string }{{"s1", "c1"}, {"s2", "c2"}} {
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(strings.Repeat(string(rune('a'+i)), 1000)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Save(ctx, c.session, c.id); err != nil {
			t.Fatal(err)
		}
		p, _ := s.manifestPath(c.session, c.id)
		mt := clock.Add(time.Duration(i-10) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	if s.pruneDue() {
		t.Fatal("the second save's prune was a whole one: the test shows nothing")
	}
	if s.Has("s1", "c1") || !s.Has("s2", "c2") {
		t.Fatalf("kept: c1 %v c2 %v; want the oldest dropped for the budget", s.Has("s1", "c1"), s.Has("s2", "c2"))
	}
}
