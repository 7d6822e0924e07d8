package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/internal/canon"
)

// searchPath is value (a PATH) without the entries a confined command
// must not look programs up in: relative ones (an empty entry, `.`,
// `node_modules/.bin`: resolved from the command's folder, which is in
// the workspace) and those at or below one of folders (clean, absolute,
// symlinks resolved; the workspace folders, which the agent writes), by
// the entry as written and as its symlinks lead. Otherwise an executable
// the agent put there would answer to the name of the program the user or
// an allow rule allowed (`git status` running the workspace's `git`).
func searchPath(value string, folders []string) string {
	var kept []string
	for _, e := range filepath.SplitList(value) {
		if e == "" || !filepath.IsAbs(e) {
			continue
		}
		c := filepath.Clean(e)
		if underAny(c, folders) {
			continue
		}
		if r, err := canon.Path(c); err == nil && underAny(r, folders) {
			continue
		}
		kept = append(kept, e)
	}
	return strings.Join(kept, string(os.PathListSeparator))
}

// Environ is environ as a process under pol gets it from agentls: PATH
// without the entries searchPath drops, whether or not a sandbox confines
// the process (the launcher drops them again from whatever environment it
// is given, an ACP client's terminal's too). Set it as the process's
// environment: what the process starts is looked up there.
func Environ(pol Policy, environ []string) []string {
	out := make([]string, len(environ))
	for i, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + searchPath(v, cleanAll(pol.UntrustedPath))
		}
		out[i] = kv
	}
	return out
}

// LookUp is name found on agentls's own PATH without the entries a
// confined command does not get (relative ones, and those at or below
// untrusted, the workspace folders), or name itself when it holds a slash
// or is not found: for a program agentls starts itself, outside any
// sandbox, for the workspace (the after-command check's git), which must
// never be one a command put on PATH.
func LookUp(name string, untrusted []string) string {
	return lookUp(name, resolveAll(untrusted))
}

// SearchPath is value (a PATH) without the entries LookUp does not look in.
func SearchPath(value string, untrusted []string) string {
	return searchPath(value, resolveAll(untrusted))
}

// lookUp is name found on agentls's own PATH without the entries
// searchPath drops, or name itself when it holds a slash or is not found
// (starting it then fails as it would have).
func lookUp(name string, folders []string) string {
	if strings.ContainsRune(name, filepath.Separator) {
		return name
	}
	for _, dir := range filepath.SplitList(searchPath(os.Getenv("PATH"), folders)) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return name
}
