package tools

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentls/agentls/sandbox"
)

// keptPaths are the paths a command's sandbox kept read-only, as they
// existed when it started: what differs at or below them afterwards was
// not the command's doing (the editor's own writes while it ran:
// JetBrains saving .idea/workspace.xml), so the after-command check
// neither asks about it nor undoes it. Under Landlock alone, which has no
// right for chmod, a changed mode still counts.
type keptPaths struct {
	paths []string
	// modeOnly: only mode changes can have been the command's (Landlock
	// alone).
	modeOnly bool
}

// keptBySandbox is what the policy pol kept read-only under the layers
// status says the command runs with: nothing when no layer confines it;
// with bubblewrap its read-only mounts too; with Landlock alone not the
// paths only bubblewrap keeps (policy.MountReadOnly).
func keptBySandbox(pol sandbox.Policy, status sandbox.Status) keptPaths {
	if !status.Confines() {
		return keptPaths{}
	}
	bwrap := strings.Contains(status.Mode, "bwrap")
	paths := slices.Clone(pol.ReadOnly)
	if bwrap {
		paths = append(paths, pol.MountReadOnly...)
	}
	if pol.ProtectGit {
		for _, w := range pol.Writable {
			paths = append(paths, filepath.Join(w, ".git"))
		}
	}
	for i, p := range paths {
		paths[i] = filepath.Clean(p)
	}
	return keptPaths{paths: paths, modeOnly: !bwrap}
}

// notTheCommands reports whether c, a difference the after-command check
// found, lies at or below a path the sandbox kept read-only and is of a
// kind the command could not make there: its own entry existed before
// the command (a new entry in a kept folder could not be made either)
// and no kept path on the way to it was a symbolic link (a link named
// like an auto-run file is kept at its target, and under bubblewrap the
// link itself can be replaced).
func (k keptPaths) notTheCommands(c autoRunChange, before *autoRunSnap) bool {
	kept := ""
	for _, p := range k.paths {
		if c.abs == p || strings.HasPrefix(c.abs, p+string(filepath.Separator)) {
			kept = p
			break
		}
	}
	if kept == "" {
		return false
	}
	for p := c.abs; ; p = filepath.Dir(p) {
		if e, ok := before.entries[p]; ok && e.mode&fs.ModeSymlink != 0 {
			return false
		}
		if p == kept || p == filepath.Dir(p) {
			break
		}
	}
	if k.modeOnly && c.before != nil && c.after != nil && c.before.mode.Type() == c.after.mode.Type() && c.before.sameContent(*c.after) {
		return false // a chmod: Landlock cannot refuse it
	}
	return true
}
