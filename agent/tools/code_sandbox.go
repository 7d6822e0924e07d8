package tools

import (
	"slices"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// LSPPolicy is the sandbox profile `lsp` of the pool's language servers
// (docs/language-intel.md): CommandPolicy's unreadable places, but nothing
// of the workspace writable (the servers only read it), no network, and
// cache (the server's own cache folder) writable, where its caches go.
func LSPPolicy(cfg config.Config, folders []string, cache string) sandbox.Policy {
	pol := CommandPolicy(cfg, folders, false, Unasked)
	pol.Writable = nil
	pol.ReadOnly = slices.Clone(folders) // the workspace whole: what is in it need not be named
	pol.MountReadOnly, pol.Fixed = nil, nil
	pol.Network = false
	pol.CacheDir = cache
	return pol
}
