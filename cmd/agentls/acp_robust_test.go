package main

// These tests time the process (exit within 5 s of stdin's end, a client
// answering in under 300 ms): they do not run in parallel with others.

import (
	"context"

	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/permission"
)

// acpMessage reads stdout lines until one whose id is id (JSON-encoded,
// "null" for a null id) and returns it decoded.
func acpMessage(t *testing.T, out *bufio.Reader, id string) map[string]any {
	t.Helper()
	for {
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("reading for id %s: %v", id, err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("stdout line %q: %v", line, err)
		}
		got, _ := json.Marshal(m["id"])
		if string(got) == id {
			return m
		}
	}
}

// acpStart starts `agentls acp` with a scripted model in a fresh workspace
// and initializes it. It returns the workspace too.
func acpStart(t *testing.T, script string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	scriptFile := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(scriptFile, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte("model: {provider: scripted, script: "+scriptFile+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, in, out, stderr := agentlsProcessEnv(t, []string{"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "HOME=" + root}, "--config", cfg, "acp")
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		if t.Failed() {
			t.Logf("stderr:\n%s", stderr)
		}
	})
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	if m := acpMessage(t, out, "0"); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	return cmd, in, out, dir
}

// TestACPExitsOnEOFWhileStdoutIsBlocked: a client that stops reading
// stdout and closes stdin ends the process within 5 s, its answers still
// unread (before, the reader waited on the full output and never saw the
// end of the input, holding the session's lock).
func TestACPExitsOnEOFWhileStdoutIsBlocked(t *testing.T) {
	cmd, in, out, dir := acpStart(t, "steps:\n  - text: hi\n")
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", dir)
	if m := acpMessage(t, out, "1"); m["result"] == nil {
		t.Fatalf("session/new: %v", m)
	}
	// From here the client reads nothing: 4000 bad lines each get an
	// answer, far more than the pipe and the output queue hold.
	bad := strings.Repeat("not json\n", 4000)
	if _, err := io.WriteString(in, bad); err != nil {
		t.Fatal(err)
	}
	closed := time.Now()
	_ = in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Logf("exited %v after the input closed: %v", time.Since(closed).Round(time.Millisecond), err)
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		<-done
		t.Fatal("agentls acp still runs 5 s after its input closed while its output was blocked")
	}
}

// TestACPOversizeLineMemoryReleased: the memory of a line over the size
// cap goes back to the OS (as the LSP face's does).
func TestACPOversizeLineMemoryReleased(t *testing.T) {
	if raceEnabled {
		t.Skip("resident sizes mean nothing under the race detector")
	}
	cmd, in, out, _ := acpStart(t, "steps:\n  - text: hi\n")
	before := residentMB(t, cmd.Process.Pid)
	big := `{"jsonrpc":"2.0","id":2,"method":"session/list","params":{"blob":"` + strings.Repeat("x", 60<<20) + `"}}`
	if _, err := fmt.Fprintln(in, big); err != nil {
		t.Fatal(err)
	}
	if m := acpMessage(t, out, "2"); m["error"] == nil { // answered with its own id, read from the line's start
		t.Fatalf("oversize line: %v", m)
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":3,"method":"no/such"}`)
	acpMessage(t, out, "3")
	after := residentMB(t, cmd.Process.Pid)
	t.Logf("resident memory: %d MB before, %d MB after a 60 MB line", before, after)
	if after > before+15 {
		t.Errorf("resident memory %d MB after a 60 MB line (before: %d MB): the buffer was kept", after, before)
	}
}

// TestACPBadEnvelopesAnsweredWithTheirIDs: through the real binary, each
// element of a batch and a message whose method is not a string are
// answered -32600 with their own ids.
func TestACPBadEnvelopesAnsweredWithTheirIDs(t *testing.T) {
	_, in, out, _ := acpStart(t, "steps:\n  - text: hi\n")
	fmt.Fprintln(in, `[{"jsonrpc":"2.0","id":"a","method":"session/list"},{"jsonrpc":"2.0","id":"b","method":"initialize"}]`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":"c","method":7}`)
	for _, id := range []string{`"a"`, `"b"`, `"c"`} {
		m := acpMessage(t, out, id)
		if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32600) {
			t.Errorf("id %s: %v, want -32600", id, m)
		}
	}
}

// killingClient declares fs/write_text_file and kills the agent process
// when the agent asks it to write (a crash mid tool call).
type killingClient struct {
	acpClient
	proc chan *os.Process
}

func (c *killingClient) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	p := <-c.proc
	_ = p.Kill()
	return sdk.WriteTextFileResponse{}, nil
}

// TestACPReplayReportsAnInterruptedToolCallFailed: agentls is killed while
// a write waits for the client; a restarted agentls replays the session
// with that tool call failed ("interrupted by a restart"), not pending.
func TestACPReplayReportsAnInterruptedToolCallFailed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(script, []byte(`
steps:
  - text: "Writing."
    tool_calls:
      - {id: cw, name: write, args: {path: new.txt, content: "hello\n"}}
  - text: "Done."
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte("model: {provider: scripted, script: "+script+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "HOME=" + root}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fsCaps := sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}

	cmd, in, out, _ := agentlsProcessEnv(t, env, "--config", cfg, "acp")
	client := &killingClient{proc: make(chan *os.Process, 1)}
	client.proc <- cmd.Process
	conn := sdk.NewClientSideConnection(client, in, out)
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: fsCaps}); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "build"}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("write it")}}); err == nil {
		t.Fatal("the killed process answered the prompt")
	}
	_ = cmd.Wait()

	cmd2, in2, out2, stderr2 := agentlsProcessEnv(t, env, "--config", cfg, "acp")
	client2 := &acpClient{}
	conn2 := sdk.NewClientSideConnection(client2, in2, out2)
	if _, err := conn2.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: fsCaps}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn2.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	var status sdk.ToolCallStatus
	var text string
	client2.mu.Lock()
	for _, u := range client2.updates {
		if tu := u.Update.ToolCallUpdate; tu != nil && tu.ToolCallId == "cw" && tu.Status != nil {
			status = *tu.Status
			for _, c := range tu.Content {
				if c.Content != nil && c.Content.Content.Text != nil {
					text += c.Content.Content.Text.Text
				}
			}
		}
	}
	client2.mu.Unlock()
	if status != sdk.ToolCallStatusFailed || !strings.Contains(text, "interrupted by a restart") {
		t.Errorf("replayed tool call cw: status %q text %q, want failed, interrupted by a restart", status, text)
	}
	_ = in2.Close()
	if code := wait(t, cmd2); code != 0 {
		t.Errorf("exit %d; stderr:\n%s", code, stderr2)
	}
}

// approvingClient accepts every permission request at once, as a client
// with auto-approve does.
type approvingClient struct{ acpClient }

func (c *approvingClient) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: p.Options[len(p.Options)-1].OptionId}}}, nil
}

// agentText is the text of the agent_message_chunk updates so far.
func (c *approvingClient) agentText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, u := range c.updates {
		if m := u.Update.AgentMessageChunk; m != nil && m.Content.Text != nil {
			b.WriteString(m.Content.Text.Text)
		}
	}
	return b.String()
}

// TestACPApprovalAnsweredByTheClient: a plan approval answered at once
// (an auto-approving client) is the client's, not the person's: the plan
// is not approved, the session is told "answered by the client in N ms …
// approve it yourself: type /approve", the log has the warning, and the
// "awaiting approval" line names the ACP method. The person's /approve,
// typed after permission.HumanFloor, approves it: the turn builds, and
// the approval's tool call carries the note.
func TestACPApprovalAnsweredByTheClient(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(script, []byte(planApprovedScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte("model: {provider: scripted, script: "+script+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(root, "agentls.log")
	cmd, in, out, stderr := agentlsProcessEnv(t, []string{"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "HOME=" + root},
		"--config", cfg, "--log-file", logFile, "acp")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := &approvingClient{}
	conn := sdk.NewClientSideConnection(client, in, out)
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	type promptOutcome struct {
		resp sdk.PromptResponse
		err  error
	}
	first := make(chan promptOutcome, 1)
	go func() {
		resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("plan it")}})
		first <- promptOutcome{resp, err}
	}()
	const told = "approve it yourself: type /approve"
	for !strings.Contains(client.agentText(), told) {
		select {
		case o := <-first:
			t.Fatalf("the turn ended (%+v, %v) without the plan awaiting the person's approval; agent text: %q", o.resp, o.err, client.agentText())
		case <-ctx.Done():
			t.Fatalf("the session was never told the client's own approval approved nothing; agent text: %q", client.agentText())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if text := client.agentText(); !strings.Contains(text, "answered by the client in ") || !strings.Contains(text, "the plan is not approved and still awaits approval") {
		t.Errorf("the session's text: %q", text)
	}
	time.Sleep(permission.HumanFloor) // the person reads the plan, then types /approve
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("/approve")}}); err != nil {
		t.Fatalf("/approve: %v", err)
	}
	if o := <-first; o.err != nil || o.resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("the planning turn: %+v, %v; want end_turn after the person's /approve", o.resp, o.err)
	}
	if !strings.Contains(client.agentText(), "Building.") {
		t.Errorf("the turn did not build after /approve: %q", client.agentText())
	}
	var text string
	client.mu.Lock()
	for _, u := range client.updates {
		if tu := u.Update.ToolCallUpdate; tu != nil && tu.ToolCallId == "x1" {
			for _, c := range tu.Content {
				if c.Content != nil && c.Content.Content.Text != nil {
					text += c.Content.Content.Text.Text
				}
			}
		}
	}
	client.mu.Unlock()
	if !strings.Contains(text, "answered by the client in") {
		t.Errorf("the approval's tool call lacks the note: %q", text)
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit %d; stderr:\n%s", code, stderr)
	}
	log, _ := os.ReadFile(logFile)
	for _, want := range []string{"resolve via session/request_permission", "answered by the client in", "[plan-mode] approved"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}
