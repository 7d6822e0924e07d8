package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentls/agentls/internal/procstat"
)

// reaperOn: the launcher reaps where no PID namespace ends what a command
// leaves behind (Prepare: every mode but bubblewrap's).
const reaperOn = true

// parentPoll is how often the reaper checks that its parent lives where
// the kernel has no pidfd (before Linux 5.3).
const parentPoll = 200 * time.Millisecond

// reap is the launcher's `--reap` form (args: `--policy <spec> --
// <argv>`). It makes this process a child subreaper — every process the
// command starts and orphans (`setsid … &`, a double fork, a daemon) is
// reparented to it, not to init — starts the plain launcher with args as
// its child (same file descriptors and environment; Landlock applies
// there, so the command cannot signal or trace its reaper where Landlock
// scopes signals; a session and process group of its own, so a `kill 0`
// in the command cannot reach the reaper), and waits for it. When the
// child has exited, or on SIGTERM, SIGINT or SIGHUP (agentls ending the
// command: a timeout, a cancelled turn, a stopped server, or agentls's own
// death through the parent-death signal), or once its parent is gone
// (agentls killed with SIGKILL), it kills everything left below it
// (reapAll) and exits with the child's status, a death by signal n as
// 128+n. It returns only when it could not start the child.
func reap(args []string) error {
	if len(args) < 4 || args[0] != "--policy" || args[2] != "--" {
		return errors.New("usage: agentls sandbox-exec --reap --policy <base64 JSON> -- <command> [args…]")
	}
	// The child's parent-death signal is tied to the thread that starts
	// it: this goroutine keeps its thread until the process exits.
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("child subreaper: %w", err)
	}
	// Not dumpable: where nothing else keeps them apart (sandbox off) a
	// command can neither trace the reaper nor read its /proc files.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("not dumpable: %w", err)
	}
	s, err := decodeSpec(args[1])
	if err != nil {
		return err
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, unix.SIGTERM, unix.SIGINT, unix.SIGHUP)
	parentGone := watchParent()
	childArgs := append([]string{os.Args[0], Subcommand}, args...)
	ours, theirs := -1, -1
	if s.Supervised {
		// The child sends the process filter's listener back over a
		// socket it inherits (at the same number: Files leaves it be).
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET, 0)
		if err != nil {
			return fmt.Errorf("process filter: socket to the launcher: %w", err)
		}
		ours, theirs = fds[0], fds[1]
		unix.CloseOnExec(ours)
		childArgs = slices.Insert(childArgs, 2, notifyFlag, strconv.Itoa(theirs))
	}
	child, err := os.StartProcess("/proc/self/exe", childArgs, &os.ProcAttr{
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},                     // and every other descriptor not closed on exec
		Sys:   &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}, // no controlling terminal: groupAttr
	})
	if theirs >= 0 {
		unix.Close(theirs)
	}
	if err != nil {
		return fmt.Errorf("start the command: %w", err)
	}
	if ours >= 0 {
		go func() { // ends when the launcher sent nothing, or with the process
			if listener := receiveListener(ours); listener >= 0 {
				newSupervisor(s).serve(listener)
			}
		}()
	}
	waited := make(chan *os.ProcessState, 1)
	go func() { // ends when the child has been waited for
		ps, err := child.Wait()
		if err != nil {
			fmt.Fprintf(os.Stderr, "%v: wait: %v\n", ErrLauncher, err)
		}
		waited <- ps
	}()
	var ps *os.ProcessState
	select {
	case ps = <-waited:
	case <-stop:
		killChild(child.Pid)
		ps = <-waited
	case <-parentGone:
		killChild(child.Pid)
		ps = <-waited
	}
	reapAll()
	code := LauncherFailed
	if ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
			code = exitStatus(ws.Signaled(), int(ws.Signal()), ws.ExitStatus())
		}
	}
	os.Exit(code)
	return nil
}

// killChild kills the command's process group and the child itself (which
// may have left it).
func killChild(pid int) {
	_ = unix.Kill(-pid, unix.SIGKILL)
	_ = unix.Kill(pid, unix.SIGKILL)
}

// reapAll kills every process left below the reaper with SIGKILL and reaps
// it, again until none is left (a killed process's children are
// reparented to the reaper in turn) or reapTimeout has passed; then it
// says on stderr what still runs.
func reapAll() {
	self := os.Getpid()
	done := make(chan struct{})
	go func() { // ends when no child is left; else with the process
		defer close(done)
		for {
			for _, pid := range children(self) {
				_ = unix.Kill(pid, unix.SIGKILL)
			}
			if !reapOne(0) {
				return
			}
			for reapOne(unix.WNOHANG) {
			}
		}
	}()
	t := time.NewTimer(reapTimeout)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		fmt.Fprintf(os.Stderr, "%v: processes the command started still run after %s: %v\n", ErrLauncher, reapTimeout, children(self))
	}
}

// reapOne waits for one child (options: 0 blocks, WNOHANG does not) and
// reports whether there may be more to wait for.
func reapOne(options int) bool {
	for {
		pid, err := unix.Wait4(-1, nil, options, nil)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil: // ECHILD: none left
			return false
		default:
			return pid > 0
		}
	}
}

// children lists the processes whose parent is ppid (/proc/<pid>/stat:
// this kernel may lack /proc/<pid>/task/<tid>/children).
func children(ppid int) []int {
	var out []int
	for _, pid := range procstat.PIDs() {
		if st, err := procstat.Read(pid); err == nil && st.PPID == ppid { // else gone meanwhile
			out = append(out, pid)
		}
	}
	return out
}

// watchParent returns a channel closed once the process that started the
// reaper has exited (agentls killed with SIGKILL, or crashed): a pidfd of
// the parent, which becomes readable then, or where the kernel has none
// the parent pid checked every parentPoll. Its goroutine ends with the
// process.
func watchParent() <-chan struct{} {
	gone := make(chan struct{})
	ppid := os.Getppid()
	fd, err := unix.PidfdOpen(ppid, 0)
	go func() {
		defer close(gone)
		if err == nil && pidfdExited(fd) {
			return
		}
		t := time.NewTicker(parentPoll)
		defer t.Stop()
		for range t.C {
			if os.Getppid() != ppid {
				return
			}
		}
	}()
	return gone
}

// pidfdExited blocks until the process of pidfd fd has exited (true), or
// polling it failed (false); it closes fd.
func pidfdExited(fd int) bool {
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, -1)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return false
		default:
			return n > 0
		}
	}
}
