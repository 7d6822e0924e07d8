package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/sandbox"
)

// runPolicy is the sandbox policy of one run command, built here only
// (CommandPolicy): the repositories stay read-only for a command that runs
// without asking (autoAllowed), their hooks and configuration for one the
// user approved; the network only for commands run.network allows.
func runPolicy(env Env, command string, autoAllowed bool) sandbox.Policy {
	p, _, _ := runPolicyScan(env, command, autoAllowed)
	return p
}

// runPolicyScan is runPolicy, with the walk it made of the workspace and
// the command's approval (for the check after it, sentinel.go).
func runPolicyScan(env Env, command string, autoAllowed bool) (sandbox.Policy, workspaceScan, Approval) {
	cfg := env.Config()
	folders := env.Workspace().Folders()
	a := Unasked
	if !autoAllowed {
		home, _ := os.UserHomeDir()
		a = approvedCommand(command, pathFolders(folders, home))
		if cfg.Sandbox.AllowGitConfig && a.Tool == "" {
			a.Tool = "git" // sandbox.allow_git_config: as git itself may
			a.AnyGitConfig = true
		}
	}
	scan := scanWorkspace(folders)
	return policyOf(cfg, folders, NetworkAllowed(cfg.Run.Network, command), a, scan), scan, a
}

// CommandPolicy is the sandbox of a process agentls starts for the
// workspace folders under cfg (the run tool's commands, MCP stdio
// servers, language servers): writable are the folders and
// sandbox.allow_write; unreadable the built-in secret places,
// sandbox.deny_read and agentls's own state and config folders; read-only
// every auto-run file and folder in the workspace (guard.IsAutoRunName),
// and every repository in it for a process nobody was asked about (a is
// Unasked), or, for a command the user approved, each repository's hooks
// and configuration (guardRepos); the network only when network (and a
// layer can switch it off); caches in the workspace's cache folder. One
// bounded walk of the workspace finds them all (scanWorkspace).
func CommandPolicy(cfg config.Config, folders []string, network bool, a Approval) sandbox.Policy {
	return policyOf(cfg, folders, network, a, scanWorkspace(folders))
}

// policyOf is CommandPolicy from a walk already made.
func policyOf(cfg config.Config, folders []string, network bool, a Approval, scan workspaceScan) sandbox.Policy {
	home, _ := os.UserHomeDir()
	deny := append(sandbox.DefaultDenyRead(home), expandHome(cfg.Sandbox.DenyRead, home)...)
	if state := config.StateDir(os.Getenv); state != "" {
		deny = append(deny, state)
	}
	deny = append(deny, config.UserDirs(os.Getenv)...)
	writable := append(append([]string(nil), folders...), expandHome(cfg.Sandbox.AllowWrite, home)...)
	readOnly := scan.autoRun
	var repos repoGuard
	if !a.User {
		// Every repository in the workspace, not only each folder's .git,
		// and the git folders `.git` files name (gitlink.go).
		readOnly = append(append(readOnly, scan.vcs...), namedGitDirs(scan.vcs)...)
	} else {
		// A worktree's or submodule's .git is a file naming a git folder
		// elsewhere: a command the user approved may commit there too.
		// Only a link git itself laid out counts (gitlink.go).
		for _, f := range folders {
			writable = append(writable, linkedGitDirs(f, writable)...)
		}
		repos = guardRepos(scan.vcs, a)
		readOnly = append(readOnly, repos.readOnly...)
	}
	return sandbox.Policy{
		Mode:          sandbox.Mode(cfg.Sandbox.Mode),
		Writable:      writable,
		ProtectGit:    !a.User,
		ReadOnly:      readOnly,
		MountReadOnly: repos.mountReadOnly,
		Fixed:         repos.fixed,
		DenyRead:      deny,
		Network:       network,
		CacheDir:      cacheDir(folders),
		// No program is looked up in a folder the agent writes.
		UntrustedPath: pathFolders(folders, home),
	}
}

// pathFolders are the workspace folders whose PATH entries a command does
// not get (sandbox.Policy.UntrustedPath), all but the home folder: a
// workspace there is held to plan mode, where the agent writes only .plan
// files and no command runs, while the language servers and MCP servers
// it starts are found in ~/go/bin, ~/.cargo/bin, ~/.local/bin.
func pathFolders(folders []string, home string) []string {
	var out []string
	for _, f := range folders {
		if home != "" && (filepath.Clean(f) == filepath.Clean(home) || sameFile(f, home)) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// sameFile reports whether a and b name the same existing folder.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// expandHome makes ~/… paths absolute under home (paths that are neither
// absolute nor ~/… are left out: the schema refuses them).
func expandHome(paths []string, home string) []string {
	var out []string
	for _, p := range paths {
		switch {
		case strings.HasPrefix(p, "~/") && home != "":
			out = append(out, filepath.Join(home, p[2:]))
		case filepath.IsAbs(p):
			out = append(out, p)
		}
	}
	return out
}

// NetworkAllowed reports whether a run.network rule matches command (a
// command that is not one simple command matches none).
func NetworkAllowed(rules []string, command string) bool {
	if len(rules) == 0 {
		return false
	}
	parsed, err := allowrule.Parse(strings.TrimSpace(command))
	if err != nil {
		return false
	}
	rs, _ := allowrule.ParseRules(rules)
	return rs.Match(parsed, nil)
}

// cacheDir is the workspace's build cache folder,
// $XDG_CACHE_HOME/agentls/<hash of the first folder>, or "" when there is
// no cache folder.
func cacheDir(folders []string) string {
	base, err := os.UserCacheDir()
	if err != nil || len(folders) == 0 {
		return ""
	}
	sum := sha256.Sum256([]byte(folders[0]))
	return filepath.Join(base, "agentls", hex.EncodeToString(sum[:8]))
}

// CacheFolders are the cache folders agentls keeps for a workspace whose
// first folder is folder: run's (cacheDir) and the MCP servers' (MCPPolicy).
// A caller that removes a workspace for good (the demo's temporary one)
// removes these with it; nothing else reclaims them.
func CacheFolders(folder string) []string {
	run := cacheDir([]string{folder})
	if run == "" {
		return nil
	}
	return []string{run, run + "-mcp"}
}

// refusedPattern is output that a sandbox refusal leaves: EACCES, EPERM,
// EROFS, an unreachable network or name service, the launcher's failure.
var refusedPattern = regexp.MustCompile(`(?i)permission denied|operation not permitted|read-only file system|network is unreachable|could not resolve host|temporary failure in name resolution|EACCES|EPERM|EROFS|ENETUNREACH|agentls sandbox-exec:`)

// sandboxHint is what a failed command's result says about the sandbox
// when its output looks like a refusal ("" otherwise).
func sandboxHint(st sandbox.Status, network bool, exitCode int, output string) string {
	if exitCode == 0 || !st.Confines() {
		return ""
	}
	if i := strings.Index(output, "agentls sandbox-exec:"); i >= 0 {
		line, _, _ := strings.Cut(output[i:], "\n")
		return "the sandbox could not start the command: " + line
	}
	if !refusedPattern.MatchString(output) {
		return ""
	}
	h := "the sandbox may have refused this (" + st.Mode + "): commands write only in the workspace folders and their private TMPDIR — never .agentls/; never a repository's hooks, config or new files directly in .git/ (.hg/hgrc, .jj/repo/config.toml) unless the user approved a command that is only git (hg, jj), nor any of .git/ when run without asking; never the files that make an editor or shell run programs (.vscode/, .idea/, .zed/, .helix/, .envrc, .dir-locals.el, .nvim.lua, .exrc, *.code-workspace) — and cannot read ~/.ssh, ~/.aws and the like or agentls's own folders"
	switch {
	case !network && st.NoLoopback():
		h += "; this command had no network, not even loopback: a server it starts on 127.0.0.1 is refused too (run.network names the commands that get it; bubblewrap would give it a loopback of its own)"
	case !network:
		h += "; this command had no network (run.network names the commands that get it)"
	}
	return h + ". Do not retry the same way: ask the user, who can run it or change sandbox.* / run.network."
}
