//go:build linux

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/internal/realservers"
)

// TestLanguageIntelThroughTheBinary drives the real `agentls acp` with the
// real gopls in its pool, started through the binary's own sandbox
// launcher: the edit's type error comes back in the same tool call, the
// step ticks only after the fix, and gopls stops when agentls does.
func TestLanguageIntelThroughTheBinary(t *testing.T) {
	gopls := realservers.Gopls(t)
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	files := map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n",
		"main.go":  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tunused := 1\n\tfmt.Println(Greet(\"x\"))\n}\n",
		"greet.go": "package main\n\n// Greet greets.\nfunc Greet(name string) string { return \"hello \" + name }\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script, err := filepath.Abs("../../testdata/scripts/language_intel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(gopls)
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte("model: {provider: scripted, script: "+script+"}\nlsp: {settle_ms: 30000, servers: {go: {command: ["+string(g)+"]}}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mark := make([]byte, 8)
	_, _ = rand.Read(mark)
	marker := "AGENTLS_TEST_LSP_MARK=" + hex.EncodeToString(mark)
	cmd, in, out, stderr := agentlsProcessEnv(t, []string{marker, "XDG_CACHE_HOME=" + filepath.Join(root, "cache"), "XDG_STATE_HOME=" + filepath.Join(root, "state")},
		"--config", cfg, "acp")
	client := &permClient{answers: []string{"Accept & Build"}}
	conn := sdk.NewClientSideConnection(client, in, out)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("greet someone else")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v\n%s", res, err, stderr)
	}
	got := client.callOutcomes()
	if !strings.HasPrefix(got["e1"], "completed ") || !strings.Contains(got["e1"], "New problems:\nmain.go:7: error: cannot use 42") || strings.Contains(got["e1"], "unused") {
		t.Errorf("the breaking edit = %q, want its new type error only", got["e1"])
	}
	if !strings.HasPrefix(got["t1"], "failed ") || !strings.HasPrefix(got["t2"], "completed ") {
		t.Errorf("ticks = %q, %q; want refused, then done", got["t1"], got["t2"])
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "plans", "greet.plan")); !bytes.Contains(b, []byte("- [x] Change the greeting")) {
		t.Errorf("plan not ticked:\n%s", b)
	}
	// gopls (found by the marker in its environment) ends with agentls.
	var pids []int
	for _, pid := range marked(marker) {
		if pid != cmd.Process.Pid {
			pids = append(pids, pid)
		}
	}
	if len(pids) == 0 {
		t.Fatal("no language server process carries the test's marker")
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("agentls exited %d:\n%s", code, stderr)
	}
	for _, pid := range pids {
		p, err := proctest.Watch(pid)
		if err != nil {
			continue // already gone
		}
		exited, err := p.Exited(15 * time.Second)
		_ = p.Close()
		if err != nil || !exited {
			t.Errorf("process %d of the pool outlived agentls", pid)
		}
	}
}

// marked lists the processes whose environment holds marker.
func marked(marker string) []int {
	var out []int
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, e := range envs {
		b, err := os.ReadFile(e)
		if err != nil || !bytes.Contains(b, []byte(marker+"\x00")) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(e))); err == nil && pid != os.Getpid() {
			out = append(out, pid)
		}
	}
	return out
}
