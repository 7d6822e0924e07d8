package checkpoint

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
)

// TestPruneKnowsItsOwnLinks: in a long session of an unchanged workspace
// every checkpoint is a hard link of one manifest, dated anew at each link
// (relink.go), and each prune that drops one goes over the whole workspace.
// It takes the content of the links as this store left them from its own
// copy instead of reading each again (before, every such prune read every
// kept manifest); a link of that manifest changed in place since (by
// another program: same inode, new change time) is read again, and what it
// now uses counts.
func TestPruneKnowsItsOwnLinks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stamps have the change time and the inode on Linux only")
	}
	ctx := context.Background()
	const perSession = 3
	s, _ := newStore(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"}, Retention{PerSession: perSession, MaxBytes: 1 << 20})
	const saves = 20
	for i := range saves {
		if _, err := s.Save(ctx, "s1", fmt.Sprintf("c%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.manifests()
	if err != nil || len(all) != perSession {
		t.Fatalf("manifests: %d, %v; want the last %d", len(all), err, perSession)
	}
	first, _ := os.Lstat(all[0].path)
	for _, m := range all[1:] {
		if fi, _ := os.Lstat(m.path); !os.SameFile(first, fi) {
			t.Fatal("the checkpoints of an unchanged workspace are not links of one manifest: the test shows nothing")
		}
	}
	if s.manifestReads > 1 {
		t.Fatalf("%d prunes read %d manifests; want the store's own links known without reading them", saves, s.manifestReads)
	}

	// Another program rewrites the shared manifest in place, to use
	// another object: the next prune reads it and keeps that object.
	other := Manifest{"c.txt": {SHA256: Digest([]byte("gamma\n")), Size: 6, Mode: 0o644}}
	b := fmt.Appendf(nil, `{"c.txt":{"sha256":%q,"size":6,"mode":420}}`, other["c.txt"].SHA256)
	if err := os.WriteFile(all[0].path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := s.manifests()
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	before := s.manifestReads
	uses, err := s.usesOf(again[0])
	reads := s.manifestReads - before
	s.mu.Unlock()
	if err != nil || len(uses) != 1 || uses[0] != other["c.txt"].SHA256 || reads != 1 {
		t.Fatalf("uses of the manifest rewritten in place: %v, %v after %d reads; want [%s] read from the file", uses, err, reads, other["c.txt"].SHA256)
	}
}
