//go:build linux && (amd64 || arm64)

package acp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/proctest"
)

// TestCloseSessionStopsItsMCPServers: the MCP servers an ACP client gave a
// session in session/new are the session's own (no other session uses
// them; a later session/load names its servers anew). Once the session is
// closed (session/close) nothing can call them again, so their processes
// must go: here the hostile server (mcpclient/testdata/hostile) starts at
// the session's first request with a child in its process group; after
// session/close the group — the server and its child — must be gone while
// the connection lives on. It fails while CloseSession leaves the
// session's servers in the pool, running until agentls exits (one set per
// session a long-lived client such as Zed opens and closes).
func TestCloseSessionStopsItsMCPServers(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "hostile")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcpclient/testdata/hostile").CombinedOutput(); err != nil {
		t.Fatalf("build the hostile server: %v\n%s", err, out)
	}
	logDir := t.TempDir()
	callLog := filepath.Join(logDir, "calls.log")
	// sandbox off (the user's trusted configuration): the child's pid the
	// server logs is this machine's, not a PID namespace's.
	r := newRig(t, setup{userConfig: "sandbox: {mode: \"off\"}\n", script: `
steps:
  - text: "Done."
`})
	sess, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{
		Name: "evil", Command: bin, Args: []string{},
		Env: []sdk.EnvVariable{{Name: "HOSTILE_LOG", Value: callLog}, {Name: "HOSTILE_CHILD", Value: "1"}},
	}}}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if stop := r.mustPrompt(sess.SessionId, "go"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	calls, _ := os.ReadFile(callLog)
	pid := proctest.LoggedChild(calls)
	if pid == 0 {
		t.Fatalf("the session's server did not start (no child pid in %q)", calls)
	}
	child, err := proctest.Watch(pid)
	if err != nil {
		t.Fatalf("watch the server's child: %v", err)
	}
	defer child.Close()
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) }) // the sleep this test started, whatever the outcome
	if gone, _ := child.Exited(0); gone {
		t.Fatal("the server's child exited before session/close")
	}
	if _, err := r.conn.CloseSession(r.ctx, sdk.CloseSessionRequest{SessionId: sess.SessionId}); err != nil {
		t.Fatalf("session/close: %v", err)
	}
	if gone, err := child.Exited(10 * time.Second); err != nil || !gone {
		t.Fatalf("the closed session's MCP server (its child %d) still runs 10 s after session/close: %v", pid, err)
	}
}
