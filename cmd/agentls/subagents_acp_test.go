package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// subClient is an ACP client whose permission requests go to onPermission
// (cancelled when nil).
type subClient struct {
	acpClient
	onPermission func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse
	pmu          sync.Mutex
	asked        []sdk.RequestPermissionRequest
	// updated is signalled (without blocking) after each session update.
	updated chan struct{}
}

func (c *subClient) SessionUpdate(ctx context.Context, n sdk.SessionNotification) error {
	err := c.acpClient.SessionUpdate(ctx, n)
	if c.updated != nil {
		select {
		case c.updated <- struct{}{}:
		default:
		}
	}
	return err
}

// running counts the sub-agents' calls shown in progress and not ended.
func (c *subClient) running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	state := map[string]sdk.ToolCallStatus{}
	for _, u := range c.updates {
		if tu := u.Update.ToolCallUpdate; tu != nil && tu.Status != nil && tu.Meta["agentls/parentToolCallId"] != nil {
			state[string(tu.ToolCallId)] = *tu.Status
		}
	}
	n := 0
	for _, st := range state {
		if st == sdk.ToolCallStatusInProgress {
			n++
		}
	}
	return n
}

func (c *subClient) RequestPermission(_ context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.pmu.Lock()
	c.asked = append(c.asked, r)
	c.pmu.Unlock()
	if c.onPermission != nil {
		time.Sleep(personReads) // the person reads the question before answering
		return c.onPermission(r), nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}, nil
}

// choose selects the option whose name starts with prefix.
func choose(r sdk.RequestPermissionRequest, prefix string) sdk.RequestPermissionResponse {
	for _, o := range r.Options {
		if strings.HasPrefix(o.Name, prefix) {
			return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}}
		}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}
}

// childCalls are the tool calls shown with an agentls/parentToolCallId:
// their id → parent id.
func (c *acpClient) childCalls() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]string{}
	for _, u := range c.updates {
		if tc := u.Update.ToolCall; tc != nil {
			if p, ok := tc.Meta["agentls/parentToolCallId"].(string); ok {
				out[string(tc.ToolCallId)] = p
			}
		}
	}
	return out
}

// subagentACP starts `agentls acp` with the scripted model playing script
// and the hostile MCP server as "evil" (its echo and hang listed
// read-only); it returns the connection, the client, the workspace and
// the MCP server's call log.
func subagentACP(t *testing.T, script, extraConfig string, client sdk.Client) (*sdk.ClientSideConnection, string, string, func()) {
	t.Helper()
	bin := buildHostile(t)
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(dir, "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	callLog := filepath.Join(root, "calls.log")
	scriptPath := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`model: {provider: scripted, script: %q}
sandbox: {allow_write: [%q]}
mcp:
  servers:
    evil: {command: %q, network: false, env: {HOSTILE_LOG: %q}}
  read_only: ["evil/echo", "evil/hang"]
  call_timeout_secs: 120
%s`, scriptPath, root, bin, callLog, extraConfig)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, in, out, stderr := agentlsProcess(t, "--config", cfg, "--log-file", filepath.Join(root, "agentls.log"), "--log-level", "debug", "acp")
	conn := sdk.NewClientSideConnection(client, in, out)
	stop := func() {
		_ = in.Close()
		if code := wait(t, cmd); code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr)
		}
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(root, "agentls.log"))
			t.Logf("agentls log:\n%s", log)
		}
	}
	return conn, dir, callLog, stop
}

// explorersScript: in plan mode three explorers run in one step; the first
// tries every mutating tool, run, an MCP writer and a nested task (each
// refused, the MCP writer before it reaches the server), the others answer
// (one through a read-only MCP tool); a build task in the same step is
// refused before any sub-agent starts (plan mode); the plan is written
// from the explorers' answers.
const explorersScript = `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: "try to change things"}}
      - {id: t2, name: task, args: {kind: explore, prompt: "where is main?"}}
      - {id: t3, name: task, args: {kind: explore, prompt: "ask the server"}}
      - {id: t4, name: task, args: {kind: build, prompt: "build it now"}}
  - expect:
      tool_result_contains:
        t4: ['"success":false', "System is in Plan Mode", "only in build mode"]
        t1: ['"status":"completed"', "all refused"]
        t2: ['"status":"completed"', "main is in main.go"]
        t3: ['"status":"completed"', "the server says hello"]
    tool_calls:
      - {id: p1, name: plan_write, args: {path: plans/x.plan, title: X, content: "# Goal\nmain is in main.go; the server says hello\n## Steps\n- [ ] do it\n"}}
  - text: planned
children:
  explore-1:
    - tool_calls:
        - {id: w, name: write, args: {path: a.txt, content: x}}
        - {id: wp, name: write, args: {path: plans/y.plan, content: x}}
        - {id: e, name: edit, args: {path: main.go, old_string: main, new_string: x}}
        - {id: mv, name: mv, args: {from: main.go, to: b.go}}
        - {id: rm, name: rm, args: {path: main.go}}
        - {id: mk, name: mkdir, args: {path: d}}
        - {id: to, name: touch, args: {path: t.txt}}
        - {id: r, name: run, args: {command: "touch r.txt"}}
        - {id: mw, name: mcp__evil__write_note, args: {path: m.txt, content: pwned}}
        - {id: n, name: task, args: {kind: explore, prompt: nested}}
        - {id: pw, name: plan_write, args: {title: T, content: "# Goal\n## Steps\n- [ ] a\n"}}
        - {id: pe, name: plan_edit, args: {path: plans/x.plan, old_string: a, new_string: b}}
    - expect:
        tool_result_contains:
          w: ['"success":false', "not given this tool"]
          wp: ['"success":false', "not given this tool"]
          e: ['"success":false', "not given this tool"]
          mv: ['"success":false', "not given this tool"]
          rm: ['"success":false', "not given this tool"]
          mk: ['"success":false', "not given this tool"]
          to: ['"success":false', "not given this tool"]
          r: ['"success":false', "not given this tool"]
          mw: ['"success":false', "not given this tool"]
          n: ['"success":false', "not given this tool"]
          pw: ['"success":false', "not given this tool"]
          pe: ['"success":false', "not given this tool"]
      text: all refused
  explore-2:
    - tool_calls:
        - {id: g, name: grep, args: {pattern: "func main"}}
    - expect:
        tool_result_contains: {g: ["main.go"]}
      text: main is in main.go
  explore-3:
    - tool_calls:
        - {id: ec, name: mcp__evil__echo, args: {path: x, content: "hello"}}
    - expect:
        tool_result_contains: {ec: ["hello"]}
      text: the server says hello
`

// TestSubagentExplorersInPlanModeACP (issue 23): through the real `agentls
// acp`, a plan-mode session's three explorers: every mutating call of the
// first is refused (nothing changes, the MCP writer never reaches its
// server), the plan is written from the answers, and the children's calls
// appear in the parent session with their parent in _meta.
func TestSubagentExplorersInPlanModeACP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	client := &subClient{}
	conn, dir, callLog, stop := subagentACP(t, explorersScript, "", client)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("plan")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	plan, err := os.ReadFile(filepath.Join(dir, "plans", "x.plan"))
	if err != nil || !strings.Contains(string(plan), "main is in main.go; the server says hello") {
		t.Errorf("the plan = %q, %v; want it written from the explorers' answers", plan, err)
	}
	for _, f := range []string{"a.txt", "plans/y.plan", "b.go", "d", "t.txt", "r.txt", "m.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists: an explorer changed the workspace", f)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != "package main\n\nfunc main() {}\n" {
		t.Errorf("main.go changed: %q", b)
	}
	if calls, _ := os.ReadFile(callLog); strings.Contains(string(calls), "write_note") || !strings.Contains(string(calls), "echo") {
		t.Errorf("the MCP server's call log = %q: write_note must never reach it, echo must", calls)
	}
	children := client.childCalls()
	parents := map[string]int{}
	for _, p := range children {
		parents[p]++
	}
	if parents["t1"] != 12 || parents["t2"] != 1 || parents["t3"] != 1 {
		t.Errorf("child calls per task call = %v, want t1:12 t2:1 t3:1", parents)
	}
	client.pmu.Lock()
	if len(client.asked) != 0 {
		t.Errorf("%d permission requests; refusals come before any question", len(client.asked))
	}
	client.pmu.Unlock()
	list, err := conn.ListSessions(ctx, sdk.ListSessionsRequest{Cwd: &dir})
	if err != nil || len(list.Sessions) != 1 {
		t.Errorf("session/list = %+v, %v; want the parent only", list, err)
	}
}

// buildChildScript: build mode. build-1 runs a command the root never
// allowed (asked, "Always allow" given), then the root runs it unasked;
// build-2 writes a file, then asks to run another command, during which
// the user switches the session to plan mode: build-2's next edit is
// refused.
const buildChildScript = `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "check", steps: ["run the check"]}}
  - expect:
      tool_result_contains: {t1: ['"status":"completed"', "checked"]}
    tool_calls:
      - {id: r0, name: run, args: {command: "echo checked"}}
  - expect:
      tool_result_contains: {r0: ['"success":true', "checked"]}
    tool_calls:
      - {id: t2, name: task, args: {kind: build, prompt: "edit", steps: ["write a", "write b"]}}
  - expect:
      tool_result_contains: {t2: ['"status":"completed"', "b refused"]}
    text: done
children:
  build-1:
    - tool_calls:
        - {id: r1, name: run, args: {command: "echo checked"}}
    - expect:
        tool_result_contains: {r1: ['"success":true', "checked"]}
      text: checked
  build-2:
    - tool_calls:
        - {id: wa, name: write, args: {path: a.txt, content: "a\n"}}
    - tool_calls:
        - {id: ls, name: run, args: {command: "ls"}}
    - tool_calls:
        - {id: wb, name: write, args: {path: b.txt, content: "b\n"}}
    - expect:
        tool_result_contains: {wb: ['"success":false', "System is in Plan Mode"]}
      text: b refused
`

// TestSubagentBuildChildACP (issue 23): through the real `agentls acp`, a
// build child's command is asked in the parent's session (its call shown
// there) and its "Always allow" is the parent's; a parent switched to plan
// mode while its build child works refuses the child's next edit.
func TestSubagentBuildChildACP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	client := &subClient{}
	conn, dir, _, stop := subagentACP(t, buildChildScript, "plan_mode: {default_active: false}\n", client)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var sid sdk.SessionId
	client.onPermission = func(r sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
		if r.ToolCall.Title != nil && strings.Contains(*r.ToolCall.Title, "ls") {
			// The user switches to plan mode while the child waits.
			if _, err := conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sid, ModeId: "plan"}); err != nil {
				t.Errorf("set_mode: %v", err)
			}
			return choose(r, "Reject")
		}
		return choose(r, "Always allow")
	}
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	sid = sess.SessionId
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock("build")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	client.pmu.Lock()
	asked := append([]sdk.RequestPermissionRequest(nil), client.asked...)
	client.pmu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("%d permission requests, want 2 (the child's echo, then its ls; the root's echo is always allowed)", len(asked))
	}
	children := client.childCalls()
	for _, a := range asked {
		if a.SessionId != sid || children[string(a.ToolCall.ToolCallId)] == "" {
			t.Errorf("permission %+v: want the parent's session and a child's call shown there (%v)", a, children)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("a.txt = %q, %v; the build child's first edit should land", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("b.txt exists: the child edited after its parent went to plan mode")
	}
}

// TestSubagentCancelACP (issue 23): session/cancel while three explorers
// wait on an MCP call ends every one of them and the turn, within 10 s.
func TestSubagentCancelACP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: a}}
      - {id: t2, name: task, args: {kind: explore, prompt: b}}
      - {id: t3, name: task, args: {kind: explore, prompt: c}}
  - text: never
children:
  explore-1: [{tool_calls: [{id: h, name: mcp__evil__hang}]}]
  explore-2: [{tool_calls: [{id: h, name: mcp__evil__hang}]}]
  explore-3: [{tool_calls: [{id: h, name: mcp__evil__hang}]}]
`
	client := &subClient{updated: make(chan struct{}, 1)}
	conn, dir, _, stop := subagentACP(t, script, "", client)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan sdk.PromptResponse, 1)
	go func() {
		res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}})
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- res
	}()
	// Wait until the three explorers' hang calls run at once.
	for client.running() < 3 {
		select {
		case <-ctx.Done():
			t.Fatalf("the three explorers never ran at once (%d running)", client.running())
		case <-client.updated:
		}
	}
	start := time.Now()
	if err := conn.Cancel(ctx, sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-done:
		if res.StopReason != sdk.StopReasonCancelled {
			t.Errorf("stop reason %q, want cancelled", res.StopReason)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the turn did not end within 10 s of session/cancel")
	}
	t.Logf("the tree ended %v after session/cancel", time.Since(start))
	ended := 0
	client.mu.Lock()
	for _, u := range client.updates {
		tu := u.Update.ToolCallUpdate
		if tu != nil && tu.Status != nil && *tu.Status == sdk.ToolCallStatusFailed && tu.Meta["agentls/parentToolCallId"] != nil {
			ended++
		}
	}
	client.mu.Unlock()
	if ended != 3 {
		t.Errorf("%d child calls ended, want the 3 hang calls", ended)
	}
}

// TestSubagentKillThenRestartACP (issue 23): the ACP face of
// TestSubagentKillThenRestartLSP: agentls is killed (kill -9) while a
// build child waits for a permission; a restarted `agentls acp` loads the
// parent, whose open task call gets a result naming the cut-off child, and
// the parent re-runs it as a new task call.
func TestSubagentKillThenRestartACP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(root, "script.yaml")
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("model: {provider: scripted, script: %q}\nplan_mode: {default_active: false}\n", scriptPath)), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(scriptPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	write(`
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "check"}}
  - text: never reached
children:
  build-1:
    - tool_calls:
        - {id: r, name: run, args: {command: "echo hi"}}
    - text: never reached
`)
	cmd, in, out, _ := agentlsProcess(t, "--config", cfg, "acp")
	client := &subClient{}
	client.onPermission = func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
		_ = cmd.Process.Kill()
		return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}
	}
	conn := sdk.NewClientSideConnection(client, in, out)
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}}); err == nil {
		t.Fatal("the prompt of the killed process returned a result")
	}
	_ = in.Close()
	_ = cmd.Wait()
	chats, _ := filepath.Glob(filepath.Join(dir, ".agentls", "chats", "*.chat"))
	child := ""
	for _, c := range chats {
		if id := strings.TrimSuffix(filepath.Base(c), ".chat"); id != string(sess.SessionId) {
			child = id
		}
	}
	if len(chats) != 2 || child == "" {
		t.Fatalf("session files after the kill: %v, want the parent's and the child's", chats)
	}

	write(`
steps:
  - expect:
      tool_result_contains:
        t1: ["sub-agent ` + child + ` was cut off by a restart; partial transcript in session ` + child + `"]
    tool_calls:
      - {id: t2, name: task, args: {kind: build, prompt: "check again"}}
  - expect:
      tool_result_contains: {t2: ['"status":"completed"', "wrote again"]}
    text: the child was cut off; I ran it again
children:
  build-2:
    - tool_calls:
        - {id: w, name: write, args: {path: again.txt, content: "again\n"}}
    - expect:
        tool_result_contains: {w: ['"success":true']}
      text: wrote again
`)
	cmd2, in2, out2, stderr2 := agentlsProcess(t, "--config", cfg, "acp")
	client2 := &subClient{}
	conn2 := sdk.NewClientSideConnection(client2, in2, out2)
	if _, err := conn2.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn2.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	res, err := conn2.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("what happened?")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after the restart: %+v %v", res, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "again.txt")); err != nil || string(b) != "again\n" {
		t.Errorf("again.txt = %q, %v; the re-run (a new task call) should write it", b, err)
	}
	list, err := conn2.ListSessions(ctx, sdk.ListSessionsRequest{Cwd: &dir})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != sess.SessionId {
		t.Errorf("session/list = %+v, %v; want the parent only", list, err)
	}
	_ = in2.Close()
	if code := wait(t, cmd2); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr2)
	}
}
