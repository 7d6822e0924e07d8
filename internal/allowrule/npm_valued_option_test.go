package allowrule

import "testing"

// TestNpmRiskySubcommandAfterAValuedOption: docs/guard.md's danger table
// says npm's (pnpm's, yarn's, bun's) subcommands exec, dlx, publish,
// config … ask under any wildcard. An option given before the subcommand
// may take the next word as its value (`--loglevel silent`, `-w web`,
// yarn's `--cwd sub`), so the word after that value is judged as the
// subcommand too: `npm --*` does not let `npm --loglevel silent exec ./x`
// run unasked.
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
