package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentls/agentls/internal/procstat"
)

// TestSupervisorDecides: with this test process as the reaper, its child
// and grandchild (in a session of their own, as an escaping daemon) and
// the child's group are in a watched call's reach; this process, its
// parent, init, a group it shares with its parent, every process (kill
// -1) and every process of the user are not; a pid that is gone is ESRCH.
func TestSupervisorDecides(t *testing.T) {
	start := func(attr *syscall.SysProcAttr) int {
		c := exec.Command("sleep", "1000")
		c.SysProcAttr = attr
		must(t, c.Start())
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c.Process.Pid
	}
	child := start(&syscall.SysProcAttr{Setpgid: true})
	// A grandchild: a shell's background child, in a session of its own.
	sh := exec.Command("sh", "-c", `setsid sleep 1000 & echo $!; wait`)
	out, err := sh.StdoutPipe()
	must(t, err)
	must(t, sh.Start())
	t.Cleanup(func() { sh.Process.Kill(); sh.Wait() })
	var grandchild int
	if _, err := fmt.Fscan(out, &grandchild); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Kill(grandchild, unix.SIGKILL) })
	gone := start(nil)
	p, _ := os.FindProcess(gone)
	p.Kill()
	p.Wait()

	// A segment the reaper itself made (a process outside the command).
	shm, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	must(t, err)
	t.Cleanup(func() { unix.SysvShmCtl(shm, unix.IPC_RMID, nil) })

	s := newSupervisor(spec{})
	i := func(v int) uint64 { return uint64(uint32(int32(v))) } // as a register holds an int
	self, parent := os.Getpid(), os.Getppid()
	for _, c := range []struct {
		name string
		call procCall
		args [6]uint64
		want unix.Errno
	}{
		{"kill the child", killCall, [6]uint64{i(child), 9}, 0},
		{"kill the grandchild", killCall, [6]uint64{i(grandchild), 9}, 0},
		{"kill the child's group", killCall, [6]uint64{i(-child), 9}, 0},
		{"kill the reaper", killCall, [6]uint64{i(self), 9}, unix.EPERM},
		{"kill the reaper's parent", killCall, [6]uint64{i(parent), 9}, unix.EPERM},
		{"kill init", killCall, [6]uint64{1, 9}, unix.EPERM},
		{"kill every process", killCall, [6]uint64{i(-1), 9}, unix.EPERM},
		{"kill the reaper's group", killCall, [6]uint64{i(-unix.Getpgrp()), 9}, unix.EPERM},
		{"kill a gone process", killCall, [6]uint64{i(gone), 9}, unix.ESRCH},
		{"kill: the high word is not read", killCall, [6]uint64{1<<32 | i(parent), 9}, unix.EPERM},
		{"tgkill the child", tgkillCall, [6]uint64{i(child), i(child), 9}, 0},
		{"tgkill names the reaper's parent's thread", tgkillCall, [6]uint64{i(child), i(parent), 9}, unix.EPERM},
		{"prlimit the reaper's parent", taskCall, [6]uint64{i(parent)}, unix.EPERM},
		{"prlimit the child", taskCall, [6]uint64{i(child)}, 0},
		{"setpriority the child", setpriorityCall, [6]uint64{unix.PRIO_PROCESS, i(child)}, 0},
		{"setpriority the reaper's parent", setpriorityCall, [6]uint64{unix.PRIO_PROCESS, i(parent)}, unix.EPERM},
		{"setpriority the child's group", setpriorityCall, [6]uint64{unix.PRIO_PGRP, i(child)}, 0},
		{"setpriority every process of the user", setpriorityCall, [6]uint64{unix.PRIO_USER, 0}, unix.EPERM},
		{"ioprio_set every process of the user", ioprioCall, [6]uint64{3, 0}, unix.EPERM},
		{"ioprio_set the reaper's parent", ioprioCall, [6]uint64{1, i(parent)}, unix.EPERM},
		{"F_SETOWN the child", fcntlCall, [6]uint64{3, unix.F_SETOWN, i(child)}, 0},
		{"F_SETOWN the reaper's group", fcntlCall, [6]uint64{3, unix.F_SETOWN, i(-unix.Getpgrp())}, unix.EPERM},
		{"F_SETOWN none", fcntlCall, [6]uint64{3, unix.F_SETOWN, 0}, 0},
		{"shmat a segment from outside", shmatCall, [6]uint64{i(shm)}, unix.EPERM},
		{"remove a segment from outside", shmctlCall, [6]uint64{i(shm), unix.IPC_RMID}, unix.EPERM},
		{"IPC_STAT a segment from outside", shmctlCall, [6]uint64{i(shm), unix.IPC_STAT | ipc64}, 0},
		{"shmat no segment", shmatCall, [6]uint64{i(-5)}, unix.EINVAL},
		{"a call not watched", procCall(0), [6]uint64{}, unix.EPERM},
	} {
		if got := s.decide(c.call, c.args); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCouldMake: a process that started after a segment was made (a pid
// used again) is not its maker; one that started before, or in the same
// second, may be.
func TestCouldMake(t *testing.T) {
	boot := procstat.BootTime()
	if boot == 0 {
		t.Skip("no btime in /proc/stat")
	}
	self, err := procstat.Read(os.Getpid())
	must(t, err)
	started := boot + int64(self.Start/procstat.UserHZ)
	for _, c := range []struct {
		name  string
		ctime int64
		want  bool
	}{
		{"made after the process started", started + 60, true},
		{"made in the same second", started, true},
		{"made a second before (rounding)", started - 1, true},
		{"made before the process started", started - 60, false},
	} {
		if got := couldMake(self.Start, c.ctime); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if now := time.Now().Unix(); started > now+1 || started < now-24*3600 {
		t.Errorf("this process started at %d by /proc, now is %d: the clock arithmetic is off", started, now)
	}
}
