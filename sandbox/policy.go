// Package sandbox starts the processes agentls runs confined: Landlock,
// applied by a re-exec'd launcher (`agentls sandbox-exec`) right before it
// execs the command, and bubblewrap's namespaces around it when bwrap is
// usable. It reports what it could enforce (Status). It imports nothing of
// agentls: callers give it paths, not configuration.
package sandbox

import (
	"github.com/agentls/agentls/internal/canon"
	"path/filepath"
	"slices"
)

// Mode is the configured sandbox mode (config key sandbox.mode).
type Mode string

// The modes.
const (
	// ModeAuto uses every layer this machine offers.
	ModeAuto Mode = "auto"
	// ModeLandlock uses Landlock only.
	ModeLandlock Mode = "landlock"
	// ModeBwrap uses bubblewrap only.
	ModeBwrap Mode = "bwrap"
	// ModeOff starts commands as they are, unconfined.
	ModeOff Mode = "off"
)

// User is a numeric user and group to run the command as (tests running
// as root confine a non-root child); nil runs it as agentls's own user.
type User struct{ UID, GID uint32 }

// Policy is what one command may do.
type Policy struct {
	// Mode picks the layers ("" is ModeAuto).
	Mode Mode
	// Writable are the folders the command may write (the workspace
	// folders and sandbox.allow_write), minus ReadOnly and DenyRead.
	Writable []string
	// ProtectGit keeps each writable folder's .git read-only (set for
	// commands that run without asking the user).
	ProtectGit bool
	// ReadOnly are paths kept read-only even inside a writable folder;
	// each writable folder's .agentls is added always.
	ReadOnly []string
	// MountReadOnly are paths kept read-only only where bubblewrap runs:
	// under Landlock alone a read-only path takes the rights to create,
	// remove and rename entries from every folder above it, and the folder
	// above these must keep them (a git folder where an approved git
	// command creates its lock files next to hooks/).
	MountReadOnly []string
	// Fixed are folders inside a writable one whose own entries the
	// command can neither create, remove nor rename, while the folders and
	// files already in them stay writable (but ReadOnly and DenyRead): a
	// repository's git folder, where a new `commondir` or a `hooks` folder
	// renamed away and made anew would lead git elsewhere.
	Fixed []string
	// DenyRead are paths the command can neither read nor write.
	DenyRead []string
	// Network lets the command reach the network; without it, and with
	// bwrap, it gets a network namespace of its own (loopback only).
	Network bool
	// CacheDir is a writable folder for build caches (GOCACHE,
	// npm_config_cache…, pointed into it); "" leaves the caches alone.
	CacheDir string
	// RunAs runs the command as another user (tests); nil: agentls's user.
	RunAs *User
	// UntrustedPath are folders (the workspace folders) whose entries on
	// PATH the command does not get, beside relative entries, which it
	// never gets (searchPath): a program the agent put there would answer
	// to an allowed command's name.
	UntrustedPath []string
}

// secretHomePlaces are the places under a home folder that hold
// credentials or sessions and that no build or test reads: keys, cloud
// and registry logins, tokens, browsers' and mail's profiles (cookies:
// the user's sessions), password stores. A database client's password
// file (~/.pgpass, ~/.my.cnf) is not among them: a project's tests may
// reach a local database with it (sandbox.deny_read adds it).
var secretHomePlaces = []string{
	".ssh", ".aws", ".gnupg", ".netrc", ".config/gh", ".git-credentials", ".docker", ".kube", ".npmrc", ".pypirc",
	".config/gcloud", ".azure", ".oci", ".config/doctl", ".s3cfg", ".boto", ".config/rclone",
	".vault-token", ".terraform.d/credentials.tfrc.json", ".config/containers/auth.json",
	".cargo/credentials.toml", ".cargo/credentials", ".gem/credentials", ".m2/settings-security.xml",
	".config/glab-cli", ".config/hub",
	".mozilla", "snap/firefox/common/.mozilla", ".config/google-chrome", ".config/chromium",
	"snap/chromium/common/chromium", ".config/BraveSoftware", ".config/microsoft-edge", ".thunderbird",
	".local/share/keyrings", ".password-store",
}

// DefaultDenyRead are the secret places under home no command reads
// (secretHomePlaces).
func DefaultDenyRead(home string) []string {
	if home == "" {
		return nil
	}
	out := make([]string, len(secretHomePlaces))
	for i, n := range secretHomePlaces {
		out[i] = filepath.Join(home, filepath.FromSlash(n))
	}
	return out
}

// readOnly is every read-only path of p: ReadOnly, MountReadOnly when
// bubblewrap's mounts keep them (mounted), and each writable folder's
// .agentls (and .git when ProtectGit).
func (p Policy) readOnly(mounted bool) []string {
	out := slices.Clone(p.ReadOnly)
	if mounted {
		out = append(out, p.MountReadOnly...)
	}
	for _, w := range p.Writable {
		out = append(out, filepath.Join(w, ".agentls"))
		if p.ProtectGit {
			out = append(out, filepath.Join(w, ".git"))
		}
	}
	return cleanAll(out)
}

// cleanAll makes every path absolute and clean, drops empty ones and
// duplicates, and sorts them.
func cleanAll(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if a, err := filepath.Abs(p); err == nil {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// within reports whether path is dir or inside it (both clean, absolute).
func within(path, dir string) bool {
	if path == dir {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != ".."+string(filepath.Separator))
}

// resolveAll is cleanAll of paths and, for each that exists through a
// symbolic link, of its target too: Landlock's rules and bwrap's mounts
// act on what the path names, not on its spelling.
func resolveAll(paths []string) []string {
	out := cleanAll(paths)
	for _, p := range out {
		if r, err := canon.Path(p); err == nil && r != p { // the one canonicaliser (workspace.Canonical)
			out = append(out, r)
		}
	}
	return cleanAll(out)
}
