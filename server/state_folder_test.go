package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestStateFolderOutOfReach (issue 17 item 4): with agentls's state folder
// inside the workspace, a build session's model cannot forge the trust
// record of the .agentls.yaml the user declined (write refused, read
// refused), and at the next start the user is asked again.
func TestStateFolderOutOfReach(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(dir, "state"), "XDG_CONFIG_HOME": t.TempDir(), "HOME": t.TempDir()}
	stateDir := config.StateDir(func(k string) string { return env[k] })
	yamlPath := filepath.Join(dir, ".agentls.yaml")
	sum := sha256.Sum256([]byte(trustedYAML))
	h := sha256.Sum256([]byte(yamlPath))
	record := filepath.Join(stateDir, "trust", hex.EncodeToString(h[:16])+".json")
	forged := fmt.Sprintf(`{"path":%q,"sha256":%q,"trusted_at":"2025-01-01T00:00:00Z"}`, yamlPath, hex.EncodeToString(sum[:]))
	script := fmt.Sprintf(`
name: forge-trust
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: %q, content: %q}}
      - {id: r, name: read, args: {path: "state/agentls/trust"}}
  - text: done
`, record, forged)
	rec := &trustRecorder{trustAnswer: "Don't trust"}
	files := map[string]string{".agentls.yaml": trustedYAML, "state/agentls/trust/README": "x\n"}
	e := lsptest.Start(t, lsptest.Setup{Dir: dir, Files: files, Env: env, Caps: noAskUser(), Script: script,
		Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	e.AwaitMessage("window/showMessageRequest", "Trust it?")
	s := e.NewSession("build")
	wantStop(t, e.Prompt(s.SessionID, "forge it"), "end_turn")
	for _, id := range []string{"w", "r"} {
		if ok, result, errText := planToolResult(e, id); ok || !strings.Contains(errText, "agentls's state folder") {
			t.Errorf("tool call %s: ok %v %s %q, want refused naming the state folder", id, ok, result, errText)
		}
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Fatalf("the trust record was written: %v", err)
	}
	if err := e.Editor.Shutdown(e.Ctx); err != nil {
		t.Fatal(err)
	}
	rec = &trustRecorder{trustAnswer: "Don't trust"}
	e = lsptest.Start(t, lsptest.Setup{Dir: dir, Env: env, Caps: noAskUser(), Script: runEchoScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	e.AwaitMessage("window/showMessageRequest", "Trust it?")
	if runOutcome(e) {
		t.Fatal("the declined run.allow applied at the next start")
	}
}

// TestHomeWorkspacePlanOnly (issue 17 item 4): an LSP workspace at the home
// folder starts sessions in plan mode and refuses build mode with a clear
// error, whatever the configuration's default.
func TestHomeWorkspacePlanOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}
	e := lsptest.Start(t, lsptest.Setup{Dir: dir, Env: env, InitOpts: map[string]any{"plan_mode": map[string]any{"default_active": false}}})
	var out map[string]any
	if err := e.Editor.Call(e.Ctx, "agent/newSession", map[string]any{"mode": "build"}, &out); err == nil || !strings.Contains(err.Error(), "open a project folder") {
		t.Fatalf("agent/newSession build at home: %v %v, want refused", out, err)
	}
	s := e.NewSession("")
	if s.Mode != "plan" {
		t.Fatalf("default session at home in %s, want plan", s.Mode)
	}
	if err := e.Editor.Call(e.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "build"}, &out); err == nil || !strings.Contains(err.Error(), "your home folder") {
		t.Fatalf("agent/setMode build at home: %v %v, want refused", out, err)
	}
}
