package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// listed is the manifests a prune would see, as session/id, sorted.
func listed(t *testing.T, s *Store) string {
	t.Helper()
	s.mu.Lock()
	all, err := s.manifests()
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range all {
		out = append(out, m.session+"/"+strings.TrimSuffix(filepath.Base(m.path), ".json"))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// age makes a session folder look an hour old (past racyWindow), so that
// its listing is kept.
func age(t *testing.T, s *Store, session string) time.Time {
	t.Helper()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(filepath.Join(s.Dir(), session), old, old); err != nil {
		t.Fatal(err)
	}
	return old
}

// TestListingFollowsOtherProcesses: a prune's listing of a session folder
// is reused while the folder is unchanged, and a manifest another process
// adds or removes there, or the folder's removal, is seen at the next
// listing.
func TestListingFollowsOtherProcesses(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, DefaultRetention)
	other := Open(s.ws, DefaultRetention) // another agentls process on the workspace
	for _, id := range []string{"c1", "c2"} {
		if _, err := other.Save(ctx, "s2", id); err != nil {
			t.Fatal(err)
		}
	}
	old := age(t, s, "s2")
	if got := listed(t, s); got != "s2/c1 s2/c2" {
		t.Fatalf("first listing: %s", got)
	}

	// Unchanged folder: the listing is reused (a file slipped in with the
	// folder's time put back is not seen, which shows the reuse).
	sneaked := filepath.Join(s.Dir(), "s2", "c9.json")
	if err := os.WriteFile(sneaked, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(s.Dir(), "s2"), old, old); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, s); got != "s2/c1 s2/c2" {
		t.Fatalf("the unchanged folder was listed again: %s", got)
	}
	if err := os.Remove(sneaked); err != nil {
		t.Fatal(err)
	}

	// Another process adds a manifest: seen.
	if _, err := other.Save(ctx, "s2", "c3"); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, s); got != "s2/c1 s2/c2 s2/c3" {
		t.Fatalf("after another process's save: %s", got)
	}
	// ... and removes one: gone.
	age(t, s, "s2")
	listed(t, s) // cached again
	if err := os.Remove(filepath.Join(s.Dir(), "s2", "c1.json")); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, s); got != "s2/c2 s2/c3" {
		t.Fatalf("after another process's removal: %s", got)
	}
	// ... and deletes the session: gone, and its listing forgotten.
	age(t, s, "s2")
	listed(t, s)
	if err := os.RemoveAll(filepath.Join(s.Dir(), "s2")); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, s); got != "" {
		t.Fatalf("after the session's deletion: %s", got)
	}
	if len(s.listings) != 0 {
		t.Fatalf("listings of deleted sessions kept: %v", s.listings)
	}
}

// TestListingRacyFolderListedAgain: a folder changed within racyWindow of
// its listing is listed again next time, even with the same modification
// time (a change in the same clock tick keeps it).
func TestListingRacyFolderListedAgain(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, DefaultRetention)
	if _, err := s.Save(ctx, "s1", "c1"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(s.Dir(), "s1")
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := listed(t, s); got != "s1/c1" {
		t.Fatalf("first listing: %s", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "c2.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(dir, fi.ModTime(), fi.ModTime()); err != nil { // the same tick
		t.Fatal(err)
	}
	if got := listed(t, s); got != "s1/c1 s1/c2" {
		t.Fatalf("a racily clean folder's listing was reused: %s", got)
	}
}

// FuzzValidID: ValidID accepts exactly what the pattern it replaced did.
func FuzzValidID(f *testing.F) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)
	for _, seed := range []string{"", "m1", "../x", "a/b", "01a216a5-6a29-7f0a-99e8-950774950c56", "x.json", "é", strings.Repeat("a", 100), strings.Repeat("a", 101), "a\nb"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := ValidID(id), pattern.MatchString(id); got != want {
			t.Fatalf("ValidID(%q) = %v, want %v", id, got, want)
		}
	})
}
