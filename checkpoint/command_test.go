package checkpoint

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestKnowCommand: what a command changed is what changed between the scan
// before it (BeforeCommand) and the one after it: a changed or new file's
// digest becomes known, a file gone becomes known as absent. What changed
// before the command stays the user's (their save while the model
// thought); so does a file the editor reported saved while the command ran
// (EditorSaved, also under another name of the file), and a file another
// session recorded as its own write meanwhile (another chat or another
// agentls process), but not one it recorded long before. An unchanged
// workspace writes nothing, a damaged known.json is rebuilt, and a Known
// another store rewrote is read again.
func TestKnowCommand(t *testing.T) {
	write := func(t *testing.T, root, name, text string) {
		t.Helper()
		must(t, os.WriteFile(filepath.Join(root, name), []byte(text), 0o644))
	}
	d := func(text string) string { return Digest([]byte(text)) }
	old := time.Unix(1000, 0)
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, s *Store, root string) // before the scan before the command
		during func(t *testing.T, s *Store, root string) // the command, and what happens meanwhile
		want   Known
		write  bool // known.json is (re)written
	}{
		{"nothing changed", nil, nil, Known{}, false},
		{"a file new", nil, func(t *testing.T, _ *Store, root string) {
			write(t, root, "c.txt", "c\n")
		}, Known{"c.txt": d("c\n")}, true},
		{"a file gone", nil, func(t *testing.T, _ *Store, root string) {
			must(t, os.Remove(filepath.Join(root, "b.txt")))
		}, Known{"b.txt": ""}, true},
		{"a file changed after agentls wrote it", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": d("a\n")}))
		}, func(t *testing.T, _ *Store, root string) {
			write(t, root, "a.txt", "by the command\n")
		}, Known{"a.txt": d("by the command\n")}, true},
		{"the user's change before the command", func(t *testing.T, _ *Store, root string) {
			write(t, root, "u.txt", "the user's save\n")
			write(t, root, "mine.txt", "the user's file\n")
		}, nil, Known{}, false},
		{"saved in the editor while the command ran", nil, func(t *testing.T, s *Store, root string) {
			write(t, root, "u.txt", "the user's save\n")
			s.EditorSaved(filepath.Join(root, "u.txt"))
			write(t, root, "c.txt", "c\n")
		}, Known{"c.txt": d("c\n")}, true},
		{"saved in the editor through a link", nil, func(t *testing.T, s *Store, root string) {
			write(t, root, "u.txt", "the user's save\n")
			link := filepath.Join(filepath.Dir(root), filepath.Base(root)+"-link")
			must(t, os.Symlink(root, link))
			s.EditorSaved(filepath.Join(link, "u.txt"))
		}, Known{}, false},
		{"saved in the editor before the command", func(t *testing.T, s *Store, root string) {
			write(t, root, "u.txt", "the user's save\n")
			s.EditorSaved(filepath.Join(root, "u.txt"))
		}, func(t *testing.T, _ *Store, root string) {
			write(t, root, "u.txt", "by the command\n")
		}, Known{"u.txt": d("by the command\n")}, true},
		{"another session wrote it meanwhile", nil, func(t *testing.T, s *Store, root string) {
			write(t, root, "y.txt", "session two's\n")
			must(t, Open(s.ws, s.retention).UpdateKnown("s2", Known{"y.txt": d("session two's\n")}))
			write(t, root, "c.txt", "c\n")
		}, Known{"c.txt": d("c\n")}, true},
		{"another session deleted it meanwhile", nil, func(t *testing.T, s *Store, root string) {
			must(t, os.Remove(filepath.Join(root, "b.txt")))
			must(t, s.UpdateKnown("s2", Known{"b.txt": ""}))
		}, Known{}, false},
		{"another session wrote the same long before", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s2", Known{"y.txt": d("y\n")}))
			must(t, os.Chtimes(filepath.Join(s.Dir(), "s2", knownFile), old, old))
		}, func(t *testing.T, _ *Store, root string) {
			write(t, root, "y.txt", "y\n")
		}, Known{"y.txt": d("y\n")}, true},
		{"another session wrote something else", nil, func(t *testing.T, s *Store, root string) {
			write(t, root, "y.txt", "the command's\n")
			must(t, s.UpdateKnown("s2", Known{"y.txt": d("session two's\n")}))
		}, Known{"y.txt": d("the command's\n")}, true},
		{"damaged", func(t *testing.T, s *Store, _ string) {
			path := filepath.Join(s.Dir(), "s1", knownFile)
			must(t, os.MkdirAll(filepath.Dir(path), 0o755))
			must(t, os.WriteFile(path, []byte("{not json"), 0o644))
		}, func(t *testing.T, _ *Store, root string) {
			write(t, root, "a.txt", "1\n")
		}, Known{"a.txt": d("1\n")}, true},
		{"rewritten by another store", func(t *testing.T, s *Store, _ string) {
			must(t, s.UpdateKnown("s1", Known{"a.txt": d("a\n")}))
			if _, err := s.LoadKnown("s1"); err != nil { // cached here
				t.Fatal(err)
			}
			must(t, Open(s.ws, s.retention).UpdateKnown("s1", Known{"a.txt": d("a\n"), "other.txt": "3"}))
		}, func(t *testing.T, _ *Store, root string) {
			write(t, root, "c.txt", "c\n")
		}, Known{"a.txt": d("a\n"), "other.txt": "3", "c.txt": d("c\n")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, root := newStore(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "u.txt": "u\n"}, DefaultRetention)
			ctx := context.Background()
			path := filepath.Join(s.Dir(), "s1", knownFile)
			if tc.before != nil {
				tc.before(t, s, root)
			}
			before, err := s.BeforeCommand(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); err == nil {
				must(t, os.Chtimes(path, old, old))
			}
			if tc.during != nil {
				tc.during(t, s, root)
			}
			if _, err := s.KnowCommand(ctx, "s1", before); err != nil {
				t.Fatal(err)
			}
			got, err := s.LoadKnown("s1")
			if err != nil || !maps.Equal(got, tc.want) {
				t.Fatalf("known after the command: %v, %v; want %v", got, err, tc.want)
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

// TestEditorSavesAreBounded: a long-lived server reports many saves; the
// log keeps at most maxEditorSaves of them, the newest.
func TestEditorSavesAreBounded(t *testing.T) {
	var e editorSaves
	for i := range 3 * maxEditorSaves {
		e.add(filepath.Join("/w", "f"+string(rune('a'+i%26)), time.Duration(i).String()))
	}
	mark := e.mark() - 1
	if n := len(e.at); n > maxEditorSaves {
		t.Fatalf("%d saves kept, at most %d", n, maxEditorSaves)
	}
	if got := e.since(mark); len(got) != 1 {
		t.Fatalf("the newest save since its mark: %v", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
