package checkpoint

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestKnowScan: recording a scan is LoadKnown, KnownOf and UpdateKnown in
// one: the scan's digests become known, a file the scan no longer has
// becomes known as absent, an unchanged scan writes nothing, a damaged
// known.json is rebuilt from the scan, and a Known another store (another
// agentls process) rewrote is read again first.
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
		before func(t *testing.T, s *Store, path string) // nil: no known.json yet
		scan   Manifest
		want   Known
		write  bool // known.json is (re)written
	}{
		{"first scan", nil, man("a.txt", "1", "b.txt", "2"), Known{"a.txt": "1", "b.txt": "2"}, true},
		{"a file gone", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1", "b.txt": "2"}))
		}, man("a.txt", "1"), Known{"a.txt": "1", "b.txt": ""}, true},
		{"a file changed", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1"}))
		}, man("a.txt", "9"), Known{"a.txt": "9"}, true},
		{"unchanged", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1", "gone.txt": ""}))
		}, man("a.txt", "1"), Known{"a.txt": "1", "gone.txt": ""}, false},
		{"damaged", func(t *testing.T, s *Store, path string) {
			must(t, os.MkdirAll(filepath.Dir(path), 0o755))
			must(t, os.WriteFile(path, []byte("{not json"), 0o644))
		}, man("a.txt", "1"), Known{"a.txt": "1"}, true},
		{"rewritten by another store", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": "1"}))
			if _, err := s.LoadKnown("s1"); err != nil { // cached here
				t.Fatal(err)
			}
			must(t, Open(s.ws, s.retention).UpdateKnown("s1", Known{"a.txt": "1", "other.txt": "3"}))
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
