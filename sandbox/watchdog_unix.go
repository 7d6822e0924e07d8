//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// watchdogScript starts argv behind the watchdog: a background job (in
// the command's process group, its own input and output sent nowhere)
// reads descriptor $1, the read end of a pipe whose only write end agentls
// holds, and kills the whole group (`kill -9 0`) once the read ends; the
// shell then closes that descriptor and execs the command (the rest of its
// arguments) in its own place, so the command has the same pid, argv, exit
// code and descriptors as without it. When agentls is gone — done with
// the command, crashed, or killed with SIGKILL — the kernel closes the
// write end and the watchdog kills the group.
const watchdogScript = `(read x <&"$1"; kill -9 0) </dev/null >/dev/null 2>&1 & eval "exec $1<&-"; shift; exec "$@"`

// WatchedCommand is Command with argv behind a watchdog in its process
// group (watchdogScript), inside the sandbox's layers (the launcher and
// bwrap start the watchdog's shell): what is left in the group is killed
// when agentls ends, whatever ends it, also where no reaper or PID
// namespace does (Unix but Linux; a command that killed its reaper). Start
// it with the Prepared's Start (cmd.ExtraFiles may be set before);
// Terminate and Cleanup close agentls's end, which fires the watchdog.
// Off Unix it is Command.
func WatchedCommand(pol Policy, launcher string, argv, environ []string) (*exec.Cmd, *Prepared, error) {
	if len(argv) == 0 {
		return nil, nil, errors.New("sandbox: no command")
	}
	wrapped := append([]string{"/bin/sh", "-c", watchdogScript, "sh", "3"}, argv...)
	cmd, p, err := Command(pol, launcher, wrapped, environ)
	if err != nil {
		return nil, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		p.Cleanup()
		return nil, nil, fmt.Errorf("sandbox: watchdog pipe: %w", err)
	}
	// The wrapped argv ends p.Argv (Prepare only puts layers before it);
	// its fifth word is the descriptor, 3 unless Start moves the pipe.
	p.dog = &watchdog{r: r, w: w, arg: len(p.Argv) - len(wrapped) + 4}
	cmd.ExtraFiles = []*os.File{r}
	return cmd, p, nil
}
