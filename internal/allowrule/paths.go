package allowrule

import (
	"fmt"
	"strings"
)

// pathEscape says why a word the rule's wildcard matched may name a place
// outside the workspace, or "". The word is checked whole, after each
// `=` (`--output=/x`, `if=/x`) and, for a single-dash word, after its first
// letter (`-o/x`, `-f/x`): each of these is handed to inside as a path. An
// unquoted `~` at the start or after `=` or `:` is the home folder, outside.
func pathEscape(w string, inside PathCheck) string {
	if tildeAt(w) {
		return fmt.Sprintf("`%s` names the home folder (`~`), outside the workspace", unescape(w))
	}
	for _, p := range pathCandidates(unescape(w)) {
		if !inside(p) {
			return fmt.Sprintf("`%s` names a path outside the workspace or in a protected folder (%s)", unescape(w), p)
		}
	}
	return ""
}

// relativeEscape says why a word the rule spells, which names a relative
// path inside the workspace as written, now leads elsewhere (a symlink made
// since the rule was written), or "".
func relativeEscape(w string, inside PathCheck) string {
	u := unescape(w)
	if tildeAt(w) || !LexicalPaths(u) || inside(u) {
		return ""
	}
	return fmt.Sprintf("`%s` now resolves outside the workspace or into a protected folder", u)
}

// pathCandidates are the parts of a word (after quote removal) that a
// command may read as a path: the word, what follows each `=`, and for
// a single-dash word what follows its first letter and every later place a
// glued value may start (`-cf/x`). Paths inside lists (`-I/a:/b`) are not
// seen: the sandbox confines what the command reaches.
func pathCandidates(u string) []string {
	out := []string{u}
	for i := 0; i < len(u); i++ {
		if u[i] == '=' && i+1 < len(u) {
			out = append(out, u[i+1:]) // -replace=a=/x: after each =
		}
	}
	if len(u) > 2 && u[0] == '-' && u[1] != '-' {
		// a value glued to a letter of a group: -o/x, -cf/x, -C..
		for k := 2; k < len(u); k++ {
			if rest := u[k:]; rest[0] == '/' || strings.HasPrefix(rest, "..") || strings.HasPrefix(rest, "file:") || k == 2 {
				out = append(out, rest)
			}
		}
	}
	return out
}

// tildeAt reports an unquoted `~` where a shell may expand it to a home
// folder: at the start of the word, or after `=` or `:` (bash expands
// `--prefix=~/x` and `a:~/b`).
func tildeAt(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '\\':
			i++
		case '~':
			if i == 0 || w[i-1] == '=' || w[i-1] == ':' {
				return true
			}
		}
	}
	return false
}
