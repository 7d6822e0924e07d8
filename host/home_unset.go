package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
)

// An editor that starts agentls without HOME has stripped its environment
// (avante.nvim passes an agent PATH and its own `env` table only). agentls
// then looks for the user's config.yaml below the password database's home
// folder; when none is there, the user's settings may well be somewhere
// the stripped environment no longer names ($XDG_CONFIG_HOME), and the
// built-in hosted endpoint is not what they chose. So agentls sends nothing
// there: the model refuses every request with what happened and the fix.

// strippedEnvError is why cfg's model must not be built, or nil: HOME is
// unset, no config file was found (no user config.yaml, no --config), and
// the model would be the built-in hosted endpoint, named by nothing but
// the defaults.
func strippedEnvError(cfg config.Config, getenv func(string) string, configFile string) error {
	if filepath.IsAbs(getenv("HOME")) || configFile != "" {
		return nil
	}
	spec, ok := LookupProvider(cfg.Model.Provider)
	if !ok || spec.Name != "openai" || cfg.Model.BaseURL != config.Default().Model.BaseURL {
		return nil
	}
	user := config.UserFile(getenv)
	if user != "" {
		if _, err := os.Stat(user); !errors.Is(err, fs.ErrNotExist) {
			return nil // found (or there but unreadable: the load's error says so)
		}
	}
	where := "no user config.yaml"
	if user != "" {
		where = "no " + user
	}
	return fmt.Errorf("HOME is not set (the editor started agentls without it: avante.nvim passes only PATH and its env table) and there is %s, so agentls sends nothing to the built-in endpoint %s: pass HOME and XDG_CONFIG_HOME in the editor's env for agentls (docs/acp.md), or name the endpoint there (OPENAI_BASE_URL)",
		where, cfg.Model.BaseURL)
}

// refuseStrippedEnv is newProvider behind strippedEnvError.
func refuseStrippedEnv(newProvider ProviderFactory, configFile string) ProviderFactory {
	return func(cfg config.Config, getenv func(string) string, root string) (llm.Provider, error) {
		if err := strippedEnvError(cfg, getenv, configFile); err != nil {
			return nil, err
		}
		return newProvider(cfg, getenv, root)
	}
}
