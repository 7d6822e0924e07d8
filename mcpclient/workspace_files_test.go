package mcpclient

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadWorkspaceFiles(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": {
	  "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"], "env": {"HOME2": "${env:HOME2}"}},
	  "gh": {"command": "gh-mcp", "env": {"TOKEN": "${input:token}"}},
	  "odd": {"command": "x", "args": ["${userHome}"]}
	}}`), 0o644))
	must(os.MkdirAll(filepath.Join(root, ".vscode"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".vscode", "mcp.json"), []byte(`{"servers": {"web": {"type": "http", "url": "https://example.com/mcp"}}, "inputs": []}`), 0o644))
	files := ReadWorkspaceFiles(root, func(k string) string { return map[string]string{"HOME2": "/h"}[k] }, nil)
	if len(files) != 2 {
		t.Fatalf("files = %+v", files)
	}
	specs := files[0].Specs
	if len(specs) != 3 || specs[0].Name != "fs" || specs[0].Args[2] != root || specs[0].Env["HOME2"] != "/h" || specs[0].Skip != "" {
		t.Errorf("fs = %+v", specs[0])
	}
	if !strings.Contains(specs[1].Skip, "${input:token}") {
		t.Errorf("gh = %+v", specs[1])
	}
	if !strings.Contains(specs[2].Skip, "${userHome}") {
		t.Errorf("odd = %+v", specs[2])
	}
	if w := files[1].Specs; len(w) != 1 || w[0].URL != "https://example.com/mcp" || w[0].Origin != FromWorkspaceFile {
		t.Errorf("vscode = %+v", w)
	}
	must(os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": [1]}`), 0o644))
	if files := ReadWorkspaceFiles(root, os.Getenv, nil); files[0].Err == nil {
		t.Error("a malformed .mcp.json gives no error")
	}
}
