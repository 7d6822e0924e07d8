package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestCloseSessionReleasesTheLock: session/close releases the session's
// lock while the connection lives on: another agentls process (a second
// rig on the same folder) can then load it, which it could not before.
func TestCloseSessionReleasesTheLock(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	first := newRig(t, setup{dir: dir})
	sid := first.newSession().SessionId
	second := newRig(t, setup{dir: dir})
	load := sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}
	if _, err := second.conn.LoadSession(second.ctx, load); err == nil || !strings.Contains(err.Error(), "another") {
		t.Fatalf("loading a session another process drives = %v", err)
	}
	if _, err := first.conn.CloseSession(first.ctx, sdk.CloseSessionRequest{SessionId: sid}); err != nil {
		t.Fatalf("session/close: %v", err)
	}
	if _, err := second.conn.LoadSession(second.ctx, load); err != nil {
		t.Fatalf("load after session/close: %v", err)
	}
}
