package mcpclient

import (
	"log/slog"
	"os"
	"time"
)

// stderrDrainGrace bounds how long the waiter of an exited server waits
// for its stderr to reach EOF before it describes the exit: the last lines
// a server writes before it exits (the reason it died) are in the pipe but
// not yet read when its process is reaped. Zero skips the wait (a test
// shows the old race with it).
var stderrDrainGrace = time.Second

// settleGrace bounds, beyond stderrDrainGrace, how long a start attempt
// that failed waits for its killed process to be reaped.
const settleGrace = 2 * time.Second

// stderrHold, when set (tests), runs before the reader keeps each chunk of
// a server's stderr; draining is closed once the waiter waits for the
// reader.
var stderrHold func(draining <-chan struct{})

// stderrPipe is one start attempt's stderr reader: draining is closed when
// the waiter starts waiting for it, drained when it reached EOF.
type stderrPipe struct {
	draining, drained chan struct{}
}

func newStderrPipe() stderrPipe {
	return stderrPipe{draining: make(chan struct{}), drained: make(chan struct{})}
}

// readStderr keeps the end of the server's stderr in s.stderr until EOF.
func (s *Server) readStderr(r *os.File, p stderrPipe) {
	defer s.wg.Done()
	defer close(p.drained)
	defer r.Close()
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if stderrHold != nil {
				stderrHold(p.draining)
			}
			_, _ = s.stderr.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// drain waits, at most stderrDrainGrace, for the stderr of a server whose
// process was reaped (and its group killed) to reach EOF.
func (s *Server) drain(p stderrPipe) {
	if stderrDrainGrace <= 0 {
		return
	}
	close(p.draining)
	t := time.NewTimer(stderrDrainGrace)
	defer t.Stop()
	select {
	case <-p.drained:
	case <-t.C:
		slog.Warn("mcp: the stderr of an exited server stays open; its exit is described without the rest", "server", s.spec.Name, "waited", stderrDrainGrace)
	}
}

// settle waits, bounded, for the waiter of a failed start attempt (its
// process killed) to record the exit once the stderr drained: the failure
// then says the server exited, with the lines it wrote before it died,
// instead of the transport's EOF with an empty stderr (the race seen in
// CI: the status was read before the reader kept the server's last line).
func settle(exited <-chan struct{}) {
	t := time.NewTimer(stderrDrainGrace + settleGrace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
		slog.Warn("mcp: a server that failed to start was not reaped in time; its failure is described without its exit", "waited", stderrDrainGrace+settleGrace)
	}
}
