//go:build linux && (amd64 || arm64)

package langpool

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/sandbox"
)

// TestCloseEndsAStubbornServer: a language server that ignores `exit`,
// stdin EOF and SIGTERM (testdata/stubborn), and the grandchild it
// started in its process group, are gone promptly once the pool has
// closed: with the sandbox off and under Landlock alone (the server's
// reaper ends them), and after the server killed its reaper (the sandbox
// off: nothing scopes its signals), where the server's watchdog does. The
// last row fails on f75712e, where language servers had no watchdog and
// both lived on.
func TestCloseEndsAStubbornServer(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "stubborn")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/stubborn").CombinedOutput(); err != nil {
		t.Fatalf("build the stubborn server: %v\n%s", err, out)
	}
	// Close: the shutdown answered, exit awaited (stopTimeout), the reaper
	// ended (TerminateGrace at most); where the reaper is gone the
	// process's exit is seen only once its stderr is let go (WaitDelay,
	// stopTimeout).
	closeBound := 2*stopTimeout + sandbox.TerminateGrace
	for _, c := range []struct {
		name, mode string
		killReaper bool
	}{
		{"off", "off", false},
		{"landlock", "landlock", false},
		{"off, kills its reaper", "off", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.killReaper {
				t.Setenv("STUBBORN_KILL_REAPER", "1")
			}
			root := t.TempDir()
			p := fakePoolWith(t, root, map[string]string{"a.go": "package a\n"}, Options{}, func(cfg *config.Config) {
				cfg.Sandbox.Mode = c.mode
				cfg.LSP.Servers = map[string]config.LSPServer{"go": {Command: []string{bin}}}
			})
			pids := stubbornPids(t, p, filepath.Join(root, "a.go"))
			var procs []*proctest.Process
			for _, pid := range pids {
				w, err := proctest.Watch(pid)
				if err != nil {
					t.Fatalf("watch %d: %v", pid, err)
				}
				defer w.Close()
				procs = append(procs, w)
			}
			start := time.Now()
			p.Close()
			if took := time.Since(start); took > closeBound {
				t.Errorf("Close took %s, want at most %s", took, closeBound)
			}
			for i, w := range procs {
				if gone, err := w.Exited(5 * time.Second); !gone || err != nil {
					t.Errorf("the server's %s %d still runs 5 s after the pool closed (%v)", []string{"process", "grandchild"}[i], pids[i], err)
					_ = syscall.Kill(pids[i], syscall.SIGKILL) // still running: not another's pid
				}
			}
		})
	}
}

// stubbornPids are the stubborn server's pid and its grandchild's, read
// from the diagnostics of file a ("pids <server> <grandchild>").
func stubbornPids(t *testing.T, p *Pool, a string) []int {
	t.Helper()
	snap := diagnosticsOf(t, p, a)
	for _, d := range snap.Files[a] {
		var server, grandchild int
		if _, err := fmt.Sscanf(d.Message, "pids %d %d", &server, &grandchild); err == nil && server > 0 && grandchild > 0 {
			return []int{server, grandchild}
		}
	}
	t.Fatalf("the stubborn server named no pids: %+v", snap.Files)
	return nil
}
