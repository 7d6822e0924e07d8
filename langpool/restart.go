package langpool

import (
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"
)

// A server that keeps exiting is not started again at every question
// (docs/language-intel.md, "Lazily, and not for ever"). The first exit
// restarts it at the next question; each later exit in a row waits twice
// as long as the one before (restartBackoff, then doubling, at most
// restartBackoffMax) before the next start; after maxQuickExits exits in a
// row the server is broken: not started again until the configuration
// changes. An exit after stableAfter of running starts a new row.
const (
	restartBackoff    = time.Second
	restartBackoffMax = time.Minute
	maxQuickExits     = 5
	stableAfter       = time.Minute
)

// exitRow is a file type's server's exits in a row.
type exitRow struct {
	n      int       // exits in a row, each within stableAfter of its start
	at     time.Time // when the last one exited
	why    string    // how, and its stderr's tail
	broken string    // set at maxQuickExits: why it is not started again
}

// noteExitLocked records that c, fileType's server, exited on its own
// (it crashed, or was ended for a broken connection) (p.mu held).
func (p *Pool) noteExitLocked(fileType string, c *client) {
	r := p.exits[fileType]
	if r == nil {
		r = &exitRow{}
		p.exits[fileType] = r
	}
	if c.exitedAt.Sub(c.started) >= stableAfter {
		r.n = 0
	}
	r.n++
	r.at, r.why = c.exitedAt, c.exitReason()
	slog.Warn("language server exited", "fileType", fileType, "argv", c.argv, "inARow", r.n, "why", r.why)
	if r.n >= maxQuickExits {
		r.broken = fmt.Sprintf("%s exited %d times in a row; not restarted: %s", c.argv[0], r.n, r.why)
	}
}

// restartErrLocked is why fileType's server may not start now: broken,
// or its wait after the last exit not over (p.mu held); nil when it may.
func (p *Pool) restartErrLocked(fileType string, now time.Time) error {
	r := p.exits[fileType]
	if r == nil {
		return nil
	}
	if r.broken != "" {
		return fmt.Errorf("the %s language server %s", fileType, r.broken)
	}
	if r.n < 2 {
		return nil // one exit: started again at once
	}
	base := p.opts.restartBackoff
	if base <= 0 {
		base = restartBackoff
	}
	wait := base
	for i := 2; i < r.n && wait < restartBackoffMax; i++ {
		wait *= 2
	}
	wait = min(wait, restartBackoffMax)
	if left := r.at.Add(wait).Sub(now); left > 0 {
		return fmt.Errorf("the %s language server exited %d times in a row (%s); it starts again in %v", fileType, r.n, r.why, left.Round(100*time.Millisecond))
	}
	return nil
}

// exitReason is how the exited server ended, with its stderr's last
// lines (at most exitReasonMax bytes of them).
func (c *client) exitReason() string {
	why := "exit status 0"
	if c.waitErr != nil {
		why = c.waitErr.Error()
	}
	s := strings.TrimSpace(c.stderr.String())
	if len(s) > exitReasonMax {
		cut := len(s) - exitReasonMax
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		s = "…" + s[cut:]
	}
	if s != "" {
		why += " (stderr: " + s + ")"
	}
	return why
}

// exitReasonMax bounds the stderr an exit's reason quotes.
const exitReasonMax = 300
