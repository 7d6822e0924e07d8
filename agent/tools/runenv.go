package tools

import (
	"path"
	"runtime"
	"strings"

	"github.com/agentls/agentls/config"
)

// commandEnv is the environment a command runs with: agentls's own
// (environ, as os.Environ gives it) without the model's key variable
// (model.api_key_env, always) and without every variable that run.env_deny
// names, by name or glob (`*_TOKEN`, `AWS_*`).
func commandEnv(environ []string, cfg config.Config) []string {
	deny := envDenyPatterns(cfg)
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !envDenied(name, deny) {
			out = append(out, kv)
		}
	}
	return out
}

// envDenyPatterns are the variables no command gets: the model's key
// variable, always, and run.env_deny.
func envDenyPatterns(cfg config.Config) []string {
	return append([]string{cfg.Model.APIKeyEnv}, cfg.Run.EnvDeny...)
}

// envDenied reports whether a variable's name matches a pattern (path.Match
// globs; a malformed glob matches its own text only). Names are compared
// without case on Windows, whose environment ignores case.
func envDenied(name string, patterns []string) bool {
	if name == "" {
		return false
	}
	fold := runtime.GOOS == "windows"
	if fold {
		name = strings.ToUpper(name)
	}
	for _, p := range patterns {
		if p == "" {
			continue
		}
		if fold {
			p = strings.ToUpper(p)
		}
		if ok, err := path.Match(p, name); ok || (err != nil && p == name) {
			return true
		}
	}
	return false
}
