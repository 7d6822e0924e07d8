package host

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestDanglingUserConfigLinkFailsClosed: the user's config.yaml is often a
// symbolic link into a dotfiles repository (stow, chezmoi, home-manager).
// When the link dangles (the repository moved, a volume not mounted), the
// file exists but cannot be read, and docs/protocol.md says an unreadable
// configuration layer fails closed: no model request is sent. agentls
// instead takes it for "no file", so the built-in hosted endpoint
// (api.openai.com, with OPENAI_API_KEY from the environment) stands in for
// the user's local model: the workspace's code goes to a hosted service the
// user configured away from.
func TestDanglingUserConfigLinkFailsClosed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.vars["OPENAI_API_KEY"] = "sk-audit-not-a-real-key"
	if err := os.MkdirAll(filepath.Dir(e.userFile), 0o755); err != nil {
		t.Fatal(err)
	}
	// The dotfiles repository the link led to is gone.
	if err := os.Symlink(filepath.Join(t.TempDir(), "dotfiles", "agentls", "config.yaml"), e.userFile); err != nil {
		t.Fatal(err)
	}
	m := &models{}
	h, err := New(e.options(m))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.BlockedBy(); err == nil {
		m.mu.Lock()
		built := fmt.Sprint(m.built)
		m.mu.Unlock()
		t.Fatalf("config.yaml is a dangling link (it cannot be read), yet the configuration loaded and models were built for %v: "+
			"the built-in hosted endpoint stands in for the user's own configuration", built)
	}
}
