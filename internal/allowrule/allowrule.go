// Package allowrule decides whether a shell command line may run without
// asking the user: the line must be one simple command (no list, pipeline,
// redirection, substitution, expansion or assignment), as the POSIX shell
// parser of mvdan.cc/sh reads it, and its words must match an allow rule
// (`go test ./...` exactly, or `go test *` as a prefix).
package allowrule

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// Command is a command line that is one simple command: its words after
// quote removal, each in the canonical form that compares equal only when
// the shell reads the two words alike (see canonical).
type Command struct {
	words []string
}

// Words returns the command's words after quote removal.
func (c Command) Words() []string {
	out := make([]string, len(c.words))
	for i, w := range c.words {
		out[i] = unescape(w)
	}
	return out
}

// NotSimpleError says why a command line is not one simple command (so it
// is never allowed without asking).
type NotSimpleError struct {
	Why string
}

func (e *NotSimpleError) Error() string { return "not a single simple command: " + e.Why }

func notSimple(format string, args ...any) error {
	return &NotSimpleError{Why: fmt.Sprintf(format, args...)}
}

// Parse reads line as /bin/sh (POSIX; dash on Debian) would and returns it
// if it is exactly one simple command made of literal words: no `;`, `&&`,
// `||`, `|`, `&`, newline, `!`, redirection, subshell, brace group,
// compound command, function, comment, assignment prefix, parameter or
// arithmetic expansion, command substitution (`$(…)` or backticks) in any
// word, and no control character. Anything else is a *NotSimpleError.
func Parse(line string) (Command, error) {
	for _, r := range line {
		if r == '\t' {
			continue
		}
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return Command{}, notSimple("it holds a control character or a line break (%q)", r)
		}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX), syntax.KeepComments(true)).Parse(strings.NewReader(line), "")
	if err != nil {
		return Command{}, notSimple("the shell parser cannot read it (%v)", err)
	}
	if len(f.Last) > 0 {
		return Command{}, notSimple("it has a comment")
	}
	if len(f.Stmts) != 1 {
		return Command{}, notSimple("it is %d commands", len(f.Stmts))
	}
	st := f.Stmts[0]
	switch {
	case len(st.Comments) > 0:
		return Command{}, notSimple("it has a comment")
	case st.Negated:
		return Command{}, notSimple("it is negated with `!`")
	case st.Background || st.Coprocess || st.Disown:
		return Command{}, notSimple("it runs in the background (`&`)")
	case st.Semicolon.IsValid():
		return Command{}, notSimple("it ends with `;` or `&`")
	case len(st.Redirs) > 0:
		return Command{}, notSimple("it has a redirection")
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return Command{}, notSimple("it is %s", describe(st.Cmd))
	}
	if len(call.Assigns) > 0 {
		return Command{}, notSimple("it sets a variable (%s=…) for the command", call.Assigns[0].Name.Value)
	}
	if len(call.Args) == 0 {
		return Command{}, notSimple("it has no command")
	}
	c := Command{words: make([]string, 0, len(call.Args))}
	for _, w := range call.Args {
		cw, err := canonical(w)
		if err != nil {
			return Command{}, err
		}
		c.words = append(c.words, cw)
	}
	return c, nil
}

// describe names a command that is not a simple one.
func describe(cmd syntax.Command) string {
	switch c := cmd.(type) {
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			return "a list (`&&`)"
		case syntax.OrStmt:
			return "a list (`||`)"
		default:
			return "a pipeline (`|`)"
		}
	case *syntax.Subshell:
		return "a subshell (`( … )`)"
	case *syntax.Block:
		return "a brace group (`{ …; }`)"
	case *syntax.FuncDecl:
		return "a function definition"
	case nil:
		return "empty"
	}
	return "a compound command (if, for, while, case, …)"
}

// specials are the characters whose meaning depends on quoting once
// parameter expansion and substitutions are excluded: glob characters,
// tilde, and the backslash that canonical uses to mark quoted ones.
const specials = `*?[]~\`

// operators must never be unquoted inside a literal word; the parser never
// leaves them there, and a line where it did is not trusted.
const operators = ";&|<>()$`\n"

// canonical is a word after quote removal where every special character
// that was quoted is preceded by a backslash: `"*"` → `\*`, `*` → `*`,
// `a\ b` → `a b`. Two words are read alike by the shell exactly when their
// canonical forms are equal.
func canonical(w *syntax.Word) (string, error) {
	var b strings.Builder
	quoted := func(s string) {
		for _, r := range s {
			if strings.ContainsRune(specials, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if err := unquotedLit(p.Value, &b, quoted); err != nil {
				return "", err
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", notSimple("it uses $'…' quoting, which /bin/sh does not read as bash does")
			}
			quoted(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", notSimple("it uses $\"…\" quoting")
			}
			for _, dp := range p.Parts {
				lit, ok := dp.(*syntax.Lit)
				if !ok {
					return "", notSimple("a word holds %s", describePart(dp))
				}
				if strings.ContainsAny(lit.Value, "$`") {
					return "", notSimple("a word holds `$` or a backtick")
				}
				quoted(dqUnescape(lit.Value))
			}
		default:
			return "", notSimple("a word holds %s", describePart(part))
		}
	}
	return b.String(), nil
}

// unquotedLit removes the backslash escapes of an unquoted literal; an
// escaped character counts as quoted.
func unquotedLit(v string, b *strings.Builder, quoted func(string)) error {
	rs := []rune(v)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\\' {
			if i+1 == len(rs) {
				return notSimple("a word ends with a lone backslash")
			}
			i++ // (no line continuation: Parse refuses line breaks first)
			quoted(string(rs[i]))
			continue
		}
		if strings.ContainsRune(operators, r) {
			return notSimple("a word holds an unquoted %q", r)
		}
		b.WriteRune(r)
	}
	return nil
}

// dqUnescape removes the backslashes that escape `$`, backtick, `"` or `\`
// inside double quotes; any other backslash stays.
func dqUnescape(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\", v[i+1]) >= 0 {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

func describePart(p syntax.WordPart) string {
	switch p.(type) {
	case *syntax.ParamExp:
		return "a parameter expansion (`$X`)"
	case *syntax.CmdSubst:
		return "a command substitution (`$(…)` or backticks)"
	case *syntax.ArithmExp:
		return "an arithmetic expansion (`$((…))`)"
	case *syntax.ProcSubst:
		return "a process substitution"
	}
	return "an expansion /bin/sh does not have"
}

// unescape turns a canonical word back into its text.
func unescape(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if w[i] == '\\' && i+1 < len(w) {
			i++
		}
		b.WriteByte(w[i])
	}
	return b.String()
}

// Rule is one allow rule: the exact words of a command (`go test ./...`), or
// leading words followed by ` *` (`go test *`), which allows those words
// followed by any further words, none included.
type Rule struct {
	text   string
	words  []string // canonical, without the trailing *
	prefix bool
}

// ErrRule is wrapped by every error ParseRule returns.
var ErrRule = errors.New("invalid allow rule")

// ParseRule reads a rule. A rule is itself one simple command (the same
// parse as for commands); only its last word may be an unquoted `*`, which
// makes it a prefix rule; any other unquoted glob character is an error
// (quote it to mean it literally).
func ParseRule(text string) (Rule, error) {
	c, err := Parse(strings.TrimSpace(text))
	if err != nil {
		return Rule{}, fmt.Errorf("%w %q: %v", ErrRule, text, err)
	}
	r := Rule{text: strings.TrimSpace(text), words: c.words}
	if last := len(r.words) - 1; r.words[last] == "*" {
		r.words, r.prefix = r.words[:last], true
	}
	for _, w := range r.words {
		if hasUnquotedGlob(w) {
			return Rule{}, fmt.Errorf("%w %q: only a last word `*`, after a space, is a wildcard (write `go test *`, not `go test*`); quote other glob characters", ErrRule, text)
		}
	}
	return r, nil
}

// hasUnquotedGlob reports an unescaped glob character in a canonical word.
func hasUnquotedGlob(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// String is the rule as written.
func (r Rule) String() string { return r.text }

// Match reports whether the command is allowed by the rule. The zero
// Command (what a failed Parse returns) matches no rule.
func (r Rule) Match(c Command) bool {
	if len(c.words) == 0 || len(c.words) < len(r.words) || (!r.prefix && len(c.words) != len(r.words)) {
		return false
	}
	for i, w := range r.words {
		if c.words[i] != w {
			return false
		}
	}
	return true
}

// Exact is the rule that allows exactly the command line (a last word `*`
// included, as a word): the rule behind "Always allow" for one command.
func Exact(line string) (Rule, error) {
	c, err := Parse(strings.TrimSpace(line))
	if err != nil {
		return Rule{}, fmt.Errorf("%w %q: %v", ErrRule, line, err)
	}
	return Rule{text: strings.TrimSpace(line), words: c.words}, nil
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
func (rs Rules) Match(c Command) bool {
	for _, r := range rs {
		if r.Match(c) {
			return true
		}
	}
	return false
}
