//go:build !unix

package mcpclient

import (
	"os"
	"os/exec"
)

// serverCmd makes an MCP stdio server's process (see start_unix.go); off
// Unix there is no process group or watchdog.
func serverCmd(spec ServerSpec, dir string, env []string) (*exec.Cmd, watchdog, error) {
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd, watchdog{}, nil
}

// killGroup kills the process p.
func killGroup(p *os.Process) {
	if p != nil {
		_ = p.Kill()
	}
}
