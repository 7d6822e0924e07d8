package acp

import (
	"log/slog"
	"strings"
)

// envScrub is the /bin/sh script that runs a command in the client's
// terminal without the variables the command must not get. The client's
// environment is not agentls's, so the names cannot be filtered before the
// start, as agentls's own shell does: the script unsets every variable
// whose name matches one of the case patterns, then runs the command ($1)
// with /bin/sh -c. %s is the patterns joined with |.
const envScrub = `for agentls_v in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p'); do
  case $agentls_v in %s) unset "$agentls_v" ;; esac
done
unset agentls_v
exec /bin/sh -c "$1"`

// terminalCommand is the terminal/create command and arguments for
// command: /bin/sh -c command, wrapped in envScrub when deny names
// variables (the model's key variable and run.env_deny).
func terminalCommand(command string, deny []string) (string, []string) {
	var pats []string
	for _, p := range deny {
		if p == "" {
			continue
		}
		pat, ok := casePattern(p)
		if !ok {
			// Such a pattern holds a character no variable name the script
			// sees can ([A-Za-z_][A-Za-z0-9_]*), or an odd class: it is
			// logged, never written into the script.
			slog.Warn("acp: a run.env_deny pattern is not applied in the client's terminal: only letters, digits, _, * ? and [classes] are", "pattern", p)
			continue
		}
		pats = append(pats, pat)
	}
	if len(pats) == 0 {
		return "/bin/sh", []string{"-c", command}
	}
	script := strings.Replace(envScrub, "%s", strings.Join(pats, "|"), 1)
	return "/bin/sh", []string{"-c", script, "agentls-run", command}
}

// casePattern writes a path.Match pattern as a sh case pattern with the
// same meaning, unquoted: letters, digits, _, the glob characters * ? and
// character classes, and backslash escapes of those. A class's negation
// `[^` becomes sh's `[!`. ok is false for anything else (a character the
// shell would read, a class that does not close, `[!`, which path.Match
// reads as the character !).
func casePattern(p string) (pat string, ok bool) {
	var b strings.Builder
	inClass, classStart := false, false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 == len(p) || !casePatternByte(p[i+1]) {
				return "", false
			}
			b.WriteString(p[i : i+2])
			i++
			classStart = false
			continue
		case c == '[' && !inClass:
			inClass, classStart = true, true
			b.WriteByte(c)
			continue
		case classStart && c == '^':
			c = '!'
		case classStart && c == '!':
			return "", false
		case inClass && c == ']':
			inClass = false
		case !casePatternByte(c):
			return "", false
		}
		classStart = false
		b.WriteByte(c)
	}
	if inClass {
		return "", false
	}
	return b.String(), true
}

// casePatternByte reports whether c is a literal or glob character that
// needs no quoting in a sh case pattern.
func casePatternByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_*?[]-", c) >= 0
}
