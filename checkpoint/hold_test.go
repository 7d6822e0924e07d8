package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHoldKeepsObjectsFromEveryPrune: while a rewind holds the store
// (Hold), a prune — of a save in this process, or of another agentls
// process on the workspace — may drop the checkpoint being rewound to,
// but removes none of its objects: the rewind still reads them all. Once
// released, a collection removes them.
func TestHoldKeepsObjectsFromEveryPrune(t *testing.T) {
	ctx := context.Background()
	for _, who := range []string{"this process", "another process"} {
		t.Run(who, func(t *testing.T) {
			s, root := newStore(t, map[string]string{"a.txt": "a old\n"}, DefaultRetention)
			old, err := s.Save(ctx, "s1", "c1")
			if err != nil {
				t.Fatal(err)
			}
			sha := old["a.txt"].SHA256
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a new\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// c1 is past MaxAge, its object past the prune's grace.
			man, _ := s.manifestPath("s1", "c1")
			month := time.Now().Add(-30 * 24 * time.Hour)
			hours := time.Now().Add(-2 * time.Hour)
			if err := os.Chtimes(man, month, month); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(s.objectPath(sha), hours, hours); err != nil {
				t.Fatal(err)
			}
			pruner := s
			if who == "another process" {
				pruner = Open(s.ws, DefaultRetention)
			}

			release, err := s.Hold(ctx)
			if err != nil {
				t.Fatal(err)
			}
			pruner.mu.Lock()
			err = pruner.prune(map[string]bool{}, "s2", true)
			pruner.mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			if s.Has("s1", "c1") {
				t.Fatal("the prune did not drop c1: the test shows nothing")
			}
			if _, err := s.Object(sha); err != nil {
				t.Fatalf("a prune in %s removed the object of a checkpoint a rewind holds: %v", who, err)
			}
			release()

			if err := pruner.collect(map[string]int{}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Object(sha); err == nil {
				t.Error("the object of the dropped checkpoint stays after the hold was released")
			}
		})
	}
}
