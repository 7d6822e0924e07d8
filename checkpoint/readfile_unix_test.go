//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCheckpointReadsOnlyTheFileItListed: a checkpoint lists regular
// files (Lstat) and reads them after. A file swapped in between for a
// symbolic link (to a private key outside: its content would become an
// object a rewind restores into the workspace) or for a FIFO (whose
// opening would block the turn) is not read: readFile fails at once.
func TestCheckpointReadsOnlyTheFileItListed(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(secret, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	for _, p := range []string{link, fifo} {
		done := make(chan error, 1)
		go func() {
			_, _, err := readFile(p, 10)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s was read", filepath.Base(p))
			}
		case <-time.After(10 * time.Second):
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			<-done
			t.Fatalf("reading %s blocked", filepath.Base(p))
		}
	}
}
