//go:build unix

package host

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestShippedConfigLinkToASpecialFileDoesNotBlock: a cloned repository can
// ship .agentls.yaml as a symbolic link to anything (git stores links):
// `/dev/stdin` (the LSP face's JSON-RPC pipe from the editor), `/dev/zero`
// or a FIFO. Every other workspace state file is opened only as a regular
// file (internal/statefile); the configuration load must not block on the
// link's target either: the host starts, the file is reported (as
// unreadable or untrusted), nothing is read from the pipe. Here the target
// is a FIFO outside the workspace, standing for the editor's pipe.
func TestShippedConfigLinkToASpecialFileDoesNotBlock(t *testing.T) {
	e := newEnv(t)
	fifo := filepath.Join(t.TempDir(), "editor-pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if err := os.Symlink(fifo, filepath.Join(e.workspace, ".agentls.yaml")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		h, err := New(e.options(&models{}))
		if err == nil {
			h.Close()
		}
		done <- err
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		// Unblock the reader so the test binary can end.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("host.New blocked reading the workspace's .agentls.yaml, a link to a FIFO (a shipped `.agentls.yaml -> /dev/stdin` would read the editor's JSON-RPC stream)")
	}
}
