//go:build unix

package mcpclient

import (
	"fmt"
	"os"
	"os/exec"

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
// env, started in the sandbox of pol (sandbox.Command: the launcher, and
// bwrap when usable, around it; the profile `mcp`, docs/mcp.md). The
// returned watchdog's stop kills the group.
func serverCmd(spec ServerSpec, dir string, env []string, pol sandbox.Policy) (*exec.Cmd, watchdog, error) {
	argv := append([]string{"/bin/sh", "-c", watchdogScript, "sh", spec.Command}, spec.Args...)
	cmd, prep, err := sandbox.Command(pol, "", argv, env) // PATH never into the workspace
	if err != nil {
		return nil, watchdog{}, fmt.Errorf("sandbox: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		prep.Cleanup()
		return nil, watchdog{}, err
	}
	cmd.Dir = dir
	cmd.ExtraFiles = []*os.File{r} // fd 3
	return cmd, watchdog{r: r, w: w, prep: prep}, nil
}
