package tools

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentls/agentls/sandbox"
)

// TestRunWhenACoveredSocketGoesAway: a listening socket outside the
// workspace that goes away with its folder while the command starts (a
// test's temporary folder, an editor's IPC socket) made bubblewrap fail
// before the command ran ("bwrap: Can't mkdir parents for …", exit 1, the
// message as the command's output); the command runs, and its output is
// its own.
func TestRunWhenACoveredSocketGoesAway(t *testing.T) {
	requireMode(t, "auto")
	ws := t.TempDir()
	dir := filepath.Join(t.TempDir(), "ipc")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "daemon.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	job := shellJob{
		command: "echo ran", dir: ws, env: os.Environ(), timeout: time.Minute, maxOut: 1 << 16,
		policy: sandbox.Policy{Mode: sandbox.ModeAuto, Writable: []string{ws}},
		beforeStart: func() error { // after the sockets were listed, right before the start
			l.Close()
			return os.RemoveAll(dir)
		},
	}
	res, err := runShell(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if res.exitCode != 0 || res.output != "ran\n" {
		t.Errorf("exit %d, output %q; want 0 and the command's own %q", res.exitCode, res.output, "ran\n")
	}
}
