package acp

import (
	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/langpool"
	"github.com/agentls/agentls/workspace"
)

// languageIntel is the ACP face's language intelligence: ACP clients
// cannot answer agent/diagnostics, so agentls's own pool serves
// (lsp.source auto or pool; editor means none here; off is read by the
// agent at every use). docs/language-intel.md.
func (a *Agent) languageIntel(ws *workspace.Workspace, cfg config.Config) agent.LanguageIntel {
	if cfg.LSP.Source == "editor" {
		return nil
	}
	return langpool.New(langpool.Options{Workspace: ws, Config: cfg, Getenv: a.getenv})
}
