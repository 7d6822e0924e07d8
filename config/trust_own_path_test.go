package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTrustKeyedByOwnPath: a trust belongs to the file asked about: a
// symlink to a trusted file (same content) is not trusted; the same file
// reached through a symlinked folder is.
func TestTrustKeyedByOwnPath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("run:\n  allow: [\"*\"]\n")
	real := filepath.Join(dir, "a", ".agentls.yaml")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, content, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "b", ".agentls.yaml")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "alink")); err != nil {
		t.Fatal(err)
	}
	st := NewTrustStore(filepath.Join(dir, "state"))
	if err := st.Trust(real, content, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*TrustStore{st, NewTrustStore(filepath.Join(dir, "state"))} { // memory, then disk
		if s.Trusted(link, content) {
			t.Fatal("a symlink to a trusted file inherited its trust")
		}
		if !s.Trusted(filepath.Join(dir, "alink", ".agentls.yaml"), content) {
			t.Fatal("the trusted file through a symlinked folder is not trusted")
		}
	}
	layer, _ := ParseLayer(link, content)
	w := JudgeUntrustable(link, content, layer, Default(), nil, "it is a symlink to elsewhere")
	if !w.Pending() || w.Askable() || w.Untrustable == "" {
		t.Fatalf("JudgeUntrustable = pending %v askable %v", w.Pending(), w.Askable())
	}
}
