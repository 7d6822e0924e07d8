package checkpoint

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestUnchangedManifestIsLinked: the checkpoint of a workspace unchanged
// since the session's last one is a hard link to it, dated now; anything
// else — a changed file, another session, the last manifest removed,
// replaced or rewritten in place since — is written as a file of its own
// with the scan's content.
func TestUnchangedManifestIsLinked(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		// between runs after the first save (of s1/c1), before s1/c2's.
		between func(t *testing.T, s *Store, root string)
		session string
		linked  bool
	}{
		{"unchanged", func(*testing.T, *Store, string) {}, "s1", true},
		{"a file changed", func(t *testing.T, _ *Store, root string) {
			write(t, filepath.Join(root, "a.txt"), "changed\n")
		}, "s1", false},
		{"another session", func(*testing.T, *Store, string) {}, "s2", false},
		{"the last manifest removed", func(t *testing.T, s *Store, _ string) {
			if err := os.Remove(manifestFile(s, "s1", "c1")); err != nil {
				t.Fatal(err)
			}
		}, "s1", false},
		{"the last manifest replaced", func(t *testing.T, s *Store, _ string) {
			p := manifestFile(s, "s1", "c1")
			write(t, p+".new", `{"x.txt":{"sha256":"`+Digest([]byte("x"))+`","size":1,"mode":420}}`)
			if err := os.Rename(p+".new", p); err != nil {
				t.Fatal(err)
			}
		}, "s1", false},
		{"the last manifest rewritten in place", func(t *testing.T, s *Store, _ string) {
			f, err := os.OpenFile(manifestFile(s, "s1", "c1"), os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(`{}`); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}, "s1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, root := newStore(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"}, DefaultRetention)
			if _, err := s.Save(ctx, "s1", "c1"); err != nil {
				t.Fatal(err)
			}
			tc.between(t, s, root)
			before := time.Now().Add(-time.Second) // the file system's clock may lag by a tick
			man, err := s.Save(ctx, tc.session, "c2")
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Load(tc.session, "c2")
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, man) {
				t.Fatalf("the stored manifest %v is not the scan %v", got, man)
			}
			c2, err := os.Lstat(manifestFile(s, tc.session, "c2"))
			if err != nil {
				t.Fatal(err)
			}
			c1, err := os.Lstat(manifestFile(s, "s1", "c1"))
			linked := err == nil && os.SameFile(c1, c2)
			if linked != tc.linked {
				t.Fatalf("linked = %v, want %v", linked, tc.linked)
			}
			if c2.ModTime().Before(before) {
				t.Errorf("the new checkpoint is dated %v, before the save (%v)", c2.ModTime(), before)
			}
		})
	}
}

// TestLinkedManifestsChain: a run of unchanged checkpoints shares one
// file; the first change ends the run, and an unchanged one after it links
// to the changed one.
func TestLinkedManifestsChain(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	for _, id := range []string{"c1", "c2", "c3"} {
		if _, err := s.Save(ctx, "s1", id); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, "a.txt"), "changed\n")
	for _, id := range []string{"c4", "c5"} {
		if _, err := s.Save(ctx, "s1", id); err != nil {
			t.Fatal(err)
		}
	}
	fi := map[string]os.FileInfo{}
	for _, id := range []string{"c1", "c2", "c3", "c4", "c5"} {
		var err error
		if fi[id], err = os.Lstat(manifestFile(s, "s1", id)); err != nil {
			t.Fatal(err)
		}
	}
	for _, pair := range [][2]string{{"c1", "c2"}, {"c1", "c3"}, {"c4", "c5"}} {
		if !os.SameFile(fi[pair[0]], fi[pair[1]]) {
			t.Errorf("%s and %s are not one file", pair[0], pair[1])
		}
	}
	if os.SameFile(fi["c3"], fi["c4"]) {
		t.Error("c4 (after a change) is a link to c3")
	}
	m3, err := s.Load("s1", "c3")
	if err != nil {
		t.Fatal(err)
	}
	m4, err := s.Load("s1", "c4")
	if err != nil {
		t.Fatal(err)
	}
	if m3["a.txt"].SHA256 != Digest([]byte("alpha\n")) || m4["a.txt"].SHA256 != Digest([]byte("changed\n")) {
		t.Errorf("c3 = %v, c4 = %v", m3, m4)
	}
}

func manifestFile(s *Store, session, id string) string {
	return filepath.Join(s.Dir(), session, id+".json")
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
