package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/agentls/agentls/sandbox"
)

// drainGrace bounds how long run waits for the output pipe to close after the
// command's process group is gone (a process that left the group may keep it).
const drainGrace = 2 * time.Second

// errTimedOut is the cause of a command's end at its timeout.
var errTimedOut = errors.New("the command timed out")

// shellResult is the outcome of one command.
type shellResult struct {
	exitCode  int
	output    string
	timedOut  bool
	cancelled bool
	duration  time.Duration
}

// shellJob is one command for runShell.
type shellJob struct {
	command string
	dir     string
	env     []string // the command's whole environment
	timeout time.Duration
	maxOut  int
	// beforeStart runs right before the process starts; its error (a guard
	// refusal) is returned as it is and nothing starts.
	beforeStart func() error
	// policy is the sandbox the command runs in (runPolicy).
	policy sandbox.Policy
	// progress, when set, gets the newest output line while the command
	// runs, at most every progressEvery (runprogress.go).
	progress func(line string)
}

// runShell runs the command with /bin/sh -c in its folder, in its own process
// group, with stdout and stderr combined and capped at maxOut bytes (head and
// tail kept). On timeout or cancellation of ctx the command is ended
// (Prepared.Terminate: its reaper kills everything it started, or the whole
// group is killed); when the shell exits, whatever it left running is killed
// too (by its reaper, or in its group); and if agentls itself dies, the
// reaper's parent-death signal, or the group's watchdog, kills it
// (shellCommand).
func runShell(ctx context.Context, job shellJob) (shellResult, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return shellResult{}, fmt.Errorf("output pipe: %w", err)
	}
	defer r.Close()
	cmd, prep, err := shellCommand(job.command, job.policy, job.env)
	if err != nil {
		w.Close()
		return shellResult{}, err
	}
	defer prep.Cleanup() // the watchdog and the private TMPDIR, once the group is gone
	cmd.Dir = job.dir
	cmd.Stdout, cmd.Stderr = w, w
	if err := job.beforeStart(); err != nil {
		w.Close()
		return shellResult{}, err
	}
	// The shell's parent-death signal (Linux) fires when the OS thread that
	// started it exits, not the process: keep this goroutine on that thread,
	// and so the thread alive, until the shell has been waited for.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	if err := prep.Start(cmd); err != nil {
		w.Close()
		return shellResult{}, fmt.Errorf("start: %w", err)
	}
	w.Close() // the children hold the write end now
	out := newHeadTail(job.maxOut)
	var sink io.Writer = out
	live := &lastLine{}
	if job.progress != nil {
		sink = io.MultiWriter(out, live)
	}
	stopProgress := reportLines(job.progress, live)
	defer stopProgress()
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		if _, err := io.Copy(sink, r); err != nil && !errors.Is(err, os.ErrClosed) {
			slog.Debug("run: reading output", "err", err)
		}
	}()
	var waitErr error
	exited := make(chan struct{})
	go func() { defer close(exited); waitErr = cmd.Wait() }()

	var res shellResult
	timed, stopTimer := context.WithTimeoutCause(ctx, job.timeout, errTimedOut)
	defer stopTimer()
	if err := prep.Wait(timed, cmd.Process, exited); err != nil {
		res.timedOut = errors.Is(context.Cause(timed), errTimedOut) // else ctx ended first
		res.cancelled = !res.timedOut
	}
	sandbox.KillGroup(cmd.Process) // what the shell left in its group
	drain := time.NewTimer(drainGrace)
	select {
	case <-copied:
	case <-drain.C:
		r.Close()
		<-copied
	}
	drain.Stop()
	res.duration = time.Since(start)
	res.output = out.String()
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return res, fmt.Errorf("wait: %w", waitErr)
	}
	res.exitCode = exitCode(cmd.ProcessState)
	return res, nil
}
