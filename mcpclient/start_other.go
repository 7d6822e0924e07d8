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

// networkIsolated reports whether a server started under pol can be kept
// off the network: never off Unix, where no sandbox confines it.
func networkIsolated(sandbox.Policy) bool { return false }

// sandboxMode is the layers a server runs under here: none off Unix.
func sandboxMode(sandbox.Policy) string { return "none" }
