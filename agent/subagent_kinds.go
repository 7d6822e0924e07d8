package agent

import (
	"path/filepath"

	"github.com/agentls/agentls/agent/agentkinds"
)

// kinds are the kinds of sub-agents now (agent/agentkinds): the built-in
// ones, the user's own and, once the user trusted the workspace, the
// project's (the user's own wins over the project's for the same name;
// neither shadows a built-in).
func (m *Manager) kinds() map[string]*agentkinds.Kind {
	var folders []agentkinds.Folder
	if m.projectAgentsTrusted != nil && m.projectAgentsTrusted() {
		folders = append(folders, agentkinds.Folder{Dir: filepath.Join(m.ws.Root(), ".agentls", "agents"), Source: "project", Within: m.ws.Root()})
	}
	if m.userAgentsDir != "" {
		folders = append(folders, agentkinds.Folder{Dir: m.userAgentsDir, Source: "user"})
	}
	return agentkinds.Read(folders)
}
