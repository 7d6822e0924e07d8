package host

import (
	"fmt"
	"log/slog"
	"regexp"

	"github.com/agentls/agentls/config"
)

// An editor can hand agentls the name of a key variable as its value:
// CodeCompanion.nvim passes the text of an `env` entry as it is when the
// variable it names is unset, so `OPENAI_API_KEY = "OPENAI_API_KEY"` in
// its adapter sent "Authorization: Bearer OPENAI_API_KEY". Such a key is
// no key.

// keyVariableName is how key variables are named (OPENAI_API_KEY,
// ANTHROPIC_API_KEY, GITHUB_TOKEN…); a real key never looks like that.
var keyVariableName = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*_(API_KEY|KEY|TOKEN)$`)

// literalKeyName reports whether key is the name of a key variable rather
// than a key: the variable model.api_key_env names, or any name shaped
// like one.
func literalKeyName(cfg config.Config, key string) bool {
	return key != "" && (key == cfg.Model.APIKeyEnv || keyVariableName.MatchString(key))
}

// dropLiteralKeyName returns "" for a key that is a variable's name: a
// local endpoint (which needs no key) then gets none, with a warning; any
// other endpoint is refused with what happened and the fix, and no request
// is sent.
func dropLiteralKeyName(cfg config.Config, key string) (string, error) {
	if !literalKeyName(cfg, key) {
		return key, nil
	}
	if isLoopbackURL(cfg.Model.BaseURL) {
		slog.Warn("the API key is the text "+key+", a variable's name rather than a key: sending no key to the local endpoint", "base_url", cfg.Model.BaseURL)
		return "", nil
	}
	return "", fmt.Errorf("%w: the API key is the text %q, the name of a variable rather than its value (the editor passed the name: CodeCompanion.nvim does when the variable is unset); set %s in the environment the editor starts from, or remove it from the editor's agent env", ErrNoAPIKey, key, key)
}
