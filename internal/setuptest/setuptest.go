// Package setuptest is what the end-to-end test harnesses
// (server/internal/lsptest, acp/internal/acptest) share in setting a test
// up: the workspace's files and the scripted model.
package setuptest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agent/scripted"
)

// WriteFiles writes files (slash-separated names relative to dir, and
// their content) under dir, creating folders; it fails the test on an
// error.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Model is the scripted model of a YAML transcript (nil for ""); a script
// that does not parse fails the test.
func Model(t testing.TB, script string) *scripted.Provider {
	t.Helper()
	if script == "" {
		return nil
	}
	sc, err := scripted.Parse([]byte(script))
	if err != nil {
		t.Fatalf("script: %v", err)
	}
	return scripted.New(sc)
}

// ReadFile returns the content of a file under dir (name is
// slash-separated, relative to dir); it fails the test on an error.
func ReadFile(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
