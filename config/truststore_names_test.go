package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTrustIsRememberedForAProjectWhoseFolderNameIsNotUTF8: the user
// trusted this .agentls.yaml; the next agentls must know it, whatever
// bytes the project's folder name holds. Found by
// FuzzTrustStoreRemembersExactlyWhatWasTrusted.
func TestTrustIsRememberedForAProjectWhoseFolderNameIsNotUTF8(t *testing.T) {
	root := filepath.Join(t.TempDir(), "caf\xe9")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".agentls.yaml")
	content := []byte("run:\n  allow: [make]\n")
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	if err := NewTrustStore(state).Trust(file, content, time.Now()); err != nil {
		t.Fatal(err)
	}
	if !NewTrustStore(state).Trusted(file, content) {
		t.Fatalf("after a restart, the trusted %q is asked about again: the record names another path", file)
	}
}
