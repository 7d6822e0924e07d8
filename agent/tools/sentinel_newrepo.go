package tools

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentls/agentls/sandbox"
)

// A repository the command created (its `.git` did not exist before) has
// no configuration of before to compare with, yet its `config` runs
// programs as soon as git runs there — and VS Code's git extension opens
// a nested repository and runs `git status` in it by itself
// (core.fsmonitor). So a new repository's `config` is read (with git
// itself, the one reliable parser of its syntax) and reported when it
// holds any key beyond newRepoKeys: what `git init` and `git clone` write
// by themselves, none of which runs a program. On Remove it is rewritten
// with only those keys (a clone keeps its remote and branches), or
// removed when it cannot be read (docs/guard.md "After the command").

// newRepoKey is one allowed key: section and variable as git lists them
// (lower case), and whether it has a subsection (remote.<name>.url).
type newRepoKey struct {
	section, variable string
	sub               bool
}

// newRepoKeys are the keys a new repository's configuration may hold
// without being asked about. None runs a program or names one: not
// core.worktree (checkout would write elsewhere), remote.*.uploadpack,
// remote.*.receivepack, remote.*.vcs, submodule.*.update (`!command`),
// nothing under protocol.* (protocol.ext.allow lets a remote's url run a
// program), include, alias, filter, diff, merge, credential, gpg or
// extensions.worktreeconfig (config.worktree is not read here).
var newRepoKeys = func() map[newRepoKey]bool {
	m := map[newRepoKey]bool{}
	for _, k := range []string{
		"core.repositoryformatversion", "core.filemode", "core.bare", "core.logallrefupdates",
		"core.ignorecase", "core.precomposeunicode", "core.symlinks", "core.autocrlf", "core.eol",
		"core.sparsecheckout", "core.sparsecheckoutcone",
		"extensions.objectformat", "extensions.refstorage", "extensions.partialclone",
		"user.name", "user.email", "init.defaultbranch", "submodule.active",
	} {
		section, variable, _ := strings.Cut(k, ".")
		m[newRepoKey{section, variable, false}] = true
	}
	for _, k := range []string{
		"remote.url", "remote.pushurl", "remote.fetch", "remote.push", "remote.tagopt", "remote.mirror",
		"remote.prune", "remote.promisor", "remote.partialclonefilter",
		"branch.remote", "branch.merge", "branch.pushremote", "branch.rebase", "branch.description",
		"submodule.url", "submodule.active",
	} {
		section, variable, _ := strings.Cut(k, ".")
		m[newRepoKey{section, variable, true}] = true
	}
	return m
}()

// configEntry is one key and value as `git config --list --null` gives
// them; set is false for a key written without `=` (a true boolean).
type configEntry struct {
	key, value string
	set        bool
}

// splitConfigKey splits a key as git lists it: section and variable are
// the first and last dot-separated parts, what lies between (dots
// included, possibly empty) the subsection.
func splitConfigKey(key string) (section, sub, variable string, hasSub bool) {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return key, "", "", false
	}
	if first == last {
		return key[:first], "", key[last+1:], false
	}
	return key[:first], key[first+1 : last], key[last+1:], true
}

// allowedNewRepoKey reports whether key (as git lists it) is one a new
// repository may hold without being asked about.
func allowedNewRepoKey(key string) bool {
	section, _, variable, hasSub := splitConfigKey(key)
	return newRepoKeys[newRepoKey{strings.ToLower(section), strings.ToLower(variable), hasSub}]
}

// newRepoConfig is what a new repository's configuration holds.
type newRepoConfig struct {
	// flagged are the keys beyond newRepoKeys, in the file's order, each
	// once; empty when the file holds nothing else.
	flagged []string
	// settings are those keys with their values, each as often as the
	// file sets it: what Keep keeps, all shown.
	settings []configEntry
	// unreadable says why git could not read the file ("" when it
	// could): then it is reported whole and removed on Remove.
	unreadable string
	// clean is the file with only the allowed keys, checked by git to
	// list exactly those; nil when it could not be written so (then the
	// file is removed on Remove).
	clean []byte
}

// readNewRepoConfig judges a new repository's configuration file's
// content (read within the snapshot's caps) with git, confined by list
// (listPolicy).
func readNewRepoConfig(data []byte, list sandbox.Policy) newRepoConfig {
	entries, err := gitListConfig(data, list)
	if err != nil {
		return newRepoConfig{unreadable: "git cannot read it: " + err.Error()}
	}
	var out newRepoConfig
	var kept []configEntry
	seen := map[string]bool{}
	for _, e := range entries {
		if allowedNewRepoKey(e.key) {
			kept = append(kept, e)
			continue
		}
		out.settings = append(out.settings, e)
		if !seen[e.key] {
			seen[e.key] = true
			out.flagged = append(out.flagged, e.key)
		}
	}
	if len(out.flagged) == 0 {
		return out
	}
	out.clean = writeConfig(kept)
	if again, err := gitListConfig(out.clean, list); err != nil || !slices.Equal(again, kept) {
		out.clean = nil // what git would not read back as written: removed whole on Remove
	}
	return out
}

// writeConfig writes entries (allowed keys: plain section and variable
// names) in git's configuration syntax, each value quoted.
func writeConfig(entries []configEntry) []byte {
	var b bytes.Buffer
	last := ""
	for _, e := range entries {
		section, sub, variable, hasSub := splitConfigKey(e.key)
		header := "[" + section + "]\n"
		if hasSub {
			header = "[" + section + " \"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(sub) + "\"]\n"
		}
		if header != last {
			b.WriteString(header)
			last = header
		}
		b.WriteString("\t" + variable)
		if e.set {
			b.WriteString(" = \"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`).Replace(e.value) + "\"")
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// gitListTimeout bounds one `git config --list` of a new repository's
// configuration.
const gitListTimeout = 10 * time.Second

// listPolicy is the sandbox of the git that lists a new repository's
// configuration after the command whose policy is cmd, in folders: no
// network, nothing writable (but the launcher's private TMPDIR), neither
// the workspace folders nor what cmd cannot read readable, PATH as cmd
// trusts it, in cmd's mode. Listing only reads a copy; confined, a git
// bug a crafted configuration reaches cannot act with the user's rights.
func listPolicy(cmd sandbox.Policy, folders []string) sandbox.Policy {
	return sandbox.Policy{
		Mode:          cmd.Mode,
		DenyRead:      append(slices.Clone(cmd.DenyRead), folders...),
		UntrustedPath: cmd.UntrustedPath,
	}
}

// unconfinedListing logs once that a new repository's configuration is
// listed without a sandbox (mode off, or no layer usable here).
var unconfinedListing sync.Once

// gitListConfig lists the keys and values of configuration text with git
// itself: `git config --file <copy> --no-includes --null --list`, on a
// copy in a temporary folder (git reads exactly what was judged, never a
// link), with no system, global or environment configuration and no
// repository around it, with the git a command would find (never one on a
// PATH entry in list.UntrustedPath), confined by list (listPolicy; run as
// before, unconfined, when no sandbox layer is usable, and the log says
// so once). Listing only reads: nothing in the file makes git run a
// program while it lists. The temporary folder stands in this process's
// own (sandbox.TempRoot): a later agentls removes it when this one is
// killed during the listing. It is this user's (0700) in a folder this
// user can list: the confined git, run as this user, reads it under every
// layer (bubblewrap binds the whole tree read-only, Landlock grants every
// path but the denied ones).
func gitListConfig(data []byte, list sandbox.Policy) ([]configEntry, error) {
	root, err := sandbox.TempRoot()
	if err != nil {
		return nil, fmt.Errorf("make a temporary folder: %w", err)
	}
	dir, err := os.MkdirTemp(root, "agentls-newrepo-")
	if err != nil {
		return nil, fmt.Errorf("make a temporary folder: %w", err)
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		return nil, fmt.Errorf("make a temporary folder: %w", err)
	}
	file := filepath.Join(dir, "listed")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return nil, fmt.Errorf("copy the configuration: %w", err)
	}
	// A denied folder that holds the copy (a TMPDIR in the workspace)
	// would hide it: it stays readable.
	list.DenyRead = slices.DeleteFunc(slices.Clone(list.DenyRead), func(d string) bool { return d != "" && pathWithin(dir, d) })
	ctx, cancel := context.WithTimeout(context.Background(), gitListTimeout)
	defer cancel()
	// git as a command would find it, never one on a PATH entry in the
	// workspace: a command could have put it there.
	environ := []string{
		"PATH=" + sandbox.SearchPath(os.Getenv("PATH"), list.UntrustedPath), "HOME=" + home, "XDG_CONFIG_HOME=" + home, "LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir),
	}
	argv := []string{sandbox.LookUp("git", list.UntrustedPath), "config", "--file", file, "--no-includes", "--null", "--list"}
	var out []byte
	if st := sandbox.Detect().Status(list.Mode); st.Confines() {
		out, err = sandbox.Output(ctx, list, "", dir, argv, environ)
	} else {
		unconfinedListing.Do(func() {
			slog.Warn("run: a new repository's configuration is listed with git outside any sandbox", "sandbox", st.Summary)
		})
		out, err = unconfinedOutput(ctx, dir, argv, environ)
	}
	if err != nil {
		return nil, fmt.Errorf("git config --list: %w", err)
	}
	var entries []configEntry
	for _, item := range strings.Split(string(out), "\x00") {
		if item == "" {
			continue
		}
		key, value, set := strings.Cut(item, "\n")
		entries = append(entries, configEntry{key: key, value: value, set: set})
	}
	return entries, nil
}

// unconfinedOutput runs argv in dir with environ, outside any sandbox (no
// layer usable, or mode off), and returns its standard output.
func unconfinedOutput(ctx context.Context, dir string, argv, environ []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, environ
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// configKeyLabel is a key as the question shows it: a subsection's
// characters other than ASCII letters, digits, `.`, `-` and `/` shown as
// `?` (it is attacker-chosen text in a Markdown note), at most 60 long.
func configKeyLabel(key string) string {
	section, sub, variable, hasSub := splitConfigKey(key)
	if !hasSub {
		return key
	}
	s := []rune(strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-/", r)) {
			return r
		}
		return '?'
	}, sub))
	if len(s) > 40 {
		s = append(s[:40], '…')
	}
	return section + "." + string(s) + "." + variable
}

// settingLine is one setting as the question shows it, in full: `key =
// value`, or the key alone for one written without `=` (a true boolean).
func settingLine(e configEntry) string {
	if !e.set {
		return e.key + " (no value: true)"
	}
	return e.key + " = " + e.value
}

// settingLines are the settings beyond git's own as the question shows
// them, each as often as the file sets it (settingLine).
func (c newRepoConfig) settingLines() []string {
	out := make([]string, len(c.settings))
	for i, e := range c.settings {
		out[i] = settingLine(e)
	}
	return out
}

// describeNewRepoConfig says what a new repository's configuration (a, as
// the snapshot after the command recorded it; read with git confined by
// list) holds that is reported, "-"
// when nothing is, with every such setting and its value (settingLine: Keep
// keeps them all, so the question shows them all); and, when Remove can
// rewrite it with only the allowed keys, the entry to put back (nil:
// Remove removes the file).
func describeNewRepoConfig(a snapEntry, list sandbox.Policy) (what string, settings []string, clean *snapEntry) {
	switch {
	case a.mode.Type()&os.ModeSymlink != 0:
		return "created as a symbolic link (git reads what it leads to)", nil, nil
	case !a.mode.IsRegular():
		return "-", nil, nil // git cannot read a folder as its configuration: nothing runs
	case a.capped:
		return "created, over the size limit: its settings could not be read", nil, nil
	}
	cfg := readNewRepoConfig(a.data, list)
	if cfg.unreadable != "" {
		return "created, with settings git cannot read", nil, nil
	}
	if len(cfg.flagged) == 0 {
		return "-", nil, nil
	}
	settings = cfg.settingLines()
	const most = 8
	labels := make([]string, 0, most+1)
	for i, k := range cfg.flagged {
		if i == most {
			labels = append(labels, fmt.Sprintf("%d more", len(cfg.flagged)-most))
			break
		}
		labels = append(labels, configKeyLabel(k))
	}
	what = "created with settings beyond git's own (" + strings.Join(labels, ", ") + ")"
	if cfg.clean == nil {
		return what, settings, nil
	}
	e := a
	e.data, e.size = cfg.clean, int64(len(cfg.clean))
	return what, settings, &e
}
