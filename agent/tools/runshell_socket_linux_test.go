package tools

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/proctest"
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
	sock := proctest.NewVanishingSocket(t)
	job := shellJob{
		command: "echo ran", dir: ws, env: os.Environ(), timeout: time.Minute, maxOut: 1 << 16,
		policy: sandbox.Policy{Mode: sandbox.ModeAuto, Writable: []string{ws}},
		beforeStart: func() error { // after the sockets were listed, right before the start
			sock.Vanish()
			return nil
		},
	}
	res, err := runShell(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if !sock.Gone() {
		t.Fatal("the socket was not removed between preparing and starting: nothing proven")
	}
	if res.exitCode != 0 || res.output != "ran\n" {
		t.Errorf("exit %d, output %q; want 0 and the command's own %q", res.exitCode, res.output, "ran\n")
	}
}
