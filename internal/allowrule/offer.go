package allowrule

import (
	"fmt"
	"strings"
)

// Offerable reports whether "Always allow" may be offered for the command:
// the exact rule it would store (Exact of the line as shown) must not hand
// over more than the user sees. It is not offered, and why says so, when a
// word holds an unquoted glob or brace (the shell expands it to file names
// that can be spelled like options: `tar cf b.tar *` with a file named
// `--checkpoint-action=exec=sh x`), an unquoted `~`, an option or operand of
// the command's danger table, a path outside the workspace (inside says;
// nil is LexicalPaths), or when the command runs another command and has
// options (`sh -c …`, `env X=1 …`). A line that is not one simple command
// never reaches here: Parse refuses it.
func Offerable(c Command, inside PathCheck) (ok bool, why string) {
	if inside == nil {
		inside = LexicalPaths
	}
	if len(c.words) == 0 {
		return false, "it is not one simple command"
	}
	for _, w := range c.words {
		if hasUnquotedGlob(w) {
			return false, fmt.Sprintf("`%s` holds an unquoted glob or brace: the shell expands it to whatever files exist then, and a file can be named like an option", unescape(w))
		}
	}
	words := c.Words()
	name := commandName(words[0])
	if anyUse[name] {
		return false, fmt.Sprintf("%s hands over the command or its environment, so it is asked each time", name)
	}
	if wrappers[name] {
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") {
				return false, fmt.Sprintf("%s runs the command its arguments name, and `%s` is an option of it", name, w)
			}
		}
	}
	if why := tableDanger(name, words, 1); why != "" {
		return false, why
	}
	code := codeWords(words)
	for i, w := range c.words[1:] {
		if code[i+1] {
			continue
		}
		if why := pathEscape(w, inside); why != "" {
			return false, why
		}
	}
	return true, ""
}

// Grantable reports whether a rule the model proposes (a plan's
// allowed_commands) may be offered to the user at approval: it names at
// least one word (a plan does not grant every command), and its own words
// pass Offerable (no glob, no danger-table option, no path outside, no
// wrapper with options).
func Grantable(r Rule, inside PathCheck) (bool, string) {
	if len(r.words) == 0 {
		return false, "it names no command: a plan grants commands, not every command"
	}
	return Offerable(Command{words: r.words}, inside)
}
