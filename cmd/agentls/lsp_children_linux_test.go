package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/proctest"
)

// promptOnce initializes the ACP connection, opens a session in dir and
// sends one prompt, which must end its turn.
func promptOnce(ctx context.Context, t *testing.T, conn *sdk.ClientSideConnection, dir string, stderr fmt.Stringer) {
	t.Helper()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}}); err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", res, err, stderr)
	}
}

// stubbornPids reads the server's and its grandchild's pids from the
// diagnostics it answered ("pids <server> <grandchild>").
var stubbornPids = regexp.MustCompile(`pids (\d+) (\d+)`)

// TestLanguageServerGoesWithKilledAgentls: a language server that ignores
// stdin EOF and SIGTERM, and the grandchild it started, are gone once
// agentls is killed with SIGKILL: under Landlock alone its reaper ends
// them, and with the sandbox off, where the server killed its reaper
// first, the watchdog in its process group does. The "kills its reaper"
// row fails on f75712e, where language servers had no watchdog and both
// lived on.
func TestLanguageServerGoesWithKilledAgentls(t *testing.T) {
	t.Parallel()
	bin := buildProgram(t, "../../langpool/testdata/stubborn")
	for _, c := range []struct {
		name, mode string
		killReaper bool
	}{
		{"landlock", "landlock", false},
		{"off", "off", false},
		{"off, kills its reaper", "off", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "ws")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeText(t, filepath.Join(dir, "a.go"), "package a\n")
			script := writeText(t, filepath.Join(root, "script.yaml"), `
steps:
  - tool_calls:
      - {id: d, name: code, args: {op: diagnostics, path: a.go}}
  - text: "Done."
`)
			cfg := writeText(t, filepath.Join(root, "agentls.yaml"), fmt.Sprintf(`model: {provider: scripted, script: %q}
sandbox: {mode: %s}
lsp: {source: pool, servers: {go: {command: [%q]}}}
`, script, c.mode, bin))
			env := []string{"XDG_CACHE_HOME=" + filepath.Join(root, "cache"), "XDG_STATE_HOME=" + filepath.Join(root, "state")}
			if c.killReaper {
				env = append(env, "STUBBORN_KILL_REAPER=1")
			}
			cmd, in, out, stderr := agentlsProcessEnv(t, env, "--config", cfg, "acp")
			defer in.Close()
			client := &permClient{}
			conn := sdk.NewClientSideConnection(client, in, out)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			promptOnce(ctx, t, conn, dir, stderr)
			got := client.callOutcomes()["d"]
			m := stubbornPids.FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("the diagnostics name no pids: %q; stderr:\n%s", got, stderr)
			}
			var procs []*proctest.Process
			for _, s := range m[1:] {
				pid, _ := strconv.Atoi(s)
				p, err := proctest.Watch(pid)
				if err != nil {
					t.Fatalf("watch %d: %v", pid, err)
				}
				defer p.Close()
				procs = append(procs, p)
			}
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			for i, p := range procs {
				if gone, err := p.Exited(20 * time.Second); err != nil || !gone {
					t.Errorf("the language server's %s (%s) still runs 20 s after agentls was killed: %v", []string{"process", "grandchild"}[i], m[i+1], err)
					pid, _ := strconv.Atoi(m[i+1])
					_ = syscall.Kill(pid, syscall.SIGKILL) // still running: not another's pid
				}
			}
		})
	}
}
