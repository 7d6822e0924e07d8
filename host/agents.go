package host

import (
	"path/filepath"

	"github.com/agentls/agentls/config"
)

// userAgentsDir is the user's sub-agent kinds folder, beside their config
// file ($XDG_CONFIG_HOME/agentls/agents); "" when no home is known.
func userAgentsDir(getenv func(string) string) string {
	f := config.UserFile(getenv)
	if f == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(f), "agents")
}

// projectAgentsTrusted reports whether the workspace's own sub-agent kinds
// (.agentls/agents/*.md, repository content) may be used: only once the
// user trusted the workspace, i.e. the current content of its
// .agentls.yaml (docs/subagents.md). Without that file, or with a
// configuration file the user named instead, they are not used.
func (h *Host) projectAgentsTrusted() bool {
	f := h.TrustFile()
	if f == "" {
		return false
	}
	data, err := config.ReadFile(f)
	if err != nil {
		return false
	}
	return h.trust.Trusted(f, data)
}
