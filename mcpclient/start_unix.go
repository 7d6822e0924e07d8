//go:build unix

package mcpclient

import (
	"fmt"
	"os/exec"

	"github.com/agentls/agentls/sandbox"
)

// serverCmd is the one place an MCP stdio server's process is made: the
// command behind the sandbox's watchdog (sandbox.WatchedCommand, as `run`:
// what is left in its group is killed when agentls ends, however it ends),
// in a process group of its own, in dir, with env, started in the sandbox
// of pol (the launcher, and bwrap when usable, around it; the profile
// `mcp`, docs/mcp.md). Start it with the Prepared's Start; its Terminate
// and Cleanup fire the watchdog.
func serverCmd(spec ServerSpec, dir string, env []string, pol sandbox.Policy) (*exec.Cmd, *sandbox.Prepared, error) {
	cmd, prep, err := sandbox.WatchedCommand(pol, "", append([]string{spec.Command}, spec.Args...), env) // PATH never into the workspace
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd.Dir = dir
	return cmd, prep, nil
}

// networkIsolated reports whether a server started under pol can be kept
// off the network: some sandbox layer confines it here (sandbox.Detect,
// as the questions' "Network:" reads it).
func networkIsolated(pol sandbox.Policy) bool {
	return sandbox.Detect().Status(pol.Mode).Confines()
}

// sandboxMode is the layers a server under pol runs under here ("none",
// "off", "bwrap"…).
func sandboxMode(pol sandbox.Policy) string { return sandbox.Detect().Status(pol.Mode).Mode }
