package mcpclient

import (
	"context"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/sandbox"
)

// TestServerStartsWhenACoveredSocketGoesAway: a listening socket outside
// the workspace that goes away with its folder while an MCP server starts
// under bubblewrap (an editor's IPC socket, a test's temporary folder)
// stopped bubblewrap before the server ran, and its tools were missing
// for the session; the server starts, and lists its tools.
func TestServerStartsWhenACoveredSocketGoesAway(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); st.Mode != "landlock+bwrap" {
		t.Skipf("needs bubblewrap: %s", st.Summary)
	}
	sock := proctest.NewVanishingSocket(t)
	testHookPrepared = sock.Vanish // after the sockets were listed, before the start
	t.Cleanup(func() { testHookPrepared = nil })
	cfg := config.Default()
	cfg.Sandbox.Mode = "auto"
	p, _ := hostilePool(t, cfg)
	if n := len(p.SessionTools(context.Background(), "s")); n != 8 {
		t.Fatalf("tools = %d, want the server's 8: %+v", n, p.Status())
	}
	if !sock.Gone() {
		t.Fatal("the socket was not removed between preparing and starting: nothing proven")
	}
}
