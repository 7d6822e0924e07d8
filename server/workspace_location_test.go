package server_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/server"
)

// TestWorkspaceAboveHomeRefusedLSP (issue 17 item 4, the LSP face): a
// workspace folder that holds the home folder is not opened: initialize
// fails naming the folder and why, and nothing is written there (no
// .agentls/). The ACP face has TestWorkspaceLocationThroughACP.
func TestWorkspaceAboveHomeRefusedLSP(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	home := filepath.Join(parent, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := serveNetPipe(t, ctx, server.Options{Getenv: func(k string) string { return env[k] }})
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + parent + `","capabilities":{}}}`)
	reply := c.next()
	msg := fmt.Sprint(reply["error"])
	if reply["error"] == nil || !strings.Contains(msg, "holds your home folder") || !strings.Contains(msg, parent) {
		t.Fatalf("initialize in a folder holding home = %v, want refused naming %s", reply, parent)
	}
	if _, err := os.Stat(filepath.Join(parent, ".agentls")); !os.IsNotExist(err) {
		t.Fatalf("agentls wrote into the refused folder: %v", err)
	}
}
