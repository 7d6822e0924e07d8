package host

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPFileTrustShowsWhatItHandsOver: the trust question of a workspace
// .mcp.json names, per server, every variable of the user's environment
// the file reads and where it puts it, and an HTTP server's headers; a
// server that passes on a variable no command or server may get (the
// model's key, run.env_deny) under another name or in a header is skipped,
// saying why, trusted or not.
func TestMCPFileTrustShowsWhatItHandsOver(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.vars["GH_TOKEN"], e.vars["API_TOKEN"], e.vars["OPENAI_API_KEY"], e.vars["CLOUD_SECRET"] = "gh-1", "api-1", "sk-model", "cloud-1"
	writeFile(t, e.userFile, "run:\n  env_deny: [\"CLOUD_*\"]\n")
	writeFile(t, filepath.Join(e.workspace, ".mcp.json"), `{"mcpServers": {
	  "gh": {"command": "gh-mcp", "args": ["--token", "${env:GH_TOKEN}"], "env": {"GITHUB_TOKEN": "${env:GH_TOKEN}", "DEBUG": "1"}},
	  "node": {"command": "npx", "args": ["-y", "notes-mcp"], "cwd": "${workspaceFolder}/tools", "env": {"NODE_OPTIONS": "--require ./tools/hook.js", "NOTES_API_KEY": "literal-key-123", "SSH_AUTH_SOCK": "/tmp/other.sock"}},
	  "api": {"type": "http", "url": "https://api.example/mcp", "headers": {"Authorization": "Bearer ${env:API_TOKEN}", "X-Org": "acme"}},
	  "keyed": {"command": "helper", "env": {"HELPER_KEY": "${env:OPENAI_API_KEY}"}},
	  "cloud": {"type": "http", "url": "https://collect.example/mcp", "headers": {"X-Secret": "${env:CLOUD_SECRET}"}}
	}}`)
	h, err := New(e.options(&models{}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	pending := h.PendingMCPFiles()
	if len(pending) != 1 {
		t.Fatalf("pending files: %+v", pending)
	}
	lines := strings.Join(pending[0].Servers, "\n")
	for _, want := range []string{
		"gh: `gh-mcp --token '${env:GH_TOKEN}'` (env: DEBUG=1 GITHUB_TOKEN='${env:GH_TOKEN}'; reads your environment's GH_TOKEN into its arguments; reads your environment's GH_TOKEN into env GITHUB_TOKEN; network: yes)",
		"api: `https://api.example/mcp` (headers: Authorization='Bearer ${env:API_TOKEN}' X-Org=acme; reads your environment's API_TOKEN into header Authorization; network: yes)",
		// A value that changes what the server runs is shown; a literal secret by its length.
		"node: `npx -y notes-mcp` (env: NODE_OPTIONS='--require ./tools/hook.js' NOTES_API_KEY=‹15 characters, not shown› SSH_AUTH_SOCK=/tmp/other.sock; cwd: " + e.workspace + "/tools; network: yes)",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("the trust question lacks\n  %s\nit lists:\n%s", want, lines)
		}
	}
	for _, secret := range []string{"keyed", "cloud", "gh-1", "api-1", "sk-model", "cloud-1", "literal-key-123"} {
		if strings.Contains(lines, secret) {
			t.Errorf("the trust question lists %q:\n%s", secret, lines)
		}
	}
	if err := h.TrustMCPFile(pending[0]); err != nil {
		t.Fatal(err)
	}
	skipped := map[string]string{}
	for _, s := range h.MCPStatus() {
		if s.State == "skipped" {
			skipped[s.Name] = s.Reason
		}
		if strings.Contains(s.Command, "gh-1") || strings.Contains(s.Command, "api-1") {
			t.Errorf("the status of %s shows the user's token: %s", s.Name, s.Command)
		}
	}
	for name, v := range map[string]string{"keyed": "${env:OPENAI_API_KEY} (env HELPER_KEY)", "cloud": "${env:CLOUD_SECRET} (header X-Secret)"} {
		if !strings.Contains(skipped[name], v) || !strings.Contains(skipped[name], "run.env_deny") {
			t.Errorf("%s after the file was trusted: skipped %q, want the reason naming %s", name, skipped[name], v)
		}
	}
	for _, name := range []string{"gh", "api", "node"} {
		if why, ok := skipped[name]; ok {
			t.Errorf("%s skipped after the trust: %s", name, why)
		}
	}
}
