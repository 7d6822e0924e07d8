// Package realservers finds the real language servers the tests start
// (scripts/install-lsp installs them): $AGENTLS_GOPLS, else the install
// script's cache folder, else PATH. Without one a test skips, except
// under CI, where it fails.
package realservers

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Gopls is the gopls binary of the tests.
func Gopls(t testing.TB) string {
	t.Helper()
	return find(t, "gopls", "AGENTLS_GOPLS")
}

// TypeScriptLanguageServer is the typescript-language-server binary of the
// tests (it finds typescript beside it).
func TypeScriptLanguageServer(t testing.TB) string {
	t.Helper()
	return find(t, "typescript-language-server", "AGENTLS_TSLS")
}

func find(t testing.TB, name, env string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	cache := os.Getenv("AGENTLS_CACHE")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache", "agentls")
		}
	}
	if cache != "" {
		p := filepath.Join(cache, "lsp", "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s not found (scripts/install-lsp installs it): CI does not skip the language-server tests", name)
	}
	t.Skipf("%s not found: run scripts/install-lsp", name)
	return ""
}
