package allowrule

import "testing"

// TestNpmRiskySubcommandAfterAValuedOption: docs/guard.md's danger table
// says npm's (pnpm's, yarn's, bun's) subcommands exec, dlx, publish,
// config … ask under any wildcard. The subcommand is taken as the first
// word that does not start with `-`, so the value of an option given as
// its own word (`--loglevel silent`, `-w web`, yarn's `--cwd sub`) is
// taken for it, and the real subcommand after it runs unasked under
// `npm --*`.
func TestNpmRiskySubcommandAfterAValuedOption(t *testing.T) {
	for _, c := range []struct{ rule, command string }{
		{"npm --*", "npm --loglevel silent exec ./x"},
		{"npm --*", "npm -w web exec ./x"},
		{"npm --*", "npm --registry http://127.0.0.1:1 publish"},
		{"yarn --*", "yarn --cwd sub dlx evil"},
	} {
		r, err := ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := Parse(c.command)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := r.Allows(cmd, nil); ok {
			t.Errorf("rule %q lets %q run unasked: its subcommand is in the danger table", c.rule, c.command)
		}
	}
}
