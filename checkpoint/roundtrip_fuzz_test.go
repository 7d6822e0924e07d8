package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// FuzzCheckpointReadsBackWhatItSaved saves a checkpoint of a workspace
// holding a file of an arbitrary name and content, and holds that the
// store gives it back as it saw it: the manifest read from the disk is the
// one Save returned; the file is listed under its own key (its name, not
// another), and its object has its content. And a rewind journal naming
// the file reads back the same.
func FuzzCheckpointReadsBackWhatItSaved(f *testing.F) {
	f.Add("a.txt", []byte("alpha\n"))
	f.Add("dir/b.go", []byte("package dir\n"))
	f.Add("caf\xe9.txt", []byte("Latin-1 name\n"))
	f.Add("sp ace/ü.md", []byte("\x00binary"))
	f.Fuzz(func(t *testing.T, name string, content []byte) {
		if name == "" || strings.ContainsRune(name, 0) || strings.HasPrefix(name, "/") || len(name) > 200 {
			return
		}
		for _, part := range strings.Split(name, "/") {
			if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") || len(part) > 100 {
				return // hidden and ignored folders are left out by design
			}
		}
		s, root := newStore(t, nil, DefaultRetention)
		p := filepath.Join(root, filepath.FromSlash(name))
		if os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, content, 0o644) != nil {
			return
		}
		saved, err := s.Save(context.Background(), "s1", "c1")
		if err != nil {
			t.Fatalf("Save: %v", err)
		}
		e, listed := saved[name]
		if !listed {
			t.Fatalf("the file %q is not listed under its name: %q", name, saved.Keys())
		}
		if s.Abs(name) != p {
			t.Fatalf("key %q maps to %s, not the file %s", name, s.Abs(name), p)
		}
		loaded, err := s.Load("s1", "c1")
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		if !reflect.DeepEqual(saved, loaded) {
			t.Fatalf("saved manifest %q, read back %q", saved.Keys(), loaded.Keys())
		}
		if Restorable(content) {
			data, err := s.Object(e.SHA256)
			if err != nil || string(data) != string(content) {
				t.Fatalf("object of %q: %v (%d bytes, want %d)", name, err, len(data), len(content))
			}
		}
		j := Journal{ID: "r1", SessionID: "s1", To: "m1", Started: time.Unix(1, 0).UTC(), Paths: []string{name}, Digests: map[string]string{name: e.SHA256}}
		if err := s.BeginJournal(j); err != nil {
			t.Fatalf("BeginJournal: %v", err)
		}
		back, err := s.PendingJournal("s1")
		if err != nil || back == nil || !reflect.DeepEqual(*back, j) {
			t.Fatalf("journal naming %q read back as %+v (%v)", name, back, err)
		}
	})
}

// FuzzTamperedStoreFiles writes arbitrary bytes as a checkpoint manifest
// and as a rewind journal (a hand edit, a disk error) and holds: neither
// read panics; each gives its value or an error, never both or neither;
// a manifest entry that reads back names an object only through Object,
// which refuses any name that is not a digest.
func FuzzTamperedStoreFiles(f *testing.F) {
	f.Add([]byte(`{"a.txt":{"sha256":"8ed3f6ad685b959ead7022518e1af76cd816f8e8ec7ccdda1ed4018e8f2223f8","size":6,"mode":420}}`),
		[]byte(`{"id":"r1","sessionId":"s1","toMessageId":"m1","started":"2026-11-20T09:00:00Z","paths":["a.txt"],"digests":{"a.txt":""}}`))
	f.Add([]byte(`{"../../etc/passwd":{"sha256":"../../../../etc/shadow","size":-1}}`), []byte(`{"paths":null,"started":"yesterday"}`))
	f.Add([]byte(`null`), []byte(`null`))
	f.Add([]byte(`[]`), []byte(``))
	f.Fuzz(func(t *testing.T, manifest, journal []byte) {
		s, _ := newStore(t, nil, DefaultRetention)
		dir := filepath.Join(s.Dir(), "s1")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "c1.json"), manifest, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, journalFile), journal, 0o644); err != nil {
			t.Fatal(err)
		}
		man, err := s.Load("s1", "c1")
		if err == nil {
			for _, k := range man.Keys() {
				sha := man[k].SHA256
				if _, err := s.Object(sha); err == nil {
					t.Fatalf("an object %q that was never stored was read", sha)
				} else if !validDigest(sha) && !strings.Contains(err.Error(), "invalid object name") {
					t.Fatalf("object %q: %v", sha, err)
				}
			}
		}
		j, err := s.PendingJournal("s1")
		if (j == nil) == (err == nil) {
			t.Fatalf("PendingJournal gave %v and %v", j, err)
		}
	})
}
