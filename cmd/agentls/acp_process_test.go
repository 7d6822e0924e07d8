package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/permission"
)

// acpClient is a minimal ACP client: it records session updates and
// cancels permission requests; it declares no file system or terminal.
type acpClient struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
}

// personReads is how long the tests' person takes over a question before
// answering it: agentls takes an allowing answer given within
// permission.HumanFloor as the client's own, not a person's.
const personReads = permission.HumanFloor + 50*time.Millisecond

func (c *acpClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates = append(c.updates, n)
	return nil
}

func (c *acpClient) RequestPermission(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}, nil
}

var errUndeclared = sdk.NewMethodNotFound("undeclared capability")

func (c *acpClient) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errUndeclared
}
func (c *acpClient) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errUndeclared
}
func (c *acpClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errUndeclared
}
func (c *acpClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errUndeclared
}
func (c *acpClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errUndeclared
}
func (c *acpClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errUndeclared
}
func (c *acpClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errUndeclared
}

// jsonLines passes stdout through to the client and records every line
// that is not one JSON object (stdout must carry only the protocol).
type jsonLines struct {
	mu  sync.Mutex
	bad []string
}

func (j *jsonLines) filter(r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var m map[string]any
			if json.Unmarshal(line, &m) != nil || m["jsonrpc"] != "2.0" {
				j.mu.Lock()
				j.bad = append(j.bad, string(line))
				j.mu.Unlock()
			}
			if _, err := pw.Write(append(append([]byte(nil), line...), '\n')); err != nil {
				return
			}
		}
		_ = pw.CloseWithError(sc.Err())
	}()
	return pr
}

// TestACPProcess drives the real `agentls acp` process over stdio with the
// SDK's client side: protocol only on stdout, a plan-mode turn with the
// scripted model, a malformed line answered, a clean exit at EOF.
func TestACPProcess(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(script, []byte(`
steps:
  - text: "Trying."
    tool_calls:
      - {id: c1, name: write, args: {path: src/main.go, content: "pwned"}}
      - {id: c2, name: plan_write, args: {title: T, path: plans/t.plan, content: "# T\n\n## Steps\n- [ ] one\n"}}
  - text: "Planned."
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte("model: {provider: scripted, script: "+script+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(root, "agentls.log")
	cmd, in, out, stderr := agentlsProcess(t, "--config", cfg, "--log-file", logFile, "--log-level", "debug", "acp")
	var lines jsonLines
	client := &acpClient{}
	conn := sdk.NewClientSideConnection(client, in, lines.filter(out))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	initRes, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if initRes.ProtocolVersion != 1 || !initRes.AgentCapabilities.LoadSession || initRes.AgentInfo == nil || initRes.AgentInfo.Version != version {
		t.Errorf("initialize: %+v", initRes)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if sess.Modes == nil || sess.Modes.CurrentModeId != "plan" {
		t.Errorf("modes %+v", sess.Modes)
	}
	// A malformed line gets an error and the process goes on.
	if _, err := fmt.Fprintln(in, `{"jsonrpc":"2.0","id":`); err != nil {
		t.Fatal(err)
	}
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("change main")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src", "main.go")); string(b) != "package main\n" {
		t.Errorf("plan mode changed src/main.go: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "plans", "t.plan")); err != nil {
		t.Errorf("the plan was not written: %v", err)
	}
	list, err := conn.ListSessions(ctx, sdk.ListSessionsRequest{Cwd: &dir})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != sess.SessionId {
		t.Errorf("session/list: %+v %v", list, err)
	}
	failed := false
	client.mu.Lock()
	for _, u := range client.updates {
		if tu := u.Update.ToolCallUpdate; tu != nil && tu.ToolCallId == "c1" && tu.Status != nil && *tu.Status == sdk.ToolCallStatusFailed {
			failed = true
		}
	}
	client.mu.Unlock()
	if !failed {
		t.Error("the refused write was not reported failed")
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
	lines.mu.Lock()
	defer lines.mu.Unlock()
	// Every line, the parse error's answer included, is JSON-RPC.
	if len(lines.bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", lines.bad)
	}
	log, _ := os.ReadFile(logFile)
	if !strings.Contains(string(log), "acp: initialize") || !strings.Contains(string(log), "refused tool=write") {
		t.Errorf("log file lacks the ACP lines:\n%s", log)
	}
}
