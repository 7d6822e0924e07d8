package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestSymlinkedConfigNotTrusted (issue 17 item 4): a workspace's
// .agentls.yaml that is a symlink to a file the user trusted in another
// project does not inherit that trust; since its target lies outside the
// workspace it is never trusted: the warning says so, nobody is asked, and
// its run.allow does not apply.
func TestSymlinkedConfigNotTrusted(t *testing.T) {
	t.Parallel()
	dir, other, state := t.TempDir(), t.TempDir(), t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state, "XDG_CONFIG_HOME": t.TempDir()}
	target := filepath.Join(other, ".agentls.yaml")
	if err := os.WriteFile(target, []byte(trustedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := config.NewTrustStore(config.StateDir(func(k string) string { return env[k] })).Trust(target, []byte(trustedYAML), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, ".agentls.yaml")); err != nil {
		t.Fatal(err)
	}
	rec := &trustRecorder{trustAnswer: "Trust"}
	h := lsptest.Start(t, lsptest.Setup{Dir: dir, Env: env, Caps: noAskUser(), Script: runEchoScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	warning := h.AwaitMessage("window/showMessage", `"type":2`, "run.allow", "outside the workspace")
	if !strings.Contains(string(warning), "never trusts") {
		t.Fatalf("warning = %s", warning)
	}
	if runOutcome(h) {
		t.Fatal("a symlink to a file trusted elsewhere inherited its trust: run.allow applied")
	}
	if trustAsks, runAsks := rec.counts(); trustAsks != 0 || runAsks != 1 {
		t.Fatalf("%d trust and %d run requests, want 0 (never trusted, so not asked) and 1", trustAsks, runAsks)
	}
}
