package sandbox

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// bubblewrap mounts /dev/null over each socket it covers (sockets.go),
// and it must make the mount point where the tree is read-only: a socket
// that went away between the listing and bubblewrap's setup, or whose
// folder did (a test's temporary folder, an editor's IPC socket), stops
// bubblewrap ("Can't mkdir parents for …: Read-only file system") before
// anything runs. No bubblewrap option makes a mount depend on its target.
// So Start learns from the launcher that the sandbox is set up: the
// launcher's first act is to write a byte on a pipe (startedFlag), which
// only the launcher, run by bubblewrap after its setup, can do; the pipe's
// end without that byte says the command never ran. bubblewrap's own
// messages go to a pipe of Start's, and the command's error output is
// handed to the launcher, which makes it its descriptor 2 (stderrFlag), so
// a failed setup leaves nothing in the command's output. When a socket to
// cover has gone, the command is started once more with the sockets
// listed anew; otherwise Start returns bubblewrap's message as its error.

// startedFlag and stderrFlag lead the launcher's arguments under
// bubblewrap (`--started <fd> --stderr <fd>`): the pipe on which it says
// it runs, and the command's error output. noFD is none (a client starts
// the command: acp's terminals).
const (
	startedFlag = "--started"
	stderrFlag  = "--stderr"
	noFD        = "-"
)

// ErrPrepareAgain is Start's error when bubblewrap could not set the
// sandbox up because a socket it was to cover went away, and the command
// cannot be started again as it is (its input or an output is not a file):
// nothing ran; prepare the command again.
var ErrPrepareAgain = errors.New("a socket to cover went away before the sandbox was set up: nothing ran, prepare the command again")

// setupBound bounds how long Start waits for the launcher to say it runs;
// past it the command is taken as started.
const setupBound = 10 * time.Second

// bwrapMessageMax caps what is kept of bubblewrap's own messages.
const bwrapMessageMax = 4 << 10

// bwrapStart is a bubblewrap command line's part that Start fills in and
// may make again.
type bwrapStart struct {
	// inner is the length of the launcher's part of the argv, at its end.
	inner int
	// sockets are the sockets the command line covers.
	sockets []string
	// cover lists the sockets anew and makes bubblewrap's arguments.
	cover func() (args, sockets []string)
	// messages reads bubblewrap's own error output (nil before Start).
	messages *bwrapMessages
}

// startBwrap starts cmd under bubblewrap (Start): once, and once more
// when the sandbox could not be set up because a socket to cover went
// away and cmd can be started again (its input and outputs are files).
func (p *Prepared) startBwrap(cmd *exec.Cmd, files []*os.File) error {
	again := restartable(cmd)
	for attempt := 1; ; attempt++ {
		ran, err := p.startOnce(cmd, files)
		if err != nil || ran {
			return err
		}
		msg := p.bwrap.messages.text()
		if msg == "" {
			msg = "no message (its error output is the command's)"
		}
		if attempt == 1 && p.bwrap.coverGone() {
			if !again {
				return fmt.Errorf("sandbox: %w: %s", ErrPrepareAgain, msg)
			}
			slog.Info("sandbox: a socket to cover went away while bubblewrap set the sandbox up; starting the command again", "bwrap", msg)
			p.remake(cmd)
			continue
		}
		return fmt.Errorf("sandbox: bubblewrap could not set the sandbox up, nothing ran: %s", msg)
	}
}

// startOnce starts cmd and waits, within setupBound, for its launcher to
// say it runs; ran is false when the launcher never ran (cmd has then
// been waited for).
func (p *Prepared) startOnce(cmd *exec.Cmd, files []*os.File) (ran bool, err error) {
	p.passWatchdog(cmd, files)
	launcher := len(cmd.Args) - p.bwrap.inner
	startedR, startedW, err := os.Pipe()
	if err != nil {
		return false, fmt.Errorf("sandbox: launcher pipe: %w", err)
	}
	defer startedR.Close()
	cmd.Args[launcher+3] = strconv.Itoa(3 + len(cmd.ExtraFiles))
	cmd.ExtraFiles = append(cmd.ExtraFiles, startedW)
	ours := []*os.File{startedW} // closed once the child holds them
	defer func() { closeAll(ours) }()

	stderr := cmd.Stderr
	defer func() { cmd.Stderr = stderr }()
	cmd.Args[launcher+5] = noFD
	if target, ok := fileOrNone(stderr); ok {
		if target == nil {
			if target, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0); err != nil {
				return false, fmt.Errorf("sandbox: %w", err)
			}
			ours = append(ours, target)
		}
		msgR, msgW, err := os.Pipe()
		if err != nil {
			return false, fmt.Errorf("sandbox: bubblewrap's message pipe: %w", err)
		}
		ours = append(ours, msgW)
		p.bwrap.messages.close() // an earlier attempt's
		p.bwrap.messages = readMessages(msgR)
		cmd.Args[launcher+5] = strconv.Itoa(3 + len(cmd.ExtraFiles))
		cmd.ExtraFiles = append(cmd.ExtraFiles, target)
		cmd.Stderr = msgW
	}
	if err := cmd.Start(); err != nil {
		p.bwrap.messages.close()
		return false, err
	}
	closeAll(ours)
	ours = nil

	if err := startedR.SetReadDeadline(time.Now().Add(setupBound)); err != nil {
		return true, nil // no bound: take it as started rather than wait unbounded
	}
	var b [1]byte
	n, err := startedR.Read(b[:])
	switch {
	case n == 1:
		return true, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		slog.Warn("sandbox: the launcher did not say it runs in time; taking the command as started", "bound", setupBound)
		return true, nil
	}
	waitBounded(cmd)
	return false, nil
}

// waitBounded waits for cmd, which is ending (its launcher never ran),
// killing its group if it has not ended within a second.
func waitBounded(cmd *exec.Cmd) {
	waited := make(chan struct{})
	go func() { defer close(waited); _ = cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(time.Second):
		KillGroup(cmd.Process)
		<-waited
	}
}

// remake makes cmd again from p's command line with the sockets listed
// anew, its input, outputs, folder, environment and attributes kept.
func (p *Prepared) remake(cmd *exec.Cmd) {
	args, sockets := p.bwrap.cover()
	argv := append(args, p.Argv[len(p.Argv)-p.bwrap.inner:]...)
	if p.dog != nil {
		p.dog.arg += len(argv) - len(p.Argv)
	}
	p.Argv, p.bwrap.sockets = argv, sockets
	fresh := exec.Command(argv[0], argv[1:]...)
	fresh.Env, fresh.Dir, fresh.SysProcAttr, fresh.WaitDelay = cmd.Env, cmd.Dir, cmd.SysProcAttr, cmd.WaitDelay
	fresh.Stdin, fresh.Stdout, fresh.Stderr = cmd.Stdin, cmd.Stdout, cmd.Stderr
	*cmd = *fresh
}

// CoverFailed reports whether a command p prepared that a client started
// (acp's terminals, which Start does not start) never ran because
// bubblewrap could not make the mount point of a socket it was to cover,
// gone since: it ended with status 1, and its whole output is bubblewrap's
// one line about that socket. Prepare it again and start it once more.
// The command cannot fake it: the socket is outside the folders it may
// change.
func (p *Prepared) CoverFailed(exitCode int, output string) bool {
	if p == nil || p.bwrap == nil || exitCode != 1 {
		return false
	}
	line := strings.TrimRight(output, "\r\n") // a terminal may end lines with \r\n
	if strings.Contains(line, "\n") {
		return false
	}
	for _, s := range p.bwrap.sockets {
		for _, what := range []string{"Can't mkdir parents for ", "Can't create file at "} {
			if strings.HasPrefix(line, "bwrap: "+what+s+": ") && !isSocket(s) {
				return true
			}
		}
	}
	return false
}

// coverGone reports whether a socket the command line covers is no
// longer one.
func (b *bwrapStart) coverGone() bool {
	return slices.ContainsFunc(b.sockets, func(s string) bool { return !isSocket(s) })
}

// restartable reports whether cmd can be started again after a start that
// ran nothing: its input and outputs are files (or none), which the
// failed start did not consume.
func restartable(cmd *exec.Cmd) bool {
	for _, s := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		if _, ok := fileOrNone(s); !ok {
			return false
		}
	}
	return true
}

// fileOrNone is w (a command's input or output) as a file: nil for none
// (os/exec's /dev/null), ok false for anything os/exec would copy
// through a pipe of its own.
func fileOrNone(w any) (*os.File, bool) {
	switch f := w.(type) {
	case nil:
		return nil, true
	case *os.File:
		return f, f != nil
	}
	return nil, false
}

// closeAll closes each file.
func closeAll(files []*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// bwrapMessages is what bubblewrap wrote on its error output, read until
// the pipe ends (when bubblewrap and the command are gone) or close.
type bwrapMessages struct {
	r     *os.File
	done  chan struct{}
	buf   strings.Builder // written by the reader only, read after done
	taken atomic.Bool     // text returned it: close does not log it
	once  sync.Once
}

// readMessages reads r in a goroutine of its own, ended by r's end or
// close.
func readMessages(r *os.File) *bwrapMessages {
	m := &bwrapMessages{r: r, done: make(chan struct{})}
	go func() {
		defer close(m.done)
		_, _ = io.Copy(&m.buf, io.LimitReader(r, bwrapMessageMax))
		_, _ = io.Copy(io.Discard, r)
	}()
	return m
}

// text is what bubblewrap wrote, once the pipe has ended (within a
// second: the command is gone by then).
func (m *bwrapMessages) text() string {
	if m == nil {
		return ""
	}
	select {
	case <-m.done:
		m.taken.Store(true)
		return strings.TrimSpace(m.buf.String())
	case <-time.After(time.Second):
		return ""
	}
}

// close stops the reader and logs what bubblewrap wrote unless text
// returned it (a warning it printed while the command ran). A nil m, and
// more than one call, do no harm.
func (m *bwrapMessages) close() {
	if m == nil {
		return
	}
	m.once.Do(func() {
		_ = m.r.Close()
		<-m.done
		if s := strings.TrimSpace(m.buf.String()); s != "" && !m.taken.Load() {
			slog.Warn("sandbox: bubblewrap", "message", s)
		}
	})
}
