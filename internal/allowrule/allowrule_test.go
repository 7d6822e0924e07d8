package allowrule

import (
	"errors"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// bypasses are command lines an allow rule for `go test *` (or any rule)
// must never let through: each is more than one simple command, or changes
// what runs. Every row must ask the user.
var bypasses = []string{
	// lists and pipelines
	"go test ./... ; touch x",
	"go test ./...;touch x",
	"go test ./... && touch x",
	"go test ./... || touch x",
	"go test ./... | sh",
	"go test ./...|sh",
	"go test ./... |& cat",
	"go test ./... & touch x",
	"go test ./... &",
	"go test ./...&",
	"go test ./... ;",
	"go test ./...\ntouch x",
	"go test ./...\n",
	"go test ./...\r\ntouch x",
	"touch x; go test ./...\rgo test ./...", // a terminal shows only what follows the \r
	"go test ./... \\\n; touch x",
	"! go test ./...",
	// redirections
	"go test ./... > x",
	"go test ./... >> x",
	"go test ./... >| x",
	"go test ./... 2> x",
	"go test ./... 2>&1",
	"go test ./... &> x",
	"go test ./... >&2",
	"go test ./... < /etc/passwd",
	"go test ./... <> x",
	"go test >x ./...",
	">x go test ./...",
	"go test ./... <<EOF\nx\nEOF",
	"go test ./... 9>x",
	// substitutions and expansions, anywhere in any word
	"go test $(touch x)",
	"go test `touch x`",
	"go test \"$(touch x)\"",
	"go test \"`touch x`\"",
	"go test ./...$(touch x)",
	"go test -run=$(touch x)",
	"go test $((1+1))",
	"go test $HOME",
	"go test ${HOME}",
	"go test \"$HOME\"",
	"go test ${X:-$(touch x)}",
	"go test $1",
	"go test $@",
	"go test $",
	"go test a$",
	"go test <(touch x)",
	"go test >(touch x)",
	"go test $'\\x41'",
	"go test $\"x\"",
	// subshells, groups, compound commands, functions
	"(go test ./...)",
	"( go test ./... )",
	"{ go test ./...; }",
	"if true; then go test ./...; fi",
	"for i in 1; do go test ./...; done",
	"while false; do go test; done",
	"case x in x) go test;; esac",
	"go test() { touch x; }",
	"go() { touch x; }; go test",
	// assignment prefixes of any kind
	"GOFLAGS=-exec=sh go test ./...",
	"PATH=. go test ./...",
	"LD_PRELOAD=/tmp/x.so go test ./...",
	"GIT_DIR=x go test ./...",
	"X=1 go test ./...",
	"X= go test ./...",
	// comments, control characters, unreadable lines
	"go test ./... # comment",
	"go test ./... #",
	"go test ./...\x00; touch x",
	"go test ./...\x1b[2K",
	"go test \x7f",
	"go test 'unterminated",
	"go test \"unterminated",
	"go test \\",
	"go test \xff\xfe",
	"",
	"   ",
	";",
	"&&",
}

func TestBypassesAreNotSimple(t *testing.T) {
	rules, errs := ParseRules([]string{"go test *", "go *", "*"})
	if errs != nil {
		t.Fatal(errs)
	}
	for _, line := range bypasses {
		c, err := Parse(line)
		var ns *NotSimpleError
		if !errors.As(err, &ns) {
			t.Errorf("Parse(%q) = %v, %v: want a NotSimpleError", line, c.Words(), err)
			continue
		}
		if ns.Why == "" {
			t.Errorf("Parse(%q): the error says nothing", line)
		}
		if rules.Match(c, nil) {
			t.Errorf("%q matched a rule", line)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		rule    string
		command string
		want    bool
	}{
		// prefix rules: the leading words, then any words (none included)
		{"go test *", "go test ./...", true},
		{"go test *", "go test", true},
		{"go test *", "go test -run TestX ./pkg/...", false},
		{"go test --*", "go test -run TestX ./pkg/...", true},
		{"go test -run *", "go test -run TestX ./pkg/...", true},
		{"go test *", "go   test\t./...", true},
		{"go test *", "  go test ./...  ", true},
		{"go test *", `"go" 'test' ./...`, true},
		{"go test *", `go te"st" ./...`, true},
		{"go test *", `go t\est`, true},
		{"go test *", "go test *", false}, // an unquoted glob: its expansion is not named
		{"go test *", "go test '*'", true},
		{"go test *", "go test '; touch x'", true},
		{"go test *", "go test a;b", false},
		{"go test *", "go testify", false},
		{"go test *", "go", false},
		{"go test *", "go vet ./...", false},
		{"go test *", "gotest ./...", false},
		{"go test *", `go\ test ./...`, false},
		{"go test *", `"go test" ./...`, false},
		{"go test *", "exec go test ./...", false},
		{"go test *", "command go test ./...", false},
		{"go test *", "./go test ./...", false},
		{"go test *", "/usr/bin/go test ./...", false},
		{"go test *", "go test ./... ; touch x", false},
		{"*", "touch x", true},
		{"*", "touch x; rm y", false},
		// exact rules
		{"go test ./...", "go test ./...", true},
		{"go test ./...", "go test './...'", true},
		{"go test ./...", "go test ./... -v", false},
		{"go test ./...", "go test", false},
		{"go test ./...", "go test ./..", false},
		{"go test ./...", "go test ./...*", false},
		{"git status", "git status", true},
		{"git status", "git status --short", false},
		{"make", "make", true},
		{"make", "make install", false},
		// quoting decides what a glob or tilde means
		{"ls '*.go'", "ls '*.go'", true},
		{"ls '*.go'", `ls "*.go"`, true},
		{"ls '*.go'", `ls \*.go`, true},
		{"ls '*.go'", "ls *.go", false},
		{"cat ~/notes", "cat ~/notes", true},
		{"cat ~/notes", "cat '~/notes'", false},
		{"cat '~/notes'", "cat ~/notes", false},
		{`echo "a b"`, "echo 'a b'", true},
		{`echo "a b"`, "echo a b", false},
		{`echo 'a\b'`, `echo "a\b"`, true},
		{`echo 'a\b'`, `echo "a\\b"`, true},
		{`echo 'a\b'`, `echo a\\b`, true},
		{`echo 'a\b'`, `echo ab`, false},
	}
	for _, tc := range tests {
		r, err := ParseRule(tc.rule)
		if err != nil {
			t.Fatalf("ParseRule(%q): %v", tc.rule, err)
		}
		c, err := Parse(tc.command)
		got := err == nil && r.Match(c, nil)
		if got != tc.want {
			t.Errorf("rule %q, command %q: match = %v (parse error %v), want %v", tc.rule, tc.command, got, err, tc.want)
		}
	}
}

func TestParseRuleErrors(t *testing.T) {
	for _, text := range []string{
		"go test*", "go test **", "pwd*", "go * ./...", "ls *.go", "go test ./... ; *", "FOO=1 go *",
		"go test $X", "go test >x", "(go test)", "go test ./... &", "", "echo [a]", "echo a?",
	} {
		_, err := ParseRule(text)
		if !errors.Is(err, ErrRule) {
			t.Errorf("ParseRule(%q) = %v, want an ErrRule", text, err)
		}
	}
	rs, errs := ParseRules([]string{"go test *", "go test*", "  ", "make"})
	if len(rs) != 2 || rs[0].String() != "go test *" || rs[1].String() != "make" || len(errs) != 1 || !strings.Contains(errs[0].Error(), `"go test*"`) {
		t.Fatalf("ParseRules = %v, %v", rs, errs)
	}
}

func TestExact(t *testing.T) {
	r, err := Exact("go test *")
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]bool{"go test *": true, "go test '*'": false, "go test ./...": false, "go test": false} {
		c, err := Parse(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Match(c, nil); got != want {
			t.Errorf("Exact(go test *) matches %q = %v, want %v", cmd, got, want)
		}
	}
	if _, err := Exact("go test ./... ; touch x"); !errors.Is(err, ErrRule) {
		t.Errorf("Exact of a list = %v", err)
	}
}

func TestWords(t *testing.T) {
	c, err := Parse(`go test -run 'Test A' "b\"c" d\ e '*' ~`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"go", "test", "-run", "Test A", `b"c`, "d e", "*", "~"}
	if got := c.Words(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Words = %q, want %q", got, want)
	}
}

// FuzzParse: whatever the line, a line Parse accepts is, per the shell
// parser's own syntax tree walked in full, one statement holding one call
// with literal words only: no list, pipeline, background, negation,
// redirection, assignment, substitution, expansion or compound command
// anywhere. And a prefix rule only ever matches lines starting with its words.
func FuzzParse(f *testing.F) {
	for _, b := range bypasses {
		f.Add(b)
	}
	for _, s := range []string{"go test ./...", `go "test" 'x y' \z`, "ls *.go", "cat ~/x", "echo a\\\nb"} {
		f.Add(s)
	}
	rule, err := ParseRule("go test *")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := Parse(line)
		if err != nil {
			var ns *NotSimpleError
			if !errors.As(err, &ns) {
				t.Fatalf("Parse(%q) error %v is not a NotSimpleError", line, err)
			}
			return
		}
		file, perr := syntax.NewParser(syntax.Variant(syntax.LangPOSIX), syntax.KeepComments(true)).Parse(strings.NewReader(line), "")
		if perr != nil {
			t.Fatalf("Parse accepted %q, which the shell parser rejects: %v", line, perr)
		}
		if len(file.Stmts) != 1 {
			t.Fatalf("Parse accepted %q: %d statements", line, len(file.Stmts))
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				if n.Background || n.Negated || n.Coprocess || n.Disown || len(n.Redirs) > 0 || n.Semicolon.IsValid() {
					t.Fatalf("Parse accepted %q: statement with an operator or redirection", line)
				}
			case *syntax.File, *syntax.CallExpr, *syntax.Word, *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted:
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.BinaryCmd, *syntax.Redirect,
				*syntax.Assign, *syntax.Subshell, *syntax.Block, *syntax.FuncDecl, *syntax.Comment:
				t.Fatalf("Parse accepted %q holding a %T", line, n)
			case nil:
			default:
				t.Fatalf("Parse accepted %q holding a %T", line, n)
			}
			return true
		})
		for _, r := range line {
			if r == '\n' || r == 0 {
				t.Fatalf("Parse accepted %q with a line break or NUL", line)
			}
		}
		if rule.Match(c, nil) {
			if w := c.Words(); len(w) < 2 || w[0] != "go" || w[1] != "test" {
				t.Fatalf("go test * matched %q (words %q)", line, w)
			}
		}
	})
}
