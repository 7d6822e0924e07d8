package checkpoint

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestKnowScan: recording a scan after a command records what changed
// since the session's view (the checkpoint's scan, Scanned, and agentls's
// own writes since): a changed or new file's digest becomes known, a file
// the scan no longer has becomes known as absent; a file the user changed
// before the checkpoint stays theirs; without a view nothing is recorded;
// an unchanged scan writes nothing, a damaged known.json is rebuilt, and a
// Known another store (another agentls process) rewrote is read again.
func TestKnowScan(t *testing.T) {
	man := func(kv ...string) Manifest {
		m := Manifest{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = Entry{SHA256: kv[i+1]}
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, s *Store, path string) // nil: no known.json yet, no view
		scan   Manifest
		want   Known
		write  bool // known.json is (re)written
	}{
		{"no view", nil, man("a.txt", "1", "b.txt", "2"), Known{}, false},
		{"a file new", func(t *testing.T, s *Store, _ string) {
			s.Scanned("s1", man("a.txt", "1", "b.txt", "2"))
		}, man("a.txt", "1", "b.txt", "2", "c.txt", "3"), Known{"c.txt": "3"}, true},
		{"a file gone", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1", "b.txt": "2"}))
			s.Scanned("s1", man("a.txt", "1", "b.txt", "2"))
		}, man("a.txt", "1"), Known{"a.txt": "1", "b.txt": ""}, true},
		{"a file changed after agentls wrote it", func(t *testing.T, s *Store, _ string) {
			s.Scanned("s1", man("a.txt", "0"))
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1"}))
		}, man("a.txt", "9"), Known{"a.txt": "9"}, true},
		{"agentls's write unchanged", func(t *testing.T, s *Store, _ string) {
			s.Scanned("s1", man("a.txt", "0"))
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1", "gone.txt": ""}))
		}, man("a.txt", "1"), Known{"a.txt": "1", "gone.txt": ""}, false},
		{"the user's change before the checkpoint", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1"}))
			s.Scanned("s1", man("a.txt", "5", "mine.txt", "6"))
		}, man("a.txt", "5", "mine.txt", "6"), Known{"a.txt": "1"}, false},
		{"damaged", func(t *testing.T, s *Store, path string) {
			must(t, os.MkdirAll(filepath.Dir(path), 0o755))
			must(t, os.WriteFile(path, []byte("{not json"), 0o644))
			s.Scanned("s1", man("a.txt", "0"))
		}, man("a.txt", "1"), Known{"a.txt": "1"}, true},
		{"rewritten by another store", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1"}))
			if _, err := s.LoadKnown("s1"); err != nil { // cached here
				t.Fatal(err)
			}
			must(t, Open(s.ws, s.retention).UpdateKnown("s1", Known{"a.txt": "1", "other.txt": "3"}))
			s.Scanned("s1", man("a.txt", "1", "other.txt", "3"))
		}, man("a.txt", "1"), Known{"a.txt": "1", "other.txt": ""}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, DefaultRetention)
			path := filepath.Join(s.Dir(), "s1", knownFile)
			if tc.before != nil {
				tc.before(t, s, path)
			}
			old := time.Unix(1000, 0)
			if _, err := os.Stat(path); err == nil {
				must(t, os.Chtimes(path, old, old))
			}
			must(t, s.KnowScan("s1", tc.scan))
			got, err := s.LoadKnown("s1")
			if err != nil || !maps.Equal(got, tc.want) {
				t.Fatalf("known after the scan: %v, %v; want %v", got, err, tc.want)
			}
			fi, err := os.Stat(path)
			if errors.Is(err, fs.ErrNotExist) && !tc.write && len(tc.want) == 0 {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if written := !fi.ModTime().Equal(old); written != tc.write {
				t.Fatalf("known.json written: %v, want %v", written, tc.write)
			}
			var disk Known
			must(t, readJSON(path, &disk))
			if !maps.Equal(disk, tc.want) {
				t.Fatalf("known.json holds %v, want %v", disk, tc.want)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestViewsAreBounded: a long-lived server sees many sessions; the views
// their checkpoints leave (Scanned, each up to MaxFiles entries) stay at
// most maxViews, and the session scanned last keeps its view.
func TestViewsAreBounded(t *testing.T) {
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, DefaultRetention)
	for i := range 3 * maxViews {
		s.Scanned("s"+strconv.Itoa(i), Manifest{"a.txt": Entry{SHA256: "1"}})
	}
	s.mu.Lock()
	n := len(s.seen)
	_, last := s.seen["s"+strconv.Itoa(3*maxViews-1)]
	s.mu.Unlock()
	if n > maxViews || !last {
		t.Fatalf("%d views kept (at most %d), the last session's kept: %v", n, maxViews, last)
	}
}
