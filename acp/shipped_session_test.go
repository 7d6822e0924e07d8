package acp_test

import (
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestShippedSessionLoadsInPlanModeACP: a session file that came with the
// workspace (committed in .agentls/chats) is listed and loaded in plan
// mode over ACP, whatever its frontmatter says (docs/sessions.md).
func TestShippedSessionLoadsInPlanModeACP(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ws")
	const id = "0192f000-0000-7000-8000-00000000beef"
	chat := "---\nid: " + id + "\ntitle: Continue the refactor\nmode: build\nplan_file: null\n" +
		"created_at: 2099-01-01T00:00:00Z\nupdated_at: 2099-01-01T00:00:00Z\nreview: \"off\"\n---\n"
	if err := os.MkdirAll(filepath.Join(dir, ".agentls", "chats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".agentls", "chats", id+".chat"), []byte(chat), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, setup{dir: dir})
	res, err := r.conn.LoadSession(r.ctx, sdk.LoadSessionRequest{SessionId: id, Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if res.Modes == nil || res.Modes.CurrentModeId != "plan" {
		t.Fatalf("the shipped session loaded in %+v, want plan", res.Modes)
	}
}
