package allowrule

import (
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// SimpleCommands reads line as /bin/sh would and returns its simple
// commands when it is nothing but simple commands (each as Parse reads
// one: literal words, no redirection, assignment or substitution) joined
// by `;`, `&&`, `||`, `|` and line breaks; anything else (a subshell, a
// redirection, `&`, a compound command, a comment) is a *NotSimpleError.
// It tells what a whole line runs, not whether it may run: no rule is
// matched here.
func SimpleCommands(line string) ([]Command, error) {
	for _, r := range line {
		if r != '\t' && r != '\n' && (unicode.IsControl(r) || r == unicode.ReplacementChar) {
			return nil, notSimple("it holds a control character (%q)", r)
		}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX), syntax.KeepComments(true)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, notSimple("the shell parser cannot read it (%v)", err)
	}
	if len(f.Last) > 0 {
		return nil, notSimple("it has a comment")
	}
	if len(f.Stmts) == 0 {
		return nil, notSimple("it has no command")
	}
	var out []Command
	for _, st := range f.Stmts {
		cs, err := listStmt(st)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// listStmt is the simple commands of one statement of a list.
func listStmt(st *syntax.Stmt) ([]Command, error) {
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok {
		switch {
		case len(st.Comments) > 0:
			return nil, notSimple("it has a comment")
		case st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0:
			return nil, notSimple("it is %s with `!`, `&` or a redirection", describe(b))
		case b.Op != syntax.AndStmt && b.Op != syntax.OrStmt && b.Op != syntax.Pipe:
			return nil, notSimple("it is %s", describe(b))
		}
		x, err := listStmt(b.X)
		if err != nil {
			return nil, err
		}
		y, err := listStmt(b.Y)
		if err != nil {
			return nil, err
		}
		return append(x, y...), nil
	}
	c, err := simpleStmt(st)
	if err != nil {
		return nil, err
	}
	return []Command{c}, nil
}
