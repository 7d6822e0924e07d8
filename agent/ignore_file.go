package agent

import (
	"os"
	"slices"
)

// stateIgnore is .agentls/.gitignore: everything in .agentls/ is local state
// (sessions, locks) except the ignore file itself and the folders meant to
// be shared with the repository, commands/ (slash commands) and agents/.
const stateIgnore = `# agentls: sessions and other local state stay out of version control;
# commands/ and agents/ are meant to be committed.
/*
!/.gitignore
!/commands/
!/agents/
`

// oldStateIgnores are the ignore files earlier versions wrote (everything
// ignored); agentls replaces them. Any other file is the user's and stays.
var oldStateIgnores = []string{
	"# agentls sessions: local state, not for version control\n*\n",
	"*\n",
}

// needsStateIgnore reports whether agentls should write .agentls/.gitignore
// at path: there is none, or it is one agentls wrote before.
func needsStateIgnore(path string) bool {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return true
	}
	return err == nil && slices.Contains(oldStateIgnores, string(data))
}
