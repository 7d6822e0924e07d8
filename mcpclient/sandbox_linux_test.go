package mcpclient

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// TestServerRunsInTheSandbox: an MCP stdio server starts in the sandbox
// (the profile `mcp`: run's): it writes in the workspace, not outside it
// nor in .git, and does not read agentls's state folder; with
// sandbox.mode off it could (what off changes).
func TestServerRunsInTheSandbox(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.Mode("auto")); !st.Confines() {
		t.Skipf("no sandbox layer on this machine: %s", st.Summary)
	}
	outside := t.TempDir()
	for _, tc := range []struct {
		mode        string
		outsideDeny bool
	}{{"auto", true}, {"off", false}} {
		t.Run(tc.mode, func(t *testing.T) {
			cfg := config.Default()
			cfg.Sandbox.Mode = tc.mode
			p, _ := hostilePool(t, cfg)
			if err := os.Mkdir(filepath.Join(p.root, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if n := len(p.SessionTools(ctx, "s")); n != 8 {
				t.Fatalf("tools = %d; %+v", n, p.Status())
			}
			s := p.servers("s")[0]
			write := func(path string) error {
				res, err := s.Call(ctx, "write_note", map[string]any{"path": path, "content": "x"}, 10*time.Second, 30000)
				if err == nil && res.IsError {
					return os.ErrPermission
				}
				return err
			}
			if err := write(filepath.Join(p.root, "inside.txt")); err != nil {
				t.Errorf("write in the workspace: %v", err)
			}
			for _, target := range []string{filepath.Join(outside, tc.mode+"-outside.txt"), filepath.Join(p.root, ".git", "hooks-"+tc.mode)} {
				err := write(target)
				_, statErr := os.Stat(target)
				if tc.outsideDeny && (err == nil || statErr == nil) {
					t.Errorf("%s: the server wrote %s (err %v)", tc.mode, target, err)
				}
				if !tc.outsideDeny && (err != nil || statErr != nil) && !strings.Contains(target, ".git") {
					t.Errorf("%s: with the sandbox off the write of %s failed: %v", tc.mode, target, err)
				}
			}
		})
	}
}
