package tools

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/internal/allowrule"
)

// gitSafeConfig is the configuration auto-allowed git runs with, given in
// the environment (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n):
// command scope, which wins over every configuration file. It switches off
// what runs a program git finds in a repository or its configuration rather
// than on the command line: a bare repository found by discovery (the
// agent can lay one out in any folder), the file-system monitor, hooks, the
// pager, editors, the ext:: transport and signature checks in log. Filter,
// textconv and diff/merge drivers, diff.external, credential helpers,
// core.sshCommand and include.path cannot be switched off by a key: git
// reads them only from configuration files, which the agent cannot write
// (docs/guard.md, "Auto-allowed git").
var gitSafeConfig = [][2]string{
	{"safe.bareRepository", "explicit"},
	{"core.fsmonitor", "false"},
	{"core.hooksPath", "/dev/null"},
	{"core.pager", "cat"},
	{"core.editor", ":"},
	{"sequence.editor", ":"},
	{"protocol.ext.allow", "never"},
	{"log.showSignature", "false"},
}

// gitDropped are the variables auto-allowed git does not inherit: those
// that choose another repository, work tree, index or object store, or
// bring configuration of their own (GIT_CONFIG_PARAMETERS would be read
// after ours and win).
var gitDropped = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
	"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR",
	"GIT_SHALLOW_FILE", "GIT_GRAFT_FILE", "GIT_REPLACE_REF_BASE", "GIT_QUARANTINE_PATH", "GIT_EXTERNAL_DIFF",
	"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_*", "GIT_CONFIG_VALUE_*", "GIT_CEILING_DIRECTORIES", "GIT_PAGER",
}

// gitSafety is what an auto-allowed git command's environment changes:
// variables set (NAME=value) and variables removed (names or globs).
type gitSafety struct {
	set  []string
	drop []string
}

// safeGitFor returns the safety for a command permitted by an allow rule
// (rule != "") whose command is git, run in dir (a workspace root); the
// zero gitSafety (nothing changes) for anything else: a command the user
// confirmed runs as the user would run it, hooks included.
func safeGitFor(rule, command, dir string) gitSafety {
	if rule == "" || !isGit(command) {
		return gitSafety{}
	}
	set := []string{
		fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(gitSafeConfig)),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir),
		"GIT_PAGER=cat",
	}
	for i, kv := range gitSafeConfig {
		set = append(set, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, kv[1]))
	}
	return gitSafety{set: set, drop: gitDropped}
}

// isGit reports whether a command line runs git: its command is git, or
// a command that runs another (`timeout 60 git fetch`, `nohup git
// status`, which an exact rule may allow) with a word git after it.
func isGit(command string) bool {
	c, err := allowrule.Parse(command)
	if err != nil {
		return false
	}
	words := c.Words()
	if allowrule.CommandName(words[0]) == "git" {
		return true
	}
	if !allowrule.RunsAnother(allowrule.CommandName(words[0])) {
		return false
	}
	for _, w := range words[1:] {
		if allowrule.CommandName(w) == "git" {
			return true
		}
	}
	return false
}

// apply is environ without the dropped variables, with the set ones.
func (g gitSafety) apply(environ []string) []string {
	if len(g.set) == 0 && len(g.drop) == 0 {
		return environ
	}
	out := make([]string, 0, len(environ)+len(g.set))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !envDenied(name, g.drop) && !envDenied(name, g.setNames()) {
			out = append(out, kv)
		}
	}
	return append(out, g.set...)
}

// setNames are the names of the variables set.
func (g gitSafety) setNames() []string {
	names := make([]string, 0, len(g.set))
	for _, kv := range g.set {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name)
	}
	return names
}

// terminalDrop are the dropped variables an editor's terminal must unset
// after setting ours: every dropped one except those we set (the terminal
// sets our variables first, then unsets the denied ones).
func (g gitSafety) terminalDrop() []string {
	set := g.setNames()
	var out []string
	for _, d := range g.drop {
		if !envDenied(d, set) && !strings.HasPrefix(d, "GIT_CONFIG_KEY_") && !strings.HasPrefix(d, "GIT_CONFIG_VALUE_") {
			out = append(out, d)
		}
	}
	return out
}
