package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/config"
)

// maxKeyFileBytes caps a model.api_key_file (a key is a line, not a file).
const maxKeyFileBytes = 16 << 10

// apiKey is the model's key: model.api_key, else the file model.api_key_file
// names (written by `agentls login`; its first line), else the variable
// model.api_key_env names. A key file that cannot be read is an error
// saying which file.
func apiKey(cfg config.Config, getenv func(string) string) (string, error) {
	if cfg.Model.APIKey != "" || cfg.Model.APIKeyFile == "" {
		return cfg.APIKey(getenv), nil
	}
	path := cfg.Model.APIKeyFile
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("model.api_key_file %q must be an absolute path", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("model.api_key_file: %w (run `agentls login` again)", err)
	}
	defer f.Close()
	buf := make([]byte, maxKeyFileBytes+1)
	n, _ := f.Read(buf)
	if n > maxKeyFileBytes {
		return "", fmt.Errorf("model.api_key_file %s is over %d KB: it should hold one key", path, maxKeyFileBytes>>10)
	}
	key, _, _ := strings.Cut(string(buf[:n]), "\n")
	key = strings.TrimSpace(key)
	if key == "" {
		return "", fmt.Errorf("model.api_key_file %s is empty (run `agentls login` again)", path)
	}
	return key, nil
}
