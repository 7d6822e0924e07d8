//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// setUser runs cmd as u (nil: agentls's own user).
func setUser(cmd *exec.Cmd, u *User) {
	if u == nil {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: u.UID, Gid: u.GID, NoSetGroups: false, Groups: []uint32{}}
}

// chownFor gives path to u, who runs the command (nil: nothing to do).
func chownFor(path string, u *User) error {
	if u == nil {
		return nil
	}
	if err := os.Chown(path, int(u.UID), int(u.GID)); err != nil {
		return fmt.Errorf("sandbox: give %s to uid %d: %w", path, u.UID, err)
	}
	return nil
}
