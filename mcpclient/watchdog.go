package mcpclient

import (
	"os"

	"github.com/agentls/agentls/sandbox"
)

// watchdog is the pipe of a server's watchdog (start_unix.go): r goes to
// the child, w stays with agentls.
type watchdog struct {
	r, w *os.File
	// prep is the server's sandbox (its private TMPDIR goes at stop).
	prep *sandbox.Prepared
}

// started closes agentls's copy of the read end once the child has its own.
func (d watchdog) started() {
	if d.r != nil {
		_ = d.r.Close()
	}
}

// stop closes the write end: the watchdog kills the server's group.
func (d watchdog) stop() {
	if d.r != nil {
		_ = d.r.Close()
	}
	if d.w != nil {
		_ = d.w.Close()
	}
	if d.prep != nil {
		d.prep.Cleanup()
	}
}
