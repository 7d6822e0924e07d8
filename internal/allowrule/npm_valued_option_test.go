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
	const danger = "its subcommand is in the danger table"
	checkArgRows(t, []argRow{
		{danger, "npm --*", "npm --loglevel silent exec ./x", false},
		{danger, "npm --*", "npm -w web exec ./x", false},
		{danger, "npm --*", "npm --registry http://127.0.0.1:1 publish", false},
		{danger, "yarn --*", "yarn --cwd sub dlx evil", false},
	})
}
