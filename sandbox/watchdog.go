package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
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

// Start starts cmd, made for p by Command or WatchedCommand (cmd.Start
// otherwise). A watched command gets the read end of its watchdog's pipe
// as its last extra file, after cmd.ExtraFiles, which keep their numbers
// (3 on); the watchdog's shell closes it before it execs the command, and
// agentls's copy is closed once the command holds its own. At most 6
// extra files fit beside it.
func (p *Prepared) Start(cmd *exec.Cmd) error {
	if p == nil || p.dog == nil {
		return cmd.Start()
	}
	if len(cmd.Args) != len(p.Argv) || p.dog.arg >= len(cmd.Args) {
		return fmt.Errorf("sandbox: %s is not the prepared command", cmd.Path)
	}
	files := slices.DeleteFunc(slices.Clone(cmd.ExtraFiles), func(f *os.File) bool { return f == p.dog.r })
	fd := 3 + len(files)
	if fd > maxWatchdogFD {
		return fmt.Errorf("sandbox: %d extra files: the watchdog's pipe needs a descriptor up to %d", len(files), maxWatchdogFD)
	}
	cmd.ExtraFiles = append(files, p.dog.r)
	cmd.Args[p.dog.arg] = strconv.Itoa(fd)
	if err := cmd.Start(); err != nil {
		return err
	}
	_ = p.dog.r.Close()
	return nil
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
