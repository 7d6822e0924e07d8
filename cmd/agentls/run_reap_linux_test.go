//go:build linux && (amd64 || arm64)

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/sandbox"
)

// TestServerKillReapsSetsidChild: kill -9 of the real agentls process while
// run runs a command whose child left the command's session and process
// group (setsid: the watchdog's group kill and the shell's parent-death
// signal miss it): the child dies all the same, under Landlock alone and
// with the sandbox off (the command's reaper sees agentls gone). Fails on
// 5a68df6, where it slept on.
func TestServerKillReapsSetsidChild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	for _, mode := range []string{"landlock", "off"} {
		t.Run(mode, func(t *testing.T) {
			if mode != "off" && sandbox.Detect().Status(sandbox.Mode(mode)).Mode != mode {
				t.Skipf("no %s here", mode)
			}
			dir := t.TempDir()
			// In a folder of its own: under Landlock alone the workspace's
			// top, which holds .agentls/, gives no write right on a fifo.
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			fifo := filepath.Join(dir, "sub", "pid")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			command := fmt.Sprintf(`setsid sh -c 'echo $$ > %s; exec sleep 1000' & wait`, fifo)
			r := startRunSession(t, dir, []string{command}, map[string]any{"sandbox": map[string]any{"mode": mode}}, nil)
			done := r.prompt()
			type read struct {
				pid int
				err error
			}
			pids := make(chan read, 1)
			go func() { // ends when the command opens the fifo, or the test's cleanup opens it
				pid, err := proctest.ReadPid(fifo)
				pids <- read{pid, err}
			}()
			var pid int
			select {
			case got := <-pids:
				if got.err != nil {
					t.Fatal(got.err)
				}
				pid = got.pid
			case err := <-done:
				unblock(fifo)
				t.Fatalf("the turn ended before the command wrote its pid: %v; run: %s", err, runOutput(r))
			case <-time.After(time.Minute):
				unblock(fifo)
				t.Fatalf("the command did not write its pid within a minute")
			}
			child, err := proctest.Watch(pid)
			if err != nil {
				t.Fatalf("the setsid child %d is not running: %v", pid, err)
			}
			defer child.Close()
			if gone, err := child.Exited(0); gone || err != nil {
				t.Fatalf("the setsid child %d exited before agentls (%v)", pid, err)
			}
			if err := r.proc.Kill(); err != nil {
				t.Fatal(err)
			}
			<-done
			if gone, err := child.Exited(10 * time.Second); !gone || err != nil {
				t.Errorf("the setsid child %d still runs 10 s after agentls was killed (%v)", pid, err)
			}
		})
	}
}

// unblock opens fifo for writing, so that a reader waiting on it returns.
func unblock(fifo string) {
	if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		_ = f.Close()
	}
}

// runOutput is what the editor heard of run call r0 (raw, for a failure).
func runOutput(r *runSession) string {
	var b strings.Builder
	for _, m := range r.ed.Messages() {
		if m.Method == "agent/update" && strings.Contains(string(m.Params), `"r0"`) {
			b.Write(m.Params)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
