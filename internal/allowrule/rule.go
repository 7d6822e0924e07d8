package allowrule

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Tail is what a rule allows after its fixed words.
type Tail int

const (
	// TailNone: the fixed words and nothing more (`git status`).
	TailNone Tail = iota
	// TailOperands: any further words that do not start with `-` (`go test *`).
	TailOperands
	// TailOptions: any further words, options included, except those of the
	// danger tables (`go test --*`).
	TailOptions
)

// Rule is one allow rule: the exact words of a command (`go test ./...`), or
// leading words followed by ` *` (`go test *`: any further operands, none
// included) or ` --*` (`go test --*`: any further operands and options).
type Rule struct {
	text  string
	words []string // canonical, without the trailing * or --*
	tail  Tail
}

// ErrRule is wrapped by every error ParseRule returns.
var ErrRule = errors.New("invalid allow rule")

// ParseRule reads a rule. A rule is itself one simple command (the same
// parse as for commands); only its last word may be an unquoted `*` or
// `--*`; any other unquoted glob character or brace is an error (quote it
// to mean it literally). A rule for a command that runs another command
// (sh, env, xargs, sudo, … see wrappers) may only be an exact line without
// options.
func ParseRule(text string) (Rule, error) {
	c, err := Parse(strings.TrimSpace(text))
	if err != nil {
		return Rule{}, fmt.Errorf("%w %q: %v", ErrRule, text, err)
	}
	r := Rule{text: strings.TrimSpace(text), words: c.words}
	switch last := len(r.words) - 1; r.words[last] {
	case "*":
		r.words, r.tail = r.words[:last], TailOperands
	case "--*":
		r.words, r.tail = r.words[:last], TailOptions
	}
	for _, w := range r.words {
		if hasUnquotedGlob(w) {
			return Rule{}, fmt.Errorf("%w %q: only a last word `*` or `--*`, after a space, is a wildcard (write `go test *`, not `go test*`); quote other glob characters and braces", ErrRule, text)
		}
	}
	if len(r.words) > 0 {
		if name := commandName(unescape(r.words[0])); wrappers[name] {
			if r.tail != TailNone {
				return Rule{}, fmt.Errorf("%w %q: %s runs the command its arguments name, so a rule for it can only be an exact line (no `*`)", ErrRule, text, name)
			}
			for _, w := range r.words[1:] {
				if strings.HasPrefix(w, "-") {
					return Rule{}, fmt.Errorf("%w %q: %s runs the command its arguments name, so a rule for it can only be an exact line without options (%s)", ErrRule, text, name, unescape(w))
				}
			}
		}
	}
	return r, nil
}

// hasUnquotedGlob reports an unescaped glob character or brace in a
// canonical word.
func hasUnquotedGlob(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '\\':
			i++
		case '*', '?', '[', '{', '}':
			return true
		}
	}
	return false
}

// String is the rule as written.
func (r Rule) String() string { return r.text }

// Tail is what the rule allows after its fixed words.
func (r Rule) Tail() Tail { return r.tail }

// Exact is the rule that allows exactly the command line (a last word `*`
// included, as a word): the rule behind "Always allow" for one command.
func Exact(line string) (Rule, error) {
	c, err := Parse(strings.TrimSpace(line))
	if err != nil {
		return Rule{}, fmt.Errorf("%w %q: %v", ErrRule, line, err)
	}
	return Rule{text: strings.TrimSpace(line), words: c.words}, nil
}

// PathCheck reports whether a path named by a command's word (absolute, or
// relative to the folder the command runs in) lies where an auto-allowed
// command may touch it: inside the workspace, symlinks resolved, outside
// protected folders. The agent builds it from the workspace's resolver.
type PathCheck func(path string) bool

// LexicalPaths is a PathCheck without a file system: a path is inside when
// it is relative and never climbs with `..`; absolute paths and file URIs
// are outside.
func LexicalPaths(p string) bool {
	if p == "" {
		return true
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "file:") || len(p) >= 2 && p[1] == ':' {
		return false
	}
	for _, elem := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if elem == ".." {
			return false
		}
	}
	return path.Clean(p) != ".."
}

// Match reports whether the rule allows the command (see Allows).
func (r Rule) Match(c Command, inside PathCheck) bool {
	ok, _ := r.Allows(c, inside)
	return ok
}

// Allows reports whether the rule allows the command run in the workspace
// root, and when not, why (for the question). The command's first words
// must be the rule's fixed words; the words after them (the rule's
// wildcard's) must be operands for `*`, may be options too for `--*`, and in
// both cases may hold no option of the danger tables, no unquoted glob or
// brace, no unquoted `~` and no path outside the workspace (inside says; nil
// is LexicalPaths). A command that runs another command (sh, env, …)
// matches only an exact rule. The fixed words themselves are what the rule
// names, but a relative one that now resolves outside (a symlink made since)
// is refused too. The zero Command matches no rule.
func (r Rule) Allows(c Command, inside PathCheck) (bool, string) {
	if inside == nil {
		inside = LexicalPaths
	}
	if len(c.words) == 0 || len(c.words) < len(r.words) || (r.tail == TailNone && len(c.words) != len(r.words)) {
		return false, ""
	}
	for i, w := range r.words {
		if c.words[i] != w {
			return false, ""
		}
	}
	fixed := len(r.words)
	for _, w := range c.words[:fixed] {
		if why := relativeEscape(w, inside); why != "" {
			return false, why
		}
	}
	if fixed == len(c.words) {
		return true, ""
	}
	tail := c.words[fixed:]
	for _, w := range tail {
		if hasUnquotedGlob(w) {
			return false, fmt.Sprintf("`%s` holds an unquoted glob or brace, which the shell expands to file names the rule does not name (a file can be named like an option)", unescape(w))
		}
		if r.tail == TailOperands && strings.HasPrefix(w, "-") {
			return false, fmt.Sprintf("`%s` is an option, and the rule `%s` allows only operands after its words (a rule ending in `--*` also allows options)", unescape(w), r.text)
		}
	}
	words := c.Words()
	if why := dangerous(words, fixed); why != "" {
		return false, why
	}
	code := codeWords(words)
	for i, w := range tail {
		if code[fixed+i] {
			continue
		}
		if why := pathEscape(w, inside); why != "" {
			return false, why
		}
	}
	return true, ""
}

// Rules is a list of rules; an invalid rule in the configuration is dropped
// (and reported) by ParseRules.
type Rules []Rule

// ParseRules reads each rule; the invalid ones are left out and returned as
// errors.
func ParseRules(texts []string) (Rules, []error) {
	var rs Rules
	var errs []error
	for _, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		r, err := ParseRule(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rs = append(rs, r)
	}
	return rs, errs
}

// Match reports whether a rule allows the command.
func (rs Rules) Match(c Command, inside PathCheck) bool {
	_, ok, _ := rs.Allows(c, inside)
	return ok
}

// Allows returns the first rule that allows the command; when none does,
// why the first rule whose words the command starts with refused it ("" if
// no rule's words fit).
func (rs Rules) Allows(c Command, inside PathCheck) (Rule, bool, string) {
	why := ""
	for _, r := range rs {
		ok, w := r.Allows(c, inside)
		if ok {
			return r, true, ""
		}
		if why == "" {
			why = w
		}
	}
	return Rule{}, false, why
}
