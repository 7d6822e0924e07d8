package config

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzTrustStoreRemembersExactlyWhatWasTrusted: a trust is remembered per
// file and content. After Trust(file, content), the content is trusted,
// in this process and in the next one (a new store over the same state
// folder); any other content of that file is not, nor that content of
// another file. A damaged record trusts nothing.
func FuzzTrustStoreRemembersExactlyWhatWasTrusted(f *testing.F) {
	f.Add(".agentls.yaml", []byte("run:\n  allow: [make]\n"), []byte("run:\n  allow: [make, rm]\n"), []byte(`{"path":"x"}`))
	f.Add("sub dir/.mcp.json", []byte(`{"mcpServers":{}}`), []byte(`{"mcpServers":{} }`), []byte(`not json`))
	f.Add("caf\xe9/.agentls.yaml", []byte("review: off\n"), []byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, name string, content, other, damaged []byte) {
		if name == "" || len(name) > 200 || bytes.ContainsRune([]byte(name), 0) || filepath.IsAbs(name) || filepath.Clean(name) != name || name == "." || name[0] == '.' && len(name) > 1 && name[1] == '.' {
			return
		}
		root := t.TempDir()
		file := filepath.Join(root, name)
		if os.MkdirAll(filepath.Dir(file), 0o755) != nil || os.WriteFile(file, content, 0o644) != nil {
			return
		}
		state := t.TempDir()
		ts := NewTrustStore(state)
		if err := ts.Trust(file, content, time.Unix(0, 0)); err != nil {
			t.Fatalf("Trust: %v", err)
		}
		for when, s := range map[string]*TrustStore{"now": ts, "after a restart": NewTrustStore(state)} {
			if !s.Trusted(file, content) {
				t.Fatalf("%s: the trusted content of %q is not trusted", when, name)
			}
			if !bytes.Equal(other, content) && s.Trusted(file, other) {
				t.Fatalf("%s: other content of %q is trusted", when, name)
			}
			if s.Trusted(filepath.Join(root, "elsewhere.yaml"), content) {
				t.Fatalf("%s: the content is trusted for another file", when)
			}
		}
		entries, _ := os.ReadDir(filepath.Join(state, "trust"))
		for _, e := range entries {
			if err := os.WriteFile(filepath.Join(state, "trust", e.Name()), damaged, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if NewTrustStore(state).Trusted(file, content) && !bytes.Contains(damaged, []byte(`"sha256"`)) {
			t.Fatalf("a damaged record %q still trusts %q", damaged, name)
		}
	})
}
