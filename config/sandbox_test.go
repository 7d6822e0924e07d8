package config

import (
	"reflect"
	"testing"
)

// TestSandboxKeysNeedTrust: every sandbox key and run.network widen what
// a command may do (mode off, more writable folders, the network), so an
// untrusted workspace file sets none of them.
func TestSandboxKeysNeedTrust(t *testing.T) {
	for _, c := range []struct {
		yaml string
		want []string
	}{
		{"sandbox:\n  mode: off\n", []string{"sandbox.mode"}},
		{"sandbox:\n  mode: landlock\n  allow_write: [\"~/.bashrc.d\"]\n", []string{"sandbox.allow_write", "sandbox.mode"}},
		{"sandbox:\n  deny_read: []\n", []string{"sandbox.deny_read"}},
		{"run:\n  network: [\"curl *\"]\n", []string{"run.network"}},
	} {
		layer, diags := ParseLayer("/ws/.agentls.yaml", []byte(c.yaml))
		if hasErrors(diags) {
			t.Fatalf("%q: %v", c.yaml, diags)
		}
		if _, widening := SplitTrust(layer, Default()); !reflect.DeepEqual(widening, c.want) {
			t.Errorf("%q: widening %q, want %q", c.yaml, widening, c.want)
		}
	}
}

// TestSandboxSchema: the keys resolve, and bad values are refused with a
// diagnostic.
func TestSandboxSchema(t *testing.T) {
	layer, diags := ParseLayer("/u/config.yaml", []byte("sandbox:\n  mode: bwrap\n  deny_read: [\"~/secrets\", \"/srv/keys\"]\n  allow_write: [\"/data\"]\nrun:\n  network: [\"go mod download\"]\n"))
	if hasErrors(diags) {
		t.Fatal(diags)
	}
	cfg, err := Resolve(layer)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Sandbox.Mode != "bwrap" || cfg.Sandbox.DenyRead[1] != "/srv/keys" || cfg.Sandbox.AllowWrite[0] != "/data" || cfg.Run.Network[0] != "go mod download" {
		t.Errorf("resolved %+v %+v", cfg.Sandbox, cfg.Run)
	}
	for _, bad := range []string{
		"sandbox:\n  mode: none\n",
		"sandbox:\n  deny_read: [\"relative/path\"]\n",
		"sandbox:\n  allow_write: [\"\"]\n",
		"sandbox:\n  network: true\n",
		"run:\n  network: \"curl\"\n",
	} {
		if _, diags := ParseLayer("/u/config.yaml", []byte(bad)); !hasErrors(diags) {
			t.Errorf("%q accepted", bad)
		}
	}
}
