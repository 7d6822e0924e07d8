// Package allowrule decides whether a shell command line may run without
// asking the user: the line must be one simple command (no list, pipeline,
// redirection, substitution, expansion or assignment), as the POSIX shell
// parser of mvdan.cc/sh reads it, and its words must match an allow rule
// (`go test ./...` exactly, `go test *` as a prefix followed by operands,
// `go test --*` followed by operands and options), where the words the
// rule's wildcard matched carry no option of the built-in danger tables, no
// unquoted glob and no path outside the workspace (rule.go, tables.go).
package allowrule

import (
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
	if st.Semicolon.IsValid() {
		return Command{}, notSimple("it ends with `;` or `&`")
	}
	return simpleStmt(st)
}

// simpleStmt is one statement read as a simple command of literal words
// (Parse's rules for everything but the line as a whole).
func simpleStmt(st *syntax.Stmt) (Command, error) {
	switch {
	case len(st.Comments) > 0:
		return Command{}, notSimple("it has a comment")
	case st.Negated:
		return Command{}, notSimple("it is negated with `!`")
	case st.Background || st.Coprocess || st.Disown:
		return Command{}, notSimple("it runs in the background (`&`)")
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
// braces (bash, which is /bin/sh on some systems, expands `{a,b}`), tilde,
// and the backslash that canonical uses to mark quoted ones.
const specials = `*?[]{}~\`

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
