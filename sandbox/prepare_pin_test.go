package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPinnedAncestors: every folder between a writable root and a path
// mounted inside it is pinned, shallowest first, once; none above the
// root, none inside another mounted path, none for a path outside every
// writable root.
func TestPinnedAncestors(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for _, d := range []string{"vendor/dep/.git/hooks", "vendor/other/.git", "lib/pkg", ".git/hooks"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "lib/pkg/.envrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := func(rel string) string { return filepath.Join(ws, rel) }
	s := spec{
		Writable: []string{ws},
		ReadOnly: []string{p("vendor/dep/.git"), p("vendor/dep/.git/hooks"), p("vendor/other/.git"), p("lib/pkg/.envrc"), p(".git/hooks"), "/etc/passwd"},
		Fixed:    []string{p(".git")},
	}
	got := pinnedAncestors(s)
	want := []string{p("vendor"), p("lib"), p("vendor/dep"), p("vendor/other"), p("lib/pkg")}
	slices.Sort(got[:2])
	slices.Sort(want[:2])
	slices.Sort(got[2:])
	slices.Sort(want[2:])
	if !slices.Equal(got, want) {
		t.Fatalf("pinnedAncestors = %q\nwant %q", got, want)
	}
}
