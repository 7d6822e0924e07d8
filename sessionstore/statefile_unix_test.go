//go:build unix

package sessionstore

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestShippedSpecialFilesNeitherBlockNorLead: the store's folder is in the
// workspace, so a repository can ship its files. A .chat, .meta, .approved
// or .lock that is a FIFO, or a link (to a session elsewhere), is refused
// at once: a listing of the sessions skips it, reading or appending to it
// fails with the reason, and nothing is read or written through a link.
func TestShippedSpecialFilesNeitherBlockNorLead(t *testing.T) {
	elsewhere := NewStore(t.TempDir())
	if err := elsewhere.Create(chatMeta("outside", time.Now())); err != nil {
		t.Fatal(err)
	}
	outsideChat := elsewhere.path("outside")
	before, err := os.ReadFile(outsideChat)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := NewStore(dir)
	if err := s.Create(chatMeta("real", time.Now())); err != nil {
		t.Fatal(err)
	}
	fifo := func(name string) {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Skipf("no FIFO here: %v", err)
		}
	}
	fifo("piped.chat")
	if err := os.Symlink(outsideChat, filepath.Join(dir, "linked.chat")); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(chatMeta("metapiped", time.Now())); err != nil {
		t.Fatal(err)
	}
	fifo("metapiped.meta")
	fifo("lockpiped.lock")
	if err := s.Create(chatMeta("approvedpiped", time.Now())); err != nil {
		t.Fatal(err)
	}
	fifo("approvedpiped.approved")

	bounded := func(what string, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { defer close(done); f() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			// Unblock the reader before failing: a writer comes and goes on
			// every FIFO until the call returns (bounded too).
			stop := time.After(10 * time.Second)
			for {
				for _, n := range []string{"piped.chat", "metapiped.meta", "lockpiped.lock", "approvedpiped.approved"} {
					if w, err := os.OpenFile(filepath.Join(dir, n), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
						w.Close()
					}
				}
				select {
				case <-done:
					t.Fatalf("%s blocked", what)
				case <-stop:
					t.Fatalf("%s blocked, and stays blocked", what)
				case <-time.After(100 * time.Millisecond):
				}
			}
		}
	}
	bounded("List", func() {
		metas, err := s.List()
		if err != nil {
			t.Errorf("List: %v", err)
		}
		var ids []string
		for _, m := range metas {
			ids = append(ids, m.ID)
		}
		if strings.Contains(strings.Join(ids, ","), "outside") || strings.Contains(strings.Join(ids, ","), "piped.chat") {
			t.Errorf("List read through a link or a FIFO: %v", ids)
		}
	})
	bounded("Load of a FIFO", func() {
		if _, _, err := s.Load("piped"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Load of a FIFO: %v", err)
		}
	})
	bounded("Append through a link", func() {
		if err := s.Append("linked", msg(`{"role":"user","content":"secret"}`)); err == nil {
			t.Error("Append through a link: no error")
		}
	})
	bounded("Meta with a FIFO .meta", func() {
		if _, err := s.Meta("metapiped"); err == nil {
			t.Error("Meta with a FIFO .meta: no error")
		}
	})
	bounded("Own with a FIFO .lock", func() {
		if err := s.Own("lockpiped"); err == nil {
			t.Error("Own with a FIFO .lock: no error")
		}
	})
	bounded("Approved with a FIFO .approved", func() {
		if _, _, _, err := s.Approved("approvedpiped"); err == nil {
			t.Error("Approved with a FIFO: no error")
		}
	})
	if after, err := os.ReadFile(outsideChat); err != nil || string(after) != string(before) {
		t.Errorf("the session elsewhere changed through the link: %q (%v)", after, err)
	}
	if _, _, err := s.Load("real"); err != nil {
		t.Errorf("a real session no longer loads: %v", err)
	}
}
