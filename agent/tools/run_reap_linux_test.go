//go:build linux && (amd64 || arm64)

package tools

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/sandbox"
)

// reapBound bounds the waits below: a process that outlived its command
// sleeps far longer (or writes what the test looks for first).
const reapBound = 10 * time.Second

// reapRows are the ways a command leaves something running after it ends:
// each starts a process that touches out/S, then waits for out/E — which
// the test makes once run has returned — and touches out/X.
var reapRows = []struct {
	name, command string
	// confined: only where the sandbox confines the command (with it off,
	// a command can kill its reaper).
	confined bool
}{
	{name: "setsid", command: `setsid sh -c 'touch out/S; ` + awaitEnd + `' &`},
	{name: "double fork", command: `sh -c '(setsid sh -c "touch out/S; ` + awaitEnd + `" &) &'`},
	{name: "nohup", command: `nohup sh -c 'touch out/S; ` + awaitEnd + `' >/dev/null 2>&1 &`},
	{name: "ignores SIGTERM", command: `setsid sh -c 'trap "" TERM HUP INT; touch out/S; ` + awaitEnd + `' &`},
	{name: "kills its parent shell", command: `setsid sh -c 'touch out/S; kill -9 $PPID; ` + awaitEnd + `' &`},
	// The reaper is outside the command's Landlock domain (signals scoped
	// from ABI 6) or PID namespace: the command cannot kill it first.
	{name: "kills its reaper", command: `setsid sh -c 'touch out/S; ` + awaitEnd + `' & until [ -e out/S ]; do sleep 0.01; done; kill -9 $PPID`, confined: true},
}

// awaitEnd waits for out/E (made once run returned), then touches out/X.
const awaitEnd = `until [ -e out/E ]; do sleep 0.01; done; touch out/X`

// TestRunReapsWhatOutlivesTheCommand: through the real run tool, in each
// sandbox mode, whatever a command leaves running — in a session of its
// own, double-forked, nohup'd, deaf to SIGTERM, or after killing the
// command's shell — is dead when run returns, whether the command ended
// by itself, timed out or was cancelled, and never writes again. Fails for
// off and landlock on 5a68df6, where such a process lived on (and wrote
// out/X once the test made out/E); bwrap's PID namespace already held.
func TestRunReapsWhatOutlivesTheCommand(t *testing.T) {
	inEveryMode(t, func(t *testing.T, mode string) {
		for _, row := range reapRows {
			if row.confined && (mode == "off" || mode == "landlock" && sandbox.Detect().LandlockABI < 6) {
				continue
			}
			for _, end := range []string{"exit", "timeout", "cancel"} {
				t.Run(row.name+"/"+end, func(t *testing.T) {
					t.Parallel()
					env := reapWorkspace(t, mode)
					tok := reapToken(t)
					// The command ends once the leftover runs.
					command := "export REAPTOKEN=" + tok + "; " + row.command + "\nuntil [ -e out/S ]; do sleep 0.01; done"
					params := RunParams{Command: command}
					if end != "exit" {
						params.Command += "; sleep 30"
					}
					if end == "timeout" {
						params.TimeoutSecs = 3 // after the leftover started, even on a busy machine
					}
					args, err := json.Marshal(params)
					if err != nil {
						t.Fatal(err)
					}
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					done := make(chan Result, 1)
					go func() {
						r, err := runTool.Run(ctx, env, args)
						if err != nil {
							t.Errorf("Go error: %v", err)
						}
						done <- r
					}()
					var r Result
					if end == "cancel" {
						// Cancelled once the leftover runs (the command
						// may end first: the row that kills its shell).
						select {
						case r = <-done:
						case <-whenTrue(func() bool { return present(env.path("out/S")) }):
							cancel()
							r = <-done
						}
					} else {
						r = <-done
					}
					if end == "timeout" && r.Success && !strings.Contains(r.JSON(), `"timed_out":true`) && row.name != "kills its parent shell" {
						t.Errorf("not timed out: %s", r.JSON())
					}
					if !present(env.path("out/S")) {
						t.Fatalf("the leftover never ran: %s", r.JSON())
					}
					endAndCheck(t, env, tok, "out/E", "out/X")
				})
			}
		}
	})
}

// TestRunSentinelOutlivedWriteReaped: a process that leaves the command and
// writes lib/.envrc after the command ended — once the test makes lib/E,
// after run returned and so after the check that compares the auto-run
// files — is killed before it can: nothing is asked, and nothing appears
// later. Fails for off and landlock on 5a68df6, where .envrc appeared
// after the check and stayed.
func TestRunSentinelOutlivedWriteReaped(t *testing.T) {
	inEveryMode(t, func(t *testing.T, mode string) {
		env, _ := sentinelWorkspace(t, mode)
		tok := reapToken(t)
		command := "export REAPTOKEN=" + tok + `; setsid sh -c 'touch lib/S; until [ -e lib/E ]; do sleep 0.01; done; echo evil > lib/.envrc' >/dev/null 2>&1 & until [ -e lib/S ]; do sleep 0.01; done`
		got := runApproved(t, env, command)
		if got.AutoRun != "" {
			t.Errorf("asked about %s", got.AutoRun)
		}
		endAndCheck(t, env, tok, "lib/E", "lib/.envrc")
	})
}

// TestRunExitCodesUnchanged: the command's reaper reports the exit code a
// shell would, also when it killed leftovers: an exit status as it is, a
// death by signal n as 128+n, a timeout as a SIGKILL (137).
func TestRunExitCodesUnchanged(t *testing.T) {
	inEveryMode(t, func(t *testing.T, mode string) {
		for _, c := range []struct {
			command  string
			timeout  int
			want     int
			timedOut bool
		}{
			{command: "exit 3", want: 3},
			{command: "true", want: 0},
			{command: "setsid sleep 30 & exit 5", want: 5},
			{command: "kill -TERM $$", want: 143},
			{command: "kill -KILL $$", want: 137},
			{command: "setsid sleep 30 & kill -TERM $$", want: 143},
			{command: "sleep 30", timeout: 1, want: 137, timedOut: true},
			{command: "trap '' TERM; setsid sleep 30 & sleep 30", timeout: 1, want: 137, timedOut: true},
		} {
			t.Run(c.command, func(t *testing.T) {
				t.Parallel()
				env := reapWorkspace(t, mode)
				args, err := json.Marshal(RunParams{Command: c.command, TimeoutSecs: c.timeout})
				if err != nil {
					t.Fatal(err)
				}
				var got RunOutput
				value(t, call(t, runTool, env, string(args)), &got)
				if got.ExitCode != c.want || got.TimedOut != c.timedOut {
					t.Errorf("exit %d, timed out %v; want %d, %v (output %q)", got.ExitCode, got.TimedOut, c.want, c.timedOut, got.Output)
				}
			})
		}
	})
}

// endAndCheck makes end (a leftover of the command would now write
// written), waits until no process of the command (token tok) is left, and
// checks that written was not written.
func endAndCheck(t *testing.T, env *fakeEnv, tok, end, written string) {
	t.Helper()
	writeFile(t, env.path(end), "")
	if !within(reapBound, func() bool { return len(tokenProcs(tok)) == 0 }) {
		t.Fatalf("processes of the command still run after it ended: %v", tokenProcs(tok))
	}
	if present(env.path(written)) {
		t.Errorf("a process of the command wrote %s after the command ended", written)
	}
}

// reapWorkspace is a workspace whose out/ any command may write (under
// Landlock alone a new file right at a top holding read-only paths may not
// be made), in sandbox mode, its commands approved.
func reapWorkspace(t *testing.T, mode string) *fakeEnv {
	t.Helper()
	env := newFake(t, map[string]string{"out/.keep": ""})
	env.cfg.Sandbox.Mode = mode
	env.confirmRule = ""
	return env
}

// reapToken is a value no other process's environment holds.
func reapToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// tokenProcs lists the live processes whose environment holds
// REAPTOKEN=tok (a zombie's environment reads empty: it runs nothing).
func tokenProcs(tok string) []int {
	want := []byte("REAPTOKEN=" + tok + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(b, want) {
			out = append(out, pid)
		}
	}
	return out
}

// within reports whether cond holds within bound (checked every 10 ms).
func within(bound time.Duration, cond func() bool) bool {
	select {
	case <-whenTrue(cond):
		return true
	case <-time.After(bound):
		return false
	}
}

// whenTrue is closed once cond holds, checked every 10 ms for reapBound.
func whenTrue(cond func() bool) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		stop := time.After(reapBound)
		for !cond() {
			select {
			case <-tick.C:
			case <-stop:
				return
			}
		}
		close(ch)
	}()
	return ch
}

// present reports whether p exists (a link not followed).
func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
