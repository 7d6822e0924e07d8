package tools

import (
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/sandbox"
)

// plainWrappers run the command their operands name after a fixed number
// of operands of their own (`timeout 60 git …`, `flock .lock git …`);
// their options count only when attached (`nice -n5`, `--signal=KILL`):
// an option whose value is a separate word, or one that takes a command
// (`flock -c`), makes the line no tool's (vcsTool fails closed).
var plainWrappers = map[string]int{
	"nohup": 0, "setsid": 0, "time": 0, "command": 0, "exec": 0, "nice": 0, "ionice": 0, "stdbuf": 0,
	"timeout": 1, "flock": 1, "taskset": 1, "chrt": 1,
}

// vcsTool is the version-control tool ("git", "hg" or "jj") that every
// simple command of a command line runs, directly or behind plainWrappers
// (`git fetch && timeout 60 git checkout --track origin/x`), or "" when the
// line runs anything else, or is more than simple commands joined by `;`,
// `&&`, `||`, `|` (a redirection, a substitution, a variable set for the
// command: allowrule.SimpleCommands). A command word counts as the tool
// only when it is the bare name, found on the PATH a command gets, or the
// path of the very program found so (untrusted: the PATH folders a
// command does not get, Policy.UntrustedPath): `tools/git` or `./git` is
// a script like any other. It picks which of a repository's files that
// tool's own work needs writable (CommandPolicy).
func vcsTool(command string, untrusted []string) string {
	cs, err := allowrule.SimpleCommands(command)
	if err != nil {
		return ""
	}
	tool := ""
	for _, c := range cs {
		t := wrappedTool(c.Words(), untrusted)
		if t == "" || (tool != "" && t != tool) {
			return ""
		}
		tool = t
	}
	return tool
}

// wrappedTool is the tool one simple command runs, past plainWrappers.
func wrappedTool(words []string, untrusted []string) string {
	for len(words) > 0 {
		name := allowrule.CommandName(words[0])
		if !trustedProgram(words[0], name, untrusted) {
			return ""
		}
		switch name {
		case "git", "hg", "jj":
			return name
		}
		operands, ok := plainWrappers[name]
		if !ok {
			return ""
		}
		words = words[1:]
		for len(words) > 0 && strings.HasPrefix(words[0], "-") && words[0] != "--" {
			if !attachedOption(words[0]) {
				return ""
			}
			words = words[1:]
		}
		if len(words) > 0 && words[0] == "--" {
			words = words[1:]
		}
		if len(words) < operands {
			return ""
		}
		words = words[operands:]
	}
	return ""
}

// attachedOption reports whether an option word carries its value, if
// any, itself (`-n5`, `--signal=KILL`, `-k5s`), and is not one that takes
// a command (`-c`, `--command=…`).
func attachedOption(w string) bool {
	if strings.HasPrefix(w, "--") {
		return strings.Contains(w, "=") && !strings.HasPrefix(w, "--command")
	}
	return len(w) > 2 && w[1] != 'c'
}

// trustedProgram reports whether a command word runs the program name
// that the PATH a command gets leads to: the bare name (the sandbox takes
// the workspace's entries off PATH, sandbox/path.go), or an absolute path
// to the same file (`/usr/bin/git`). A relative path (`tools/git`,
// `./nohup`) or any other absolute one runs whatever file is there.
func trustedProgram(word, name string, untrusted []string) bool {
	if !strings.ContainsAny(word, `/\`) {
		return true
	}
	if !filepath.IsAbs(word) {
		return false
	}
	found := sandbox.LookUp(name, untrusted)
	if !filepath.IsAbs(found) {
		return false
	}
	a, errA := filepath.EvalSymlinks(word)
	b, errB := filepath.EvalSymlinks(found)
	return errA == nil && errB == nil && a == b
}
