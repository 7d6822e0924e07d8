//go:build unix

package mcpclient

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"syscall"

	"github.com/agentls/agentls/sandbox"
)

// watchdogScript starts the server behind the watchdog of `run`
// (agent/tools/runshell_unix.go): a background job in the server's process
// group reads fd 3, the read end of a pipe whose only write end agentls
// holds, and kills the whole group once the read ends (agentls closed it,
// exited or was killed with SIGKILL); the shell then closes fd 3 and execs
// the server in its own place.
const watchdogScript = `(read x <&3; kill -9 0) </dev/null >/dev/null 2>&1 & exec 3<&-; exec "$@"`

// serverCmd is the one place an MCP stdio server's process is made: the
// command behind the watchdog, in a process group of its own, in dir, with
// env, started in the sandbox of pol (sandbox.Prepare: the launcher, and
// bwrap when usable, around it; the profile `mcp`, docs/mcp.md). The
// returned watchdog's stop kills the group.
func serverCmd(spec ServerSpec, dir string, env []string, pol sandbox.Policy) (*exec.Cmd, watchdog, error) {
	argv := append([]string{"/bin/sh", "-c", watchdogScript, "sh", spec.Command}, spec.Args...)
	prep, err := sandbox.Prepare(pol, "", argv)
	if err != nil {
		return nil, watchdog{}, fmt.Errorf("sandbox: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		prep.Cleanup()
		return nil, watchdog{}, err
	}
	cmd := exec.Command(prep.Argv[0], prep.Argv[1:]...)
	cmd.Dir = dir
	cmd.Env = sandbox.Environ(pol, env) // PATH never into the workspace
	cmd.ExtraFiles = []*os.File{r}      // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, watchdog{r: r, w: w, prep: prep}, nil
}

// killGroup sends SIGKILL to the process group led by p.
func killGroup(p *os.Process) {
	if p == nil {
		return
	}
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		slog.Warn("mcp: kill process group", "pgid", p.Pid, "err", err)
	}
}
