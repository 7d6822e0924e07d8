package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/proctest"
)

// groupBound bounds the waits below: the grandchild sleeps far longer.
const groupBound = 10 * time.Second

// TestKillGroupEndsTheGrandchildren: KillGroup, and Terminate of a
// command without the reaper (bubblewrap's, or off Linux), end everything
// in the process group of a process started in a group of its own
// (groupAttr, as Command starts it), a grandchild `sleep 1000` too. Fails
// when only the process itself, or nothing, is killed. (With the reaper,
// every mode on Linux but bubblewrap's, the command runs in a group of the
// reaper's child, and the reaper ends it: reaper_linux.go; bubblewrap's
// PID namespace ends with it.)
func TestKillGroupEndsTheGrandchildren(t *testing.T) {
	ends := []struct {
		name string
		end  func(proc *os.Process, exited <-chan struct{})
	}{
		{"KillGroup", func(proc *os.Process, _ <-chan struct{}) { KillGroup(proc) }},
		{"Terminate", func(proc *os.Process, exited <-chan struct{}) { (&Prepared{}).Terminate(proc, exited) }},
	}
	script := func(fifo string) []string {
		return []string{"/bin/sh", "-c", "sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > " + fifo + "; exec sleep 1000"}
	}
	starts := []struct {
		name  string
		start func(t *testing.T, fifo string) *exec.Cmd
	}{
		{"own group", func(t *testing.T, fifo string) *exec.Cmd {
			argv := script(fifo)
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.SysProcAttr = groupAttr()
			return cmd
		}},
	}
	for _, start := range starts {
		for _, end := range ends {
			t.Run(start.name+"/"+end.name, func(t *testing.T) {
				fifo := filepath.Join(t.TempDir(), "pid")
				must(t, syscall.Mkfifo(fifo, 0o600))
				cmd := start.start(t, fifo)
				must(t, cmd.Start())
				exited := make(chan struct{})
				go func() { defer close(exited); _ = cmd.Wait() }()
				defer func() { _ = cmd.Process.Kill(); <-exited }()
				pid, err := proctest.ReadPid(fifo)
				must(t, err)
				grandchild, err := proctest.Watch(pid)
				must(t, err)
				defer grandchild.Close()
				end.end(cmd.Process, exited)
				if gone, err := grandchild.Exited(groupBound); !gone || err != nil {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("the grandchild %d outlived its group's end (%v)", pid, err)
				}
				select {
				case <-exited:
				case <-time.After(groupBound):
					t.Fatal("the command outlived its group's end")
				}
			})
		}
	}
}

// TestCommandLeadsAProcessGroup: what Command starts (the reaper, bwrap or
// the command itself) leads a process group of its own, so that
// Terminate and KillGroup reach what it starts and agentls is not in it.
func TestCommandLeadsAProcessGroup(t *testing.T) {
	for _, mode := range []Mode{ModeOff, ModeLandlock, ModeBwrap} {
		t.Run(string(mode), func(t *testing.T) {
			if st := Detect().Status(mode); mode != ModeOff && !st.Confines() {
				t.Skipf("no %s here: %s", mode, st.Summary)
			}
			cmd, p, err := Command(Policy{Mode: mode}, "", []string{"/bin/sh", "-c", "exec sleep 1000"}, os.Environ())
			must(t, err)
			defer p.Cleanup()
			must(t, cmd.Start())
			exited := make(chan struct{})
			go func() { defer close(exited); _ = cmd.Wait() }()
			// Ended as agentls ends it: the group, bwrap's child in it (a
			// kill of bwrap alone, right after its start, could come
			// before that child asks to die with bwrap, and leave it).
			defer p.Terminate(cmd.Process, exited)
			pgid, err := syscall.Getpgid(cmd.Process.Pid)
			if err != nil || pgid != cmd.Process.Pid {
				t.Errorf("process group %d (%v), want its own, %d", pgid, err, cmd.Process.Pid)
			}
		})
	}
}

// TestKillGroupLeavesNoneAndNil: KillGroup of a group already gone, or of
// no process, does nothing (and does not panic).
func TestKillGroupLeavesNoneAndNil(t *testing.T) {
	cmd, p, err := Command(Policy{Mode: ModeOff}, "", []string{"/bin/true"}, os.Environ())
	must(t, err)
	defer p.Cleanup()
	must(t, cmd.Run())
	KillGroup(cmd.Process)
	KillGroup(nil)
}

// TestOutputRunsAsRunAs: Output runs its command as pol.RunAs, in a
// process group of its own. Fails on 1c74fc3, where Output replaced the
// command's process attributes with the group's alone and so ran it as
// agentls's own user.
func TestOutputRunsAsRunAs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can run a command as another user")
	}
	r := newRig(t)
	pol := Policy{Mode: ModeOff, RunAs: nobody}
	out, err := Output(context.Background(), pol, r.bin, "/", []string{"/bin/sh", "-c", "id -u; ps -o pgid= -p $$; echo $$"}, os.Environ())
	must(t, err)
	f := strings.Fields(string(out))
	if len(f) != 3 || f[0] != strconv.Itoa(int(nobody.UID)) {
		t.Fatalf("ran as %q, want uid %d", out, nobody.UID)
	}
	if f[1] == strconv.Itoa(syscall.Getpgrp()) {
		t.Errorf("the command ran in agentls's process group %s", f[1])
	}
}
