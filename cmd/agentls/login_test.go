package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestLoginWritesConfigAndCredentials runs `agentls login` with its
// answers on stdin (no terminal): the key lands in a 0600 credentials
// file, config.yaml gets the model settings and keeps its other keys and
// comments; a second login replaces the settings, not the rest.
func TestLoginWritesConfigAndCredentials(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	root := t.TempDir()
	xdg := filepath.Join(root, "xdg")
	file := filepath.Join(xdg, "agentls", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("# my settings\nrun:\n  allow: [\"go test ./...\"] # keep\nmodel:\n  max_tokens: 2000\n  name: old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_CONFIG_HOME=" + xdg, "HOME=" + root}
	login := func(answers string) (int, string) {
		cmd, in, out, stderr := agentlsProcessEnv(t, env, "login")
		if _, err := in.Write([]byte(answers)); err != nil {
			t.Fatal(err)
		}
		_ = in.Close()
		b, _ := readAll(out)
		return wait(t, cmd), string(b) + stderr.String()
	}
	code, text := login("\nhttps://llm.example.com/v1\nmy-model\nsk-secret-1\n")
	if code != 0 {
		t.Fatalf("login exit %d:\n%s", code, text)
	}
	cred := filepath.Join(xdg, "agentls", "credentials")
	fi, err := os.Stat(cred)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("credentials mode %v, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(cred); string(b) != "sk-secret-1\n" {
		t.Errorf("credentials %q", b)
	}
	data, _ := os.ReadFile(file)
	if strings.Contains(string(data), "sk-secret") {
		t.Errorf("the key is in config.yaml:\n%s", data)
	}
	for _, want := range []string{"# my settings", "# keep", "go test ./..."} {
		if !strings.Contains(string(data), want) {
			t.Errorf("config.yaml lost %q:\n%s", want, data)
		}
	}
	var cfg struct {
		Model map[string]any `yaml:"model"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"provider": "openai", "base_url": "https://llm.example.com/v1", "name": "my-model", "api_key_file": cred, "max_tokens": 2000}
	for k, v := range want {
		if cfg.Model[k] != v {
			t.Errorf("model.%s = %v, want %v\n%s", k, cfg.Model[k], v, data)
		}
	}

	// Bad answers change nothing.
	before, _ := os.ReadFile(file)
	for _, bad := range []string{"anthropic\n\n\n\n", "\nftp://x\nm\nk\n", "\n\nm\nsk with spaces\n", "\n"} {
		if code, text := login(bad); code == 0 {
			t.Errorf("login with %q succeeded:\n%s", bad, text)
		}
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("a failed login changed config.yaml:\n%s", after)
	}
	if b, _ := os.ReadFile(cred); string(b) != "sk-secret-1\n" {
		t.Errorf("a failed login changed the credentials: %q", b)
	}
}

func readAll(r interface{ Read([]byte) (int, error) }) ([]byte, error) {
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, nil
		}
	}
}
