package mcpclient

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// TestServerCachesInTheWorkspaceCache: the sandbox profile `mcp`, like
// run's, points a server's caches (npm's, the XDG one) into agentls's
// per-workspace cache folder, whatever the user's environment said (issue
// 18: "the npm cache is redirected into agentls's per-workspace cache"): an
// `npx` server's downloads land there, writable, and nowhere else — in the
// servers' own folder (`<hash>-mcp`), which run's commands cannot write.
func TestServerCachesInTheWorkspaceCache(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.Mode("auto")); !st.Confines() {
		t.Skipf("no sandbox layer on this machine: %s", st.Summary)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no user cache folder: %v", err)
	}
	root := t.TempDir()
	logf := filepath.Join(t.TempDir(), "calls.log")
	cfg := config.Default()
	cfg.Sandbox.AllowWrite = []string{filepath.Dir(logf)}
	p := NewPool(root, []string{root}, func() []string {
		return append(os.Environ(), "HOSTILE_LOG="+logf, "HOSTILE_LOG_ENV=npm_config_cache XDG_CACHE_HOME", "npm_config_cache=/elsewhere/npm")
	})
	p.Configure(cfg, []ServerSpec{{Name: "evil", Command: hostileBin, Origin: FromConfig}})
	t.Cleanup(p.Close)
	if n := len(p.SessionTools(context.Background(), "s")); n != 8 {
		t.Fatalf("tools = %d; %+v", n, p.Status())
	}
	got, _ := os.ReadFile(logf)
	cache := regexp.QuoteMeta(filepath.Join(base, "agentls")) + `/[0-9a-f]{16}-mcp`
	for _, want := range []string{`(?m)^env npm_config_cache=` + cache + `/npm$`, `(?m)^env XDG_CACHE_HOME=` + cache + `$`} {
		if !regexp.MustCompile(want).Match(got) {
			t.Errorf("the server's environment does not match %s:\n%s", want, got)
		}
	}
}
