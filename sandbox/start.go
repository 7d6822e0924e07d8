package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
)

// Start starts cmd, made for p by Command or WatchedCommand (cmd.Start
// otherwise). A watched command gets the read end of its watchdog's pipe
// as its last extra file, after cmd.ExtraFiles, which keep their numbers
// (3 on); the watchdog's shell closes it before it execs the command, and
// agentls's copy is closed once the command holds its own. At most 6
// extra files fit beside it. Under bubblewrap Start returns once the
// command's launcher runs inside the sandbox, and starts it once more when
// bubblewrap could not set the sandbox up because a socket it was to cover
// went away meanwhile (bwrap_start.go).
func (p *Prepared) Start(cmd *exec.Cmd) error {
	if p == nil || (p.dog == nil && p.bwrap == nil) {
		return cmd.Start()
	}
	if len(cmd.Args) != len(p.Argv) || p.dog != nil && p.dog.arg >= len(cmd.Args) {
		return fmt.Errorf("sandbox: %s is not the prepared command", cmd.Path)
	}
	files := cmd.ExtraFiles
	if p.dog != nil {
		files = slices.DeleteFunc(slices.Clone(files), func(f *os.File) bool { return f == p.dog.r })
		if fd := 3 + len(files); fd > maxWatchdogFD {
			return fmt.Errorf("sandbox: %d extra files: the watchdog's pipe needs a descriptor up to %d", len(files), maxWatchdogFD)
		}
	}
	var err error
	if p.bwrap != nil {
		err = p.startBwrap(cmd, files)
	} else {
		p.passWatchdog(cmd, files)
		err = cmd.Start()
	}
	if err != nil {
		return err
	}
	if p.dog != nil {
		_ = p.dog.r.Close()
	}
	return nil
}

// passWatchdog makes files, then the watchdog's read end (when p has a
// watchdog), cmd's extra files, and names the watchdog's descriptor in
// its argv.
func (p *Prepared) passWatchdog(cmd *exec.Cmd, files []*os.File) {
	cmd.ExtraFiles = slices.Clone(files)
	if p.dog == nil {
		return
	}
	cmd.Args[p.dog.arg] = strconv.Itoa(3 + len(cmd.ExtraFiles))
	cmd.ExtraFiles = append(cmd.ExtraFiles, p.dog.r)
}
