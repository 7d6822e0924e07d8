//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPromiseNoXattrChangeOutside: "never write … everything else"
// (docs/guard.md, Sandbox) covers a file's extended attributes, its POSIX
// ACLs among them (system.posix_acl_access: `setfacl -m o:r` on a key).
// Landlock has no right for them at any ABI, so under Landlock alone a
// command set and removed the xattrs of the user's files outside the
// workspace, in ~/.ssh and in .agentls (it failed before the xattr
// filter); bubblewrap mounts them read-only (EROFS) or hides them. Mode
// bits likewise: Landlock has no right for chmod either, and under
// Landlock alone a command changed them until the supervisor made each
// chmod itself where the command may write (chmod_linux.go).
func TestPromiseNoXattrChangeOutside(t *testing.T) {
	for _, mode := range []Mode{ModeAuto, ModeBwrap, ModeLandlock} {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			victims := map[string]string{
				"a file outside the workspace": filepath.Join(r.outside, "thesis.tex"),
				"a key in ~/.ssh":              filepath.Join(r.home, ".ssh", "id_ed25519"),
				"a session in .agentls":        filepath.Join(r.ws, ".agentls", "session.chat"),
			}
			for name, p := range victims {
				must(t, os.WriteFile(p, []byte("the user's work\n"), 0o600))
				must(t, os.Chmod(p, 0o600))
				if err := unix.Setxattr(p, "user.kept", []byte("k"), 0); err != nil {
					t.Skipf("no user xattrs here: %v", err)
				}
				if r.runAs != nil {
					must(t, os.Lchown(p, int(r.runAs.UID), int(r.runAs.GID)))
				}
				ops := []string{"setxattr", "lsetxattr", "fsetxattr", "removexattr", "chmod", "fchmod"}
				for _, op := range ops {
					out, code := r.run(r.policy(mode), nil, op, p)
					fi, err := os.Stat(p)
					must(t, err)
					if fi.Mode().Perm() != 0o600 {
						t.Errorf("%s: `%s` changed its mode to %v (exit %d: %s)", name, op, fi.Mode().Perm(), code, strings.TrimSpace(out))
						must(t, os.Chmod(p, 0o600))
					}
					if _, err := unix.Getxattr(p, "user.agentls", nil); err == nil {
						t.Errorf("%s: `%s` set an xattr (exit %d: %s)", name, op, code, strings.TrimSpace(out))
						must(t, unix.Removexattr(p, "user.agentls"))
					}
					if _, err := unix.Getxattr(p, "user.kept", nil); err != nil {
						t.Errorf("%s: `%s` removed an xattr (exit %d: %s)", name, op, code, strings.TrimSpace(out))
						must(t, unix.Setxattr(p, "user.kept", []byte("k"), 0))
					}
				}
			}
		})
	}
}
