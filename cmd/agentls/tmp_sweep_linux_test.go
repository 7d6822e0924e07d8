package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/sandbox"
)

// TestKilledServersTempSwept: a command's private TMPDIR outlives an
// agentls killed with SIGKILL while the command runs (nothing of agentls
// runs to remove it); the next agentls removes it (as it starts, and at
// its first confined command), with the folder of that killed process
// around it (dated back past
// the minute a sweep leaves an unlocked folder alone). Without the sweep
// the folder stays.
func TestKilledServersTempSwept(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	tmp := t.TempDir()
	withTmp := func(cmd *exec.Cmd) { cmd.Env = append(cmd.Env, "TMPDIR="+tmp) }
	opts := map[string]any{"sandbox": map[string]any{"mode": "auto"}}

	dir := t.TempDir()
	fifo := filepath.Join(dir, "tmpdir")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r := startRunSession(t, dir, []string{fmt.Sprintf(`echo "$TMPDIR" > %s; exec sleep 1000`, fifo)}, opts, withTmp)
	done := r.prompt()
	f, err := os.Open(fifo) // blocks until the command opens it
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	private := strings.TrimSpace(string(b))
	if !strings.HasPrefix(private, tmp+"/") {
		t.Fatalf("the command's TMPDIR %q is not in the TMPDIR %s agentls was given", private, tmp)
	}
	folder := filepath.Dir(private) // the killed process's own folder
	if err := r.proc.Kill(); err != nil {
		t.Fatal(err)
	}
	<-done
	_, _ = r.proc.Wait()
	if _, err := os.Stat(private); err != nil {
		t.Fatalf("the killed agentls's command TMPDIR is already gone (%v): the test proves nothing", err)
	}
	// A sweep passes over an unlocked folder younger than a minute (one
	// being made): this one is dated back as if the next agentls came later.
	past := time.Now().Add(-2 * time.Minute)
	if err := os.Chtimes(folder, past, past); err != nil {
		t.Fatal(err)
	}

	again := t.TempDir()
	r2 := startRunSession(t, again, []string{"true"}, opts, withTmp)
	if err := <-r2.prompt(); err != nil {
		t.Fatal(err)
	}
	if code, out := r2.runResult(t, "r0"); code != 0 {
		t.Fatalf("true: exit %d %q", code, out)
	}
	if _, err := os.Lstat(folder); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(tmp)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the killed agentls's folder %s stays after the next agentls ran a command (%v); %s holds %v", folder, err, tmp, names)
	}
}
