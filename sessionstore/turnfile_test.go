package sessionstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/proctest"
)

// openChats counts this process's descriptors open on path (Linux's
// /proc/self/fd; the test is skipped elsewhere).
func openChats(t *testing.T, path string) int {
	t.Helper()
	n, err := proctest.OpenFiles(func(p string) bool { return strings.HasPrefix(p, path) })
	if err != nil {
		t.Skip(err)
	}
	return n
}

func heldStore(t *testing.T) (*Store, string, string) {
	t.Helper()
	s := NewStore(filepath.Join(t.TempDir(), "chats"))
	id := "0192f0e2-7c1a-7b3e-8f00-0000000000h1"
	if err := s.Create(chatMeta(id, time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))); err != nil {
		t.Fatal(err)
	}
	return s, id, s.path(id)
}

// TestHoldOneDescriptorPerTurn: within a held turn the appends share one
// descriptor, opened at the first append; Sync closes it, and so does the
// release of a turn that never synced. Nothing stays open after the turn.
func TestHoldOneDescriptorPerTurn(t *testing.T) {
	s, id, path := heldStore(t)
	release := s.Hold(id)
	if n := openChats(t, path); n != 0 {
		t.Fatalf("Hold opened the file: %d descriptors", n)
	}
	for i := range 3 {
		if err := s.Append(id, msg(`{"role":"user","content":"m"}`)); err != nil {
			t.Fatal(err)
		}
		if n := openChats(t, path); n != 1 {
			t.Fatalf("after append %d: %d descriptors open on the session file, want 1 (held for the turn)", i, n)
		}
	}
	if err := s.Sync(id); err != nil {
		t.Fatal(err)
	}
	if n := openChats(t, path); n != 0 {
		t.Fatalf("after Sync: %d descriptors open", n)
	}
	release()
	// Not held any more: an append opens and closes the file itself.
	if err := s.Append(id, msg(`{"role":"user","content":"after"}`)); err != nil {
		t.Fatal(err)
	}
	if n := openChats(t, path); n != 0 {
		t.Fatalf("append after the turn left %d descriptors open", n)
	}
	// A turn that ends without Sync (a panic) closes the file at release.
	release = s.Hold(id)
	if err := s.Append(id, msg(`{"role":"user","content":"x"}`)); err != nil {
		t.Fatal(err)
	}
	release()
	if n := openChats(t, path); n != 0 {
		t.Fatalf("release without Sync left %d descriptors open", n)
	}
	_, msgs, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 5 {
		t.Fatalf("loaded %d messages, want 5", len(msgs))
	}
}

// TestHoldKeepsAppendSemantics: what happens to the session file between
// two appends of one held turn is judged as if each append opened it anew.
func TestHoldKeepsAppendSemantics(t *testing.T) {
	tests := []struct {
		name string
		// between runs after the turn's first append.
		between func(t *testing.T, s *Store, id, path string)
		// wantErr: the second append fails (the turn ends with an error)
		// with this in its message.
		wantErr string
		want    int // messages loaded at the end, when the second append succeeds
	}{
		{
			name:    "nothing happens",
			between: func(*testing.T, *Store, string, string) {},
			want:    2,
		},
		{
			// A torn line (a crash's, or a hand edit) is not glued to the next.
			name: "a torn line is appended",
			between: func(t *testing.T, _ *Store, _, path string) {
				f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if _, err := f.WriteString(`{"role":"user","con`); err != nil {
					t.Fatal(err)
				}
			},
			want: 2,
		},
		{
			// Another file renamed over the session file: the append goes to
			// the file the name leads to, as an append opening it would.
			name: "the file is replaced",
			between: func(t *testing.T, _ *Store, _, path string) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				tmp := path + ".new"
				if err := os.WriteFile(tmp, data, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, path); err != nil {
					t.Fatal(err)
				}
			},
			want: 2,
		},
		{
			// A symlink renamed over the session file: refused, as a fresh
			// open refuses it, not written to the unlinked file.
			name: "a symlink replaces the file",
			between: func(t *testing.T, _ *Store, _, path string) {
				other := filepath.Join(filepath.Dir(path), "elsewhere.chat")
				if err := os.WriteFile(other, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				link := path + ".link"
				if err := os.Symlink(other, link); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(link, path); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "not a regular file",
		},
		{
			// The session deleted during the turn: the append must fail, not
			// write to the unlinked file.
			name: "the session is deleted",
			between: func(t *testing.T, s *Store, id, _ string) {
				if err := s.Delete(id); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "no such file",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, id, path := heldStore(t)
			defer s.Hold(id)()
			if err := s.Append(id, msg(`{"role":"user","content":"one"}`)); err != nil {
				t.Fatal(err)
			}
			tt.between(t, s, id, path)
			err := s.Append(id, msg(`{"role":"user","content":"two"}`))
			if tt.wantErr != "" {
				if err == nil {
					t.Fatal("second append succeeded, want an error")
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Sync(id); err != nil {
				t.Fatal(err)
			}
			_, msgs, err := s.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) != tt.want {
				t.Fatalf("loaded %d messages %q, want %d", len(msgs), msgs, tt.want)
			}
			if got := string(msgs[len(msgs)-1]); !strings.Contains(got, `"two"`) {
				t.Errorf("last message = %s", got)
			}
		})
	}
}

// BenchmarkAppendTurn is one turn's appends (8 messages), held and not;
// the turn's Sync (an fsync, which dwarfs and blurs the rest) is not timed.
func BenchmarkAppendTurn(b *testing.B) {
	for _, held := range []bool{false, true} {
		name := "open-each"
		if held {
			name = "held"
		}
		b.Run(name, func(b *testing.B) {
			s := NewStore(filepath.Join(b.TempDir(), "chats"))
			id := "0192f0e2-7c1a-7b3e-8f00-0000000000b1"
			if err := s.Create(chatMeta(id, time.Now())); err != nil {
				b.Fatal(err)
			}
			m := msg(`{"role":"tool","content":"package main\n\nfunc main() {}\n","tool_call_id":"call_1"}`)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				release := func() {}
				if held {
					release = s.Hold(id)
				}
				b.StartTimer()
				for range 8 {
					if err := s.Append(id, m); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				if err := s.Sync(id); err != nil {
					b.Fatal(err)
				}
				release()
				b.StartTimer()
			}
		})
	}
}
