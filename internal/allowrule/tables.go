package allowrule

import (
	"fmt"
	"path"
	"strings"
)

// wrappers run the command their arguments name (or code their arguments
// hold): a rule for one of them can only be an exact line without options,
// and a wildcard never matches one as its command (`*` does not allow `env
// x`). A wildcard after them would hand over any command, and their options
// choose what runs (`env -S`, `xargs -I`, `timeout -s`, `sudo -u`).
var wrappers = setOf(
	"env", "xargs", "sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "busybox",
	"sudo", "doas", "su", "pkexec", "runuser", "setpriv", "chroot", "unshare", "nsenter",
	"nohup", "timeout", "nice", "ionice", "setsid", "stdbuf", "taskset", "flock", "chrt", "time",
	"watch", "strace", "ltrace", "gdb", "script", "expect", "parallel", "ssh",
	"exec", "eval", "command", "builtin", ".", "source", "trap",
	"npx", "bunx", "pnpx", "awk", "gawk", "mawk", "nawk",
)

// optStyle is how a command spells options.
type optStyle int

const (
	// getopt: `--name[=v]` (any unambiguous prefix of a name counts, as
	// getopt_long and git accept `--out=`), `-abc` grouped letters with a
	// glued value (`-ofile`).
	getopt optStyle = iota
	// single: `-name[=v]` or `--name[=v]`, whole names (Go's flag package,
	// find's expressions).
	single
)

// table is a command's danger table: the options (and operands) that make
// it write outside the workspace, read what the read tool refuses, or run a
// program. Any of them asks, whatever the rule.
type table struct {
	style optStyle
	long  []string // getopt: long names; single: names
	// exact are getopt long names that are prefixes of a danger name but
	// are options of their own (git's --text is not --textconv).
	exact    []string
	prefixes []string // single: name prefixes (`test.`)
	short    string   // getopt: letters
	// singleLong: a single-dash word is also read as a long name (npm's nopt).
	singleLong bool
	// operands checks the words from index from on for operands that run or
	// write something (git's subcommand, sed's script), saying why.
	operands func(words []string, from int) string
	// code lists the indices of words that are a script or a pattern
	// (sed's script, grep's pattern), judged by operands, not as paths.
	code func(words []string) []int
}

// tables are the built-in danger tables, by command name.
var tables = map[string]*table{
	"git": {style: getopt, short: "oOcCx", long: []string{
		"output", "output-directory", "ext-diff", "textconv", "exec-path", "exec", "upload-pack", "receive-pack",
		"no-index", "git-dir", "work-tree", "config-env", "config", "namespace", "super-prefix",
		"open-files-in-pager", "bare", "template", "separate-git-dir", "extcmd", "file", "global", "system",
		"unsafe-paths", "web",
	}, exact: []string{"text"}, operands: gitOperands},
	"go": {style: single, long: []string{
		"exec", "toolexec", "o", "vettool", "modfile", "overlay", "C", "pkgdir", "args",
		"gcflags", "ldflags", "asmflags", "gccgoflags",
		"coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir",
		"fuzzcachedir", "testlogfile", "gocoverdir", "debug-actiongraph", "debug-deprunetrace", "debug-trace",
		"w", "u",
	}, prefixes: []string{"test."}},
	"find": {style: single, long: []string{"exec", "execdir", "ok", "okdir", "delete", "fls"}, prefixes: []string{"fprint"}},
	"sed":  {style: getopt, short: "if", long: []string{"in-place", "file"}, operands: sedOperands, code: sedScriptIndices},
	"grep": {style: getopt, code: grepPattern},
	"rg":   {style: getopt, long: []string{"pre"}, code: grepPattern},
	"tar": {style: getopt, short: tarDanger, long: []string{
		"checkpoint-action", "to-command", "use-compress-program", "info-script", "new-volume-script",
		"rsh-command", "rmt-command", "absolute-names", "files-from", "index-file", "volno-file",
	}, operands: tarOperands},
	"npm":   npmTable(setKeys(npmSubs)),
	"pnpm":  npmTable(append(setKeys(npmSubs), "dlx")),
	"yarn":  npmTable(append(setKeys(npmSubs), "dlx")),
	"bun":   npmTable(append(setKeys(npmSubs), "x")),
	"cargo": {style: getopt, short: "Z", long: []string{"config"}},
}

var npmSubs = setOf("exec", "x", "explore", "init", "innit", "create", "config", "c", "set", "link", "ln",
	"publish", "adduser", "add-user", "login", "logout", "token", "edit")

// npmSafeShort are the commands and aliases of npm and its kin that begin
// a risky subcommand's name but are not abbreviations of it (`npm i` and
// `npm in` are install, `npm add` is install, `npm t` is test, `npm s`
// and `npm se` are search).
var npmSafeShort = setOf("i", "in", "add", "t", "s", "se")

func npmTable(subs []string) *table {
	risky := setOf(subs...)
	// npm runs any unambiguous abbreviation of a command (`npm exe` is
	// exec, `npm conf` config, `npm pub` publish): a word that begins a
	// risky subcommand's name counts as it, unless it is a command of its
	// own.
	abbreviates := func(w string) string {
		if w == "" || npmSafeShort[w] {
			return ""
		}
		for _, sub := range subs {
			if len(w) < len(sub) && strings.HasPrefix(sub, w) {
				return sub
			}
		}
		return ""
	}
	return &table{style: getopt, singleLong: true, short: "cgC", long: []string{
		"prefix", "userconfig", "globalconfig", "script-shell", "shell", "call", "global", "location",
		"node-options", "git", "editor", "browser", "viewer", "cache", "init-module", "package",
	}, operands: func(words []string, from int) string {
		for _, i := range npmSubcommands(words) {
			if i < from {
				continue
			}
			if risky[words[i]] {
				return fmt.Sprintf("`%s %s` runs or installs a program the line does not name, or changes configuration outside the workspace", words[0], words[i])
			}
			if sub := abbreviates(words[i]); sub != "" {
				return fmt.Sprintf("`%s %s` may be read as `%s %s` (npm takes abbreviations), which runs or installs a program the line does not name, or changes configuration outside the workspace", words[0], words[i], words[0], sub)
			}
		}
		return ""
	}}
}

// npmSubcommands are the indices of the words npm (pnpm, yarn, bun) may
// take for its subcommand: the first word that is not an option, and,
// while the word before it is an option without `=` (which may take it as
// its value: `--loglevel silent`, `-w web`, yarn's `--cwd sub`; which of
// their many options do is each tool's own and changes between
// versions), the next such word too. After `--` the next word is the
// subcommand.
func npmSubcommands(words []string) []int {
	var out []int
	for i := 1; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			if i+1 < len(words) {
				out = append(out, i+1)
			}
			return out
		}
		if strings.HasPrefix(w, "-") && w != "-" {
			continue
		}
		out = append(out, i)
		prev := words[i-1]
		if i == 1 || !strings.HasPrefix(prev, "-") || prev == "-" || strings.Contains(prev, "=") {
			return out
		}
	}
	return out
}

// anyUse are wrappers whose every use hands over the environment or the
// command (env sets LD_PRELOAD, xargs builds commands): no "Always allow".
var anyUse = setOf("env", "xargs")

// codeWords are the indices of the words of a command line that its table
// reads as a script or a pattern rather than a path.
func codeWords(words []string) map[int]bool {
	t := tables[commandName(words[0])]
	if t == nil || t.code == nil {
		return nil
	}
	m := map[int]bool{}
	for _, i := range t.code(words) {
		m[i] = true
	}
	return m
}

// grepPattern is grep's (and rg's) pattern operand, when no -e or -f gives
// the patterns.
func grepPattern(words []string) []int {
	for _, w := range words[1:] {
		if w == "-e" || w == "-f" || strings.HasPrefix(w, "--regexp") || strings.HasPrefix(w, "--file") {
			return nil
		}
	}
	if i := firstOperand(words, 1, setOf("-m", "-A", "-B", "-C", "-g", "-t", "-T", "--max-count", "--context", "--glob", "--type")); i < len(words) {
		return []int{i}
	}
	return nil
}

// CommandName is the name a command word runs, as the danger tables know
// it (`/usr/bin/GIT.exe` is git).
func CommandName(w string) string { return commandName(w) }

// RunsAnother reports whether a command (by CommandName) runs the command
// its arguments name (nohup, timeout, sh, env, …): a rule for it can only
// be an exact line.
func RunsAnother(name string) bool { return wrappers[name] }

// commandName is the name a command word runs, as the tables know it: the
// last path element, letter case folded (a case-insensitive file system
// runs `GIT` as git), without `.exe`.
func commandName(w string) string {
	name := strings.ToLower(path.Base(strings.ReplaceAll(w, `\`, "/")))
	return strings.TrimSuffix(name, ".exe")
}

// dangerous says why the words from index from on (those a rule's wildcard
// matched) run, write or reach something the rule does not name, or "".
func dangerous(words []string, from int) string {
	name := commandName(words[0])
	if wrappers[name] && from < len(words) {
		return fmt.Sprintf("%s runs the command its arguments name, so only an exact rule (no `*`, no options) allows it", name)
	}
	return tableDanger(name, words, from)
}

// tableDanger applies the command's danger table to the words from index
// from on.
func tableDanger(name string, words []string, from int) string {
	t := tables[name]
	if t == nil {
		return ""
	}
	for _, w := range words[max(from, 1):] {
		if opt := t.option(w); opt != "" {
			return fmt.Sprintf("`%s` is %s, an option of %s's danger table (it writes a file, runs a program or reaches outside the workspace)", w, opt, name)
		}
	}
	if t.operands != nil {
		return t.operands(words, from)
	}
	return ""
}

// option returns the danger-table option a word spells ("--output", "-o"),
// or "". Every spelling counts: `--output=x`, `--output x`, an abbreviation
// (`--out=x`), a letter in a group (`-xo`, `-ofile`). A word after `--` is
// checked too: not every command honours `--` (find does not).
func (t *table) option(w string) string {
	if len(w) < 2 || w[0] != '-' || w == "--" {
		return ""
	}
	if t.style == single {
		name, _, _ := strings.Cut(strings.TrimPrefix(w[1:], "-"), "=")
		for _, n := range t.long {
			if name == n {
				return "-" + n
			}
		}
		for _, p := range t.prefixes {
			if strings.HasPrefix(name, p) {
				return "-" + name
			}
		}
		return ""
	}
	if strings.HasPrefix(w, "--") || t.singleLong {
		name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
		for _, n := range t.exact {
			if name == n {
				return ""
			}
		}
		for _, n := range t.long {
			if name != "" && strings.HasPrefix(n, name) {
				return "--" + n
			}
		}
		if strings.HasPrefix(w, "--") {
			return ""
		}
	}
	for _, r := range w[1:] {
		if strings.ContainsRune(t.short, r) {
			return "-" + string(r)
		}
	}
	return ""
}

// gitValueOptions are git's global options that take the next word as
// their value.
var gitValueOptions = setOf("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path", "--list-cmds", "--attr-source")

// gitRiskySubs are git commands that run a program, serve or send the
// repository, or change configuration. Every subcommand whose name begins
// with "credential" is risky too (gitOperands): git runs
// `git credential-<x>` as the helper git-credential-<x>, which prints a
// stored password (libsecret, osxkeychain, manager, netrc…) or starts a
// daemon (credential-cache--daemon).
var gitRiskySubs = setOf("config", "filter-branch", "difftool", "mergetool", "instaweb", "daemon", "web--browse",
	"submodule--helper", "merge-index", // what `submodule foreach` runs; runs its program for each unmerged file
	"hook", "upload-pack", "receive-pack", "upload-archive",
	"remote-ext", "remote-fd", "send-email", "imap-send", "archimport", "cvsimport", "cvsserver", "cvsexportcommit",
	"p4", "svn", "shell", "http-backend", "http-fetch", "http-push", "sh-setup", "fsmonitor--daemon")

// gitRemoteSubs take -u as --upload-pack.
var gitRemoteSubs = setOf("clone", "ls-remote", "fetch", "pull", "archive")

// gitOperands: a wildcard never picks a risky git command, nor `submodule
// foreach` or `bisect run`, which run the words after them.
func gitOperands(words []string, from int) string {
	i := firstOperand(words, 1, gitValueOptions)
	if i >= len(words) {
		return ""
	}
	// Matched in lower case: on a case-insensitive file system (macOS's
	// default) `git Config` and `git Credential-osxkeychain` find
	// git-config and git-credential-osxkeychain in git's exec path.
	sub := strings.ToLower(words[i])
	if i >= from && strings.HasPrefix(sub, "credential") {
		return fmt.Sprintf("`git %s` is a credential helper: it prints stored passwords or starts a daemon", sub)
	}
	if i >= from && gitRiskySubs[sub] {
		return fmt.Sprintf("`git %s` runs a program, serves the repository or changes configuration", sub)
	}
	if gitRemoteSubs[sub] {
		for _, w := range words[max(from, i+1):] {
			if len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsRune(w, 'u') {
				return fmt.Sprintf("`%s` holds -u, which names the program `git %s` runs for the other side (--upload-pack)", w, sub)
			}
		}
	}
	runner := map[string]string{"submodule": "foreach", "bisect": "run"}[sub]
	for _, w := range words[max(from, i+1):] {
		if runner != "" && w == runner {
			return fmt.Sprintf("`git %s %s` runs the command its arguments name", sub, w)
		}
	}
	return ""
}

// tarDanger are tar's danger letters: -I (compress program), -F (volume
// script), -P (absolute names), -T (names from a file).
const tarDanger = "IFPT"

// tarOperands: tar reads its first argument as a bundle of option letters
// even without a dash (`tar cfI x prog`).
func tarOperands(words []string, from int) string {
	if len(words) < 2 || from > 1 || strings.HasPrefix(words[1], "-") {
		return ""
	}
	for _, r := range words[1] {
		if strings.ContainsRune(tarDanger, r) {
			return fmt.Sprintf("`%s` is tar's bundle of options and holds -%c, an option of tar's danger table", words[1], r)
		}
	}
	return ""
}

// firstOperand is the index of the first word from start on that is not an
// option (nor the value of one of valueOpts, given separately), or
// len(words).
func firstOperand(words []string, start int, valueOpts map[string]bool) int {
	for i := start; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			return i + 1
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			return i
		}
		if valueOpts[w] {
			i++
		}
	}
	return len(words)
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func setKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
