package langpool

import (
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/sandbox"
)

// TestServerStartsWhenACoveredSocketGoesAway: a listening socket outside
// the workspace that goes away with its folder while a language server
// starts under bubblewrap (an editor's IPC socket, a test's temporary
// folder) stopped bubblewrap before the server ran, and the file got no
// diagnostics; the server is prepared once more and answers.
func TestServerStartsWhenACoveredSocketGoesAway(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); st.Mode != "landlock+bwrap" {
		t.Skipf("needs bubblewrap: %s", st.Summary)
	}
	sock := proctest.NewVanishingSocket(t)
	testHookPrepared = sock.Vanish // after the sockets were listed, before the start
	t.Cleanup(func() { testHookPrepared = nil })
	root := t.TempDir()
	p := fakePoolWith(t, root, map[string]string{"a.go": "package a\n// BAD\n"}, Options{}, func(c *config.Config) { c.Sandbox.Mode = "auto" })
	a := filepath.Join(root, "a.go")
	if got := settle(t, p, a)[a]; len(got) == 0 {
		t.Fatalf("no diagnostics for %s: the server did not start", a)
	}
	if !sock.Gone() {
		t.Fatal("the socket was not removed between preparing and starting: nothing proven")
	}
}
