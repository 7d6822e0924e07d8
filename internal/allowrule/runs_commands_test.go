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
	for _, c := range []struct{ rule, command string }{
		{"git *", "git submodule--helper foreach 'sh build.sh'"},
		{"git --*", "git submodule--helper foreach --recursive 'sh build.sh'"},
		{"git *", "git merge-index ./x main.go"},
		{"git --*", "git merge-index ./x -a"},
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
			t.Errorf("rule %q lets %q run unasked: it runs the command its arguments name, as `git submodule foreach` does (which asks)", c.rule, c.command)
		}
	}
}

// TestNpmAbbreviatedSubcommands: npm runs any unambiguous abbreviation of
// a command (npm 11: `npm exe evil` ran node_modules/.bin/evil, `npm conf
// get prefix` printed the configuration, `npm pub --dry-run` published,
// `npm explo` is explore): under `npm *` a word that begins a risky
// subcommand's name asks like the subcommand (before, only the full names
// did; found by the sandbox audit helper), and the short commands of their
// own (`npm i`, `npm t`, `npm add`, `npm s`) still run unasked.
func TestNpmAbbreviatedSubcommands(t *testing.T) {
	r, err := ParseRule("npm *")
	if err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{
		"npm exe cowsay",
		"npm conf set script-shell ./x",
		"npm pub",
		"npm explo pkg",
	} {
		cmd, err := Parse(command)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := r.Allows(cmd, nil); ok {
			t.Errorf("rule `npm *` lets %q run unasked: npm reads it as the full subcommand, which asks", command)
		}
	}
}

// TestNpmShortCommandsStillAllowed: the abbreviation rule leaves npm's own
// short commands and the everyday ones alone under `npm *`.
func TestNpmShortCommandsStillAllowed(t *testing.T) {
	r, err := ParseRule("npm *")
	if err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{"npm i", "npm in left-pad", "npm install", "npm ci", "npm t", "npm test", "npm run build",
		"npm add left-pad", "npm s left-pad", "npm se left-pad", "npm ls", "npm outdated", "npm audit", "npm update"} {
		cmd, err := Parse(command)
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := r.Allows(cmd, nil); !ok {
			t.Errorf("rule `npm *` asks for %q: %s", command, why)
		}
	}
}

// TestGitCredentialHelpersAsk: docs/guard.md's danger table names
// `credential*`, but only `credential`, `credential-cache` and
// `credential-store` asked. git runs `git credential-<x>` as the helper
// program git-credential-<x> (in git's exec path or on PATH), and each of
// them answers `get` with the stored password, or starts a daemon
// (`credential-cache--daemon`): under `git *` they ran unasked.
func TestGitCredentialHelpersAsk(t *testing.T) {
	for _, c := range []struct{ rule, command string }{
		{"git *", "git credential fill"},
		{"git *", "git credential-store get"},
		{"git *", "git credential-cache--daemon sock"},
		{"git *", "git credential-libsecret get"},
		{"git *", "git credential-osxkeychain get"},
		{"git *", "git credential-manager get"},
		{"git *", "git credential-netrc get"},
		{"git --*", "git --no-pager credential-gnome-keyring get"},
		{"git *", "git Credential-osxkeychain get"}, // a case-insensitive file system finds the helper
		{"git *", "git CONFIG core.pager sh"},
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
			t.Errorf("rule %q lets %q run unasked: a credential helper prints stored passwords or starts a daemon", c.rule, c.command)
		}
	}
}
