//go:build !unix

package mcpclient

import (
	"os/exec"

	"github.com/agentls/agentls/sandbox"
)

// serverCmd makes an MCP stdio server's process (see start_unix.go); off
// Unix there is no process group, watchdog or sandbox.
func serverCmd(spec ServerSpec, dir string, env []string, _ sandbox.Policy) (*exec.Cmd, *sandbox.Prepared, error) {
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd, nil, nil // a nil Prepared starts and ends it as it is
}
