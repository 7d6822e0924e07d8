package sandbox

import (
	"os"
)

// maxWatchdogFD is the highest descriptor the watchdog's pipe may get in
// the command: POSIX shells (dash) name 0 to 9 in redirections.
const maxWatchdogFD = 9

// watchdog is agentls's side of a command's watchdog (WatchedCommand):
// while w is open the watchdog waits; once it is closed — by
// Terminate or Cleanup, or by the kernel when agentls dies, however — the
// watchdog kills the command's process group.
type watchdog struct {
	// r is the read end, the command's (Start passes it and closes
	// agentls's copy); w the write end, agentls's only.
	r, w *os.File
	// arg is the index in the command's argv of the script's descriptor
	// argument (WatchedCommand finds it; Start writes the descriptor
	// there).
	arg int
}

// stopWatchdog closes agentls's ends of the watchdog's pipe: the
// watchdog, if it still runs, kills the command's group. Safe to call
// more than once, from more than one goroutine.
func (p *Prepared) stopWatchdog() {
	if p == nil || p.dog == nil {
		return
	}
	_ = p.dog.r.Close()
	_ = p.dog.w.Close()
}
