package allowrule

import "testing"

// TestGitPlumbingThatRunsCommands: the danger table keeps a wildcard from
// picking git commands that run the command their arguments name
// (`submodule foreach`, `bisect run`, `difftool`, `mergetool`), and the
// plumbing that does the same under other names (found by the sandbox
// audit helper; both ran unasked under `git *` or `git --*`):
//
//   - `git submodule--helper foreach <cmd>` is what `git submodule
//     foreach` runs (git 2.39: `git submodule--helper foreach 'touch
//     pwned'` in a repository with a submodule made lib/pwned);
//   - `git merge-index <program> <file>…` runs <program> for each
//     unmerged file (after a conflicting merge, `git merge-index ./x f`
//     ran ./x).
func TestGitPlumbingThatRunsCommands(t *testing.T) {
	const runs = "runs the command its arguments name, as `git submodule foreach` does (which asks)"
	checkArgRows(t, []argRow{
		{runs, "git *", "git submodule--helper foreach 'sh build.sh'", false},
		{runs, "git --*", "git submodule--helper foreach --recursive 'sh build.sh'", false},
		{runs, "git *", "git merge-index ./x main.go", false},
		{runs, "git --*", "git merge-index ./x -a", false},
	})
}

// TestNpmAbbreviatedSubcommands: npm runs any unambiguous abbreviation of
// a command (npm 11: `npm exe evil` ran node_modules/.bin/evil, `npm conf
// get prefix` printed the configuration, `npm pub --dry-run` published,
// `npm explo` is explore): under `npm *` a word that begins a risky
// subcommand's name asks like the subcommand (before, only the full names
// did; found by the sandbox audit helper), and the short commands of their
// own (`npm i`, `npm t`, `npm add`, `npm s`) still run unasked.
func TestNpmAbbreviatedSubcommands(t *testing.T) {
	const full = "npm reads it as the full subcommand, which asks"
	checkArgRows(t, []argRow{
		{full, "npm *", "npm exe cowsay", false},
		{full, "npm *", "npm conf set script-shell ./x", false},
		{full, "npm *", "npm pub", false},
		{full, "npm *", "npm explo pkg", false},
	})
}

// TestNpmShortCommandsStillAllowed: the abbreviation rule leaves npm's own
// short commands and the everyday ones alone under `npm *`.
func TestNpmShortCommandsStillAllowed(t *testing.T) {
	var rows []argRow
	for _, command := range []string{"npm i", "npm in left-pad", "npm install", "npm ci", "npm t", "npm test", "npm run build",
		"npm add left-pad", "npm s left-pad", "npm se left-pad", "npm ls", "npm outdated", "npm audit", "npm update"} {
		rows = append(rows, argRow{"an everyday npm command", "npm *", command, true})
	}
	checkArgRows(t, rows)
}

// TestGitCredentialHelpersAsk: docs/guard.md's danger table names
// `credential*`, but only `credential`, `credential-cache` and
// `credential-store` asked. git runs `git credential-<x>` as the helper
// program git-credential-<x> (in git's exec path or on PATH), and each of
// them answers `get` with the stored password, or starts a daemon
// (`credential-cache--daemon`): under `git *` they ran unasked.
func TestGitCredentialHelpersAsk(t *testing.T) {
	const helper = "a credential helper prints stored passwords or starts a daemon"
	checkArgRows(t, []argRow{
		{helper, "git *", "git credential fill", false},
		{helper, "git *", "git credential-store get", false},
		{helper, "git *", "git credential-cache--daemon sock", false},
		{helper, "git *", "git credential-libsecret get", false},
		{helper, "git *", "git credential-osxkeychain get", false},
		{helper, "git *", "git credential-manager get", false},
		{helper, "git *", "git credential-netrc get", false},
		{helper, "git --*", "git --no-pager credential-gnome-keyring get", false},
		{"a case-insensitive file system finds the helper", "git *", "git Credential-osxkeychain get", false},
		{"a case-insensitive file system finds git-config", "git *", "git CONFIG core.pager sh", false},
	})
}
