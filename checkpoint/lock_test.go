package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/flock"
)

// TestReusedObjectIsRefreshed: a save that reuses an object older than
// half its grace sets its modification time to now, so that a prune in
// another process that listed the manifests before this save's was written
// finds the object young and keeps it; a younger object is not touched.
func TestReusedObjectIsRefreshed(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		age     time.Duration
		touched bool
	}{
		{"two hours old", 2 * time.Hour, true},
		{"past half the grace", objectGrace/2 + time.Minute, true},
		{"younger than half the grace", objectGrace/2 - time.Minute, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
			man, err := s.Save(ctx, "s1", "c1")
			if err != nil {
				t.Fatal(err)
			}
			obj := s.objectPath(man["a.txt"].SHA256)
			then := time.Now().Add(-tc.age)
			if err := os.Chtimes(obj, then, then); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Save(ctx, "s1", "c2"); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(obj)
			if err != nil {
				t.Fatal(err)
			}
			if got := time.Since(fi.ModTime()) < time.Minute; got != tc.touched {
				t.Errorf("object modified %s ago after the save: refreshed = %v, want %v", time.Since(fi.ModTime()).Round(time.Second), got, tc.touched)
			}
		})
	}
}

// TestSaveWaitsForACollect: while another process collects (holding the
// store's lock exclusively), a save waits, and gives up when its turn is
// cancelled, with the context's error; once the collect ends it goes on.
// A collect while a save holds the lock collects nothing.
func TestSaveWaitsForACollect(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	s, _ := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	if _, err := s.Save(context.Background(), "s1", "c1"); err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(filepath.Join(s.Dir(), lockFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if ok, err := flock.Try(other, true); err != nil || !ok {
		t.Fatalf("the other process's collect: ok=%v err=%v", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := s.Save(ctx, "s1", "c2"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("save during another process's collect, turn cancelled: %v, want the context's error", err)
	}
	if s.Has("s1", "c2") {
		t.Error("the cancelled save wrote its manifest")
	}
	if err := flock.Unlock(other); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(context.Background(), "s1", "c3"); err != nil {
		t.Fatalf("save once the collect ended: %v", err)
	}

	// The other process saving: this store's collect waits for nothing and
	// removes nothing.
	if ok, err := flock.Try(other, false); err != nil || !ok {
		t.Fatalf("the other process's save: ok=%v err=%v", ok, err)
	}
	stray := filepath.Join(s.Dir(), "objects", Digest([]byte("no manifest uses this")))
	if err := os.WriteFile(stray, []byte("no manifest uses this"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * objectGrace)
	if err := os.Chtimes(stray, old, old); err != nil {
		t.Fatal(err)
	}
	collect := func() {
		t.Helper()
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.collect(map[string]int{}); err != nil {
			t.Fatal(err)
		}
	}
	collect()
	if _, err := os.Stat(stray); err != nil {
		t.Errorf("an unused object was collected while another process's save held the store: %v", err)
	}
	if err := flock.Unlock(other); err != nil {
		t.Fatal(err)
	}
	collect()
	if _, err := os.Stat(stray); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the unused object once no save holds the store: %v, want collected", err)
	}
}
