package agent

import (
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/agent/slash"
)

// projectCommandsDir is the workspace's commands folder.
func (m *Manager) projectCommandsDir() string {
	return filepath.Join(m.ws.Root(), ".agentls", "commands")
}

// userCommands reads the user commands now, sorted by name: the user's own
// folder wins over the project's for the same name, and no user command
// shadows a built-in.
func (m *Manager) userCommands() []slash.User {
	folders := []slash.Folder{{Dir: m.projectCommandsDir(), Source: "project", Within: m.ws.Root()}, {Dir: m.userCommandsDir, Source: "user"}}
	return slash.ReadUser(folders, func(name string) bool {
		// Letter case folded: a repository's Build.md must not answer a
		// /Build typed for the built-in /build.
		_, builtin := builtinByName[strings.ToLower(name)]
		return builtin
	})
}
