package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentls/agentls/internal/proctest"
)

// TestWatchedCommandKeepsExtraFiles: a watched command gets the caller's
// extra files at their own numbers (3 on) and nothing else from 3 to 9
// (the watchdog's pipe goes after them and is closed before the command
// runs), in every mode; more than 6 extra files leave no descriptor for
// the watchdog, and Start says so.
func TestWatchedCommandKeepsExtraFiles(t *testing.T) {
	const list = `for fd in 3 4 5 6 7 8 9; do if (: <&$fd) 2>/dev/null; then printf '%s=%s\n' $fd "$(cat <&$fd)"; fi; done`
	for _, mode := range []Mode{ModeOff, ModeLandlock, ModeBwrap} {
		for _, n := range []int{0, 1, 6, 7} {
			t.Run(string(mode)+"/"+strconv.Itoa(n), func(t *testing.T) {
				if st := Detect().Status(mode); mode != ModeOff && !st.Confines() {
					t.Skipf("no %s here: %s", mode, st.Summary)
				}
				cmd, p, err := WatchedCommand(Policy{Mode: mode}, "", []string{"/bin/sh", "-c", list}, os.Environ())
				must(t, err)
				defer p.Cleanup()
				var want []string
				for i := range n {
					f, err := os.Open(extraFile(t, "extra"+strconv.Itoa(i)))
					must(t, err)
					defer f.Close()
					cmd.ExtraFiles = append(cmd.ExtraFiles, f)
					want = append(want, strconv.Itoa(3+i)+"=extra"+strconv.Itoa(i))
				}
				var out strings.Builder
				cmd.Stdout = &out
				err = p.Start(cmd)
				if n > maxWatchdogFD-3 {
					if err == nil {
						_ = cmd.Wait()
						t.Fatalf("%d extra files started: the watchdog's descriptor would be %d", n, 3+n)
					}
					return
				}
				must(t, err)
				must(t, cmd.Wait())
				if got := strings.Fields(out.String()); strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("descriptors 3 to 9 = %q, want %q", got, want)
				}
			})
		}
	}
}

// extraFile writes text to a new file and returns its path.
func extraFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	must(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

// TestWatchdogEndsTheGroupWithoutTheReaper: once a watched command's
// reaper is gone (killed, as a command can where nothing scopes its
// signals), the reaper's group kill no longer reaches the command's own
// group; Terminate and Cleanup still end what is left there (a grandchild
// that outlived the shell's parent-death signal): the watchdog fires.
func TestWatchdogEndsTheGroupWithoutTheReaper(t *testing.T) {
	for _, end := range []struct {
		name string
		end  func(p *Prepared, proc *os.Process, exited <-chan struct{})
	}{
		{"Terminate", func(p *Prepared, proc *os.Process, exited <-chan struct{}) { p.Terminate(proc, exited) }},
		{"Cleanup", func(p *Prepared, _ *os.Process, _ <-chan struct{}) { p.Cleanup() }},
	} {
		t.Run(end.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "pid")
			must(t, syscall.Mkfifo(fifo, 0o600))
			cmd, p, err := WatchedCommand(Policy{Mode: ModeOff}, "", []string{"/bin/sh", "-c", "sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > " + fifo + "; exec sleep 1000"}, os.Environ())
			must(t, err)
			defer p.Cleanup()
			if !p.Reaps {
				t.Skip("no reaper here")
			}
			must(t, p.Start(cmd))
			exited := make(chan struct{})
			go func() { defer close(exited); _ = cmd.Wait() }()
			pid, err := proctest.ReadPid(fifo)
			must(t, err)
			grandchild, err := proctest.Watch(pid)
			must(t, err)
			defer grandchild.Close()
			must(t, syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)) // the reaper
			<-exited
			if gone, _ := grandchild.Exited(0); gone {
				t.Fatal("the grandchild ended with the reaper: nothing left to prove")
			}
			end.end(p, cmd.Process, exited)
			if gone, err := grandchild.Exited(groupBound); !gone || err != nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the grandchild %d outlived %s (%v)", pid, end.name, err)
			}
		})
	}
}
