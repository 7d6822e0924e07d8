//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// reachableBy reports whether u (nil: agentls's own user, who found the
// path) can look path up: every folder above it searchable by u's uid or
// gid, or by others. bwrap, run as u, must reach a path to mount over it;
// a socket u cannot reach, u cannot connect to either.
func reachableBy(path string, u *User) bool {
	if u == nil || u.UID == 0 {
		return true
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err != nil {
			return false
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return false
		}
		perm := fi.Mode().Perm()
		switch {
		case st.Uid == u.UID:
			if perm&0o100 == 0 {
				return false
			}
		case st.Gid == u.GID:
			if perm&0o010 == 0 {
				return false
			}
		case perm&0o001 == 0:
			return false
		}
		if filepath.Dir(dir) == dir {
			return true
		}
	}
}
