package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
)

// lspScripted starts the real agentls (LSP) on dir with the scripted model
// playing script and a session in mode; it returns the editor, initialized
// with the agent capability (askUser too), the process and the session.
func lspScripted(ctx context.Context, t *testing.T, dir, script string, h lspclient.Handlers, mode string) (*lspclient.Client, *os.Process, string) {
	return lspScriptedWith(ctx, t, dir, script, h, mode, nil)
}

// agentCaps are an agent client's capabilities (askUser, documentChanges).
func agentCaps() map[string]any {
	return map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}}},
		"experimental": map[string]any{"agent": map[string]any{"savesEdits": true, "askUser": true}}}
}

// lspScriptedWith is lspScripted with more initializationOptions.
func lspScriptedWith(ctx context.Context, t *testing.T, dir, script string, h lspclient.Handlers, mode string, opts map[string]any) (*lspclient.Client, *os.Process, string) {
	t.Helper()
	return lspScriptedCaps(ctx, t, dir, script, h, mode, opts, agentCaps())
}

// lspScriptedCaps is lspScriptedWith for a client with capabilities caps.
func lspScriptedCaps(ctx context.Context, t *testing.T, dir, script string, h lspclient.Handlers, mode string, opts, caps map[string]any) (*lspclient.Client, *os.Process, string) {
	t.Helper()
	scriptPath := filepath.Join(t.TempDir(), "script.yaml")
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	// The home is the workspace's (beside it): a restart on dir finds the
	// state the first process left (the sessions it made).
	home := dir + ".home"
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	started := make(chan *os.Process, 1)
	if h.ReadFor == 0 {
		h.ReadFor = personReads // the editor's person answers as a person does
	}
	ed, err := lspclient.Start(ctx, dir, processServeWith(t, started, func(cmd *exec.Cmd) {
		cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "HOME="+home)
	}), h)
	if err != nil {
		t.Fatal(err)
	}
	proc := <-started
	init := map[string]any{
		"rootUri":               "file://" + filepath.ToSlash(dir),
		"capabilities":          caps,
		"initializationOptions": map[string]any{"model": map[string]any{"provider": "scripted", "script": scriptPath}},
	}
	for k, v := range opts {
		init["initializationOptions"].(map[string]any)[k] = v
	}
	if err := ed.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := ed.Call(ctx, "agent/newSession", map[string]any{"mode": mode}, &s); err != nil {
		t.Fatal(err)
	}
	return ed, proc, s.SessionID
}

// childUpdate is an agent/update of a sub-agent's tool call.
type childUpdate struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate    string `json:"sessionUpdate"`
		ToolCallID       string `json:"toolCallId"`
		Status           string `json:"status"`
		ParentToolCallID string `json:"parentToolCallId"`
		ChildSessionID   string `json:"childSessionId"`
		Children         []struct {
			ToolCallID   string `json:"toolCallId"`
			InputTokens  int    `json:"inputTokens"`
			OutputTokens int    `json:"outputTokens"`
		} `json:"children"`
		Total *struct {
			InputTokens  int `json:"inputTokens"`
			OutputTokens int `json:"outputTokens"`
		} `json:"total"`
	} `json:"update"`
}

// updatesOf decodes the agent/update notifications the editor received.
func updatesOf(ed *lspclient.Client) []childUpdate {
	var out []childUpdate
	for _, m := range ed.Messages() {
		var u childUpdate
		if m.Method == "agent/update" && json.Unmarshal(m.Params, &u) == nil {
			out = append(out, u)
		}
	}
	return out
}

// TestSubagentExplorersInPlanModeLSP (issue 23): through the real agentls
// on the LSP face, a plan-mode session's three explorers: every mutating
// call of the first is refused (the hostile MCP server's writer never
// reached), the plan comes from their answers (one through a read-only MCP
// tool), the
// children's calls are in the parent's agent/update stream with
// parentToolCallId and childSessionId, usage_update carries each child's
// tokens and a total, and agent/listSessions hides the children unless
// asked for them.
func TestSubagentExplorersInPlanModeLSP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := buildHostile(t)
	callLog := filepath.Join(t.TempDir(), "calls.log")
	ed, _, sid := lspScriptedWith(ctx, t, dir, explorersScript, lspclient.Handlers{}, "plan", map[string]any{
		"mcp":     map[string]any{"servers": map[string]any{"evil": map[string]any{"command": bin, "network": false, "env": map[string]string{"HOSTILE_LOG": callLog}}}, "read_only": []string{"evil/echo"}},
		"sandbox": map[string]any{"allow_write": []string{filepath.Dir(callLog)}},
	})
	defer ed.Close()
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "plan"}, &res); err != nil || res.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	if calls, _ := os.ReadFile(callLog); strings.Contains(string(calls), "write_note") || !strings.Contains(string(calls), "echo") {
		t.Errorf("the MCP server's call log = %q: write_note must never reach it, echo must", calls)
	}
	if plan, err := os.ReadFile(filepath.Join(dir, "plans", "x.plan")); err != nil || !strings.Contains(string(plan), "main is in main.go; the server says hello") {
		t.Errorf("the plan = %q, %v", plan, err)
	}
	for _, f := range []string{"a.txt", "plans/y.plan", "b.go", "d", "t.txt", "r.txt", "m.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists: an explorer changed the workspace", f)
		}
	}
	perTask := map[string]int{}
	childSessions := map[string]bool{}
	var lastUsage *childUpdate
	for _, u := range updatesOf(ed) {
		if u.SessionID != sid {
			t.Errorf("an update for session %s: every update goes to the parent %s", u.SessionID, sid)
		}
		switch u.Update.SessionUpdate {
		case "tool_call_update":
			if u.Update.ParentToolCallID != "" && u.Update.Status != "in_progress" {
				perTask[u.Update.ParentToolCallID]++
				childSessions[u.Update.ChildSessionID] = true
			}
		case "usage_update":
			u := u
			lastUsage = &u
		}
	}
	if perTask["t1"] != 12 || perTask["t2"] != 1 || perTask["t3"] != 1 || len(childSessions) != 3 {
		t.Errorf("child calls per task call = %v in %d child sessions; want t1:12 t2:1 t3:1 in 3", perTask, len(childSessions))
	}
	if lastUsage == nil || len(lastUsage.Update.Children) != 3 || lastUsage.Update.Total == nil || lastUsage.Update.Total.InputTokens == 0 {
		t.Errorf("the last usage_update = %+v, want three children and a total", lastUsage)
	}
	var list struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
			ParentID  string `json:"parentId"`
			Kind      string `json:"kind"`
		} `json:"sessions"`
	}
	if err := ed.Call(ctx, "agent/listSessions", map[string]any{}, &list); err != nil || len(list.Sessions) != 1 {
		t.Errorf("agent/listSessions = %+v, %v; want the parent only", list, err)
	}
	if err := ed.Call(ctx, "agent/listSessions", map[string]any{"includeChildren": true}, &list); err != nil || len(list.Sessions) != 4 {
		t.Fatalf("agent/listSessions {includeChildren} = %+v, %v; want 4", list, err)
	}
	for _, s := range list.Sessions {
		if s.SessionID != sid && (s.ParentID != sid || s.Kind != "explore" || !childSessions[s.SessionID]) {
			t.Errorf("child %+v", s)
		}
		if _, err := os.Stat(filepath.Join(dir, ".agentls", "chats", s.SessionID+".chat")); err != nil {
			t.Errorf("session %s is not stored: %v", s.SessionID, err)
		}
	}
}

// TestSubagentKillThenRestartLSP (issue 23): agentls is killed (kill -9)
// while a build child's edit waits for the editor; a restarted agentls
// loads the parent, whose open task call gets a result naming the cut-off
// child, and the parent re-runs it as a new task call whose edit lands.
func TestSubagentKillThenRestartLSP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	first := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "write it", steps: ["write a"]}}
  - text: never reached
children:
  build-1:
    - tool_calls:
        - {id: w, name: write, args: {path: a.txt, content: "a\n"}}
    - text: never reached
`
	var proc *os.Process
	var once sync.Once
	ed, p, sid := lspScripted(ctx, t, dir, first, lspclient.Handlers{
		ApplyEdit: func(json.RawMessage) (bool, string) {
			once.Do(func() { _ = proc.Kill() })
			return false, "killed"
		},
	}, "build")
	proc = p
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "go"}, nil); err == nil {
		t.Fatal("the prompt of the killed process returned a result")
	}
	_ = ed.Close()
	chats, _ := filepath.Glob(filepath.Join(dir, ".agentls", "chats", "*.chat"))
	if len(chats) != 2 {
		t.Fatalf("session files after the kill: %v, want the parent's and the child's", chats)
	}
	child := ""
	for _, c := range chats {
		if id := strings.TrimSuffix(filepath.Base(c), ".chat"); id != sid {
			child = id
		}
	}
	second := `
steps:
  - expect:
      tool_result_contains:
        t1: ["sub-agent ` + child + ` was cut off by a restart; partial transcript in session ` + child + `"]
    tool_calls:
      - {id: t2, name: task, args: {kind: build, prompt: "write it again", steps: ["write a"]}}
  - expect:
      tool_result_contains: {t2: ['"status":"completed"', "wrote a"]}
    text: the child was cut off; I ran it again
children:
  build-2:
    - tool_calls:
        - {id: w, name: write, args: {path: a.txt, content: "a\n"}}
    - expect:
        tool_result_contains: {w: ['"success":true']}
      text: wrote a
`
	ed2, _, _ := lspScripted(ctx, t, dir, second, lspclient.Handlers{}, "build")
	defer ed2.Close()
	var loaded struct {
		SessionID string `json:"sessionId"`
	}
	if err := ed2.Call(ctx, "agent/loadSession", map[string]any{"sessionId": sid}, &loaded); err != nil {
		t.Fatal(err)
	}
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := ed2.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "what happened?"}, &res); err != nil || res.StopReason != "end_turn" {
		t.Fatalf("prompt after the restart: %+v %v", res, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("a.txt = %q, %v; the re-run (a new task call) should write it", b, err)
	}
	chat, _ := os.ReadFile(filepath.Join(dir, ".agentls", "chats", sid+".chat"))
	if !strings.Contains(string(chat), `"record":"repair"`) || !strings.Contains(string(chat), `"synthetic":["t1"]`) {
		t.Errorf("the parent's file lacks the repair of t1:\n%s", chat)
	}
}

// TestSubagentBuildChildLSP (issue 23): the LSP face of
// TestSubagentBuildChildACP: the build child's commands are asked in the
// parent's session (agent/askUser, purpose permission, requester naming the
// child), its "Always allow" is the parent's; the user switching the
// parent to plan mode while the child waits makes its next edit refused.
func TestSubagentBuildChildLSP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var ed *lspclient.Client
	var sid string
	ready := make(chan struct{})
	var mu sync.Mutex
	var asked []map[string]any
	ed, _, sid = lspScripted(ctx, t, dir, buildChildScript, lspclient.Handlers{
		AskUser: func(params json.RawMessage) any {
			<-ready
			var p struct {
				SessionID  string         `json:"sessionId"`
				Purpose    string         `json:"purpose"`
				Permission map[string]any `json:"permission"`
			}
			_ = json.Unmarshal(params, &p)
			mu.Lock()
			asked = append(asked, map[string]any{"sessionId": p.SessionID, "purpose": p.Purpose, "requester": p.Permission["requester"], "what": p.Permission["what"]})
			mu.Unlock()
			if p.Permission["what"] == "ls" {
				if err := ed.Call(ctx, "agent/setMode", map[string]any{"sessionId": sid, "mode": "plan"}, nil); err != nil {
					t.Errorf("setMode: %v", err)
				}
				return map[string]any{"answers": map[string]any{"decision": "reject_once"}}
			}
			return map[string]any{"answers": map[string]any{"decision": "allow_always"}}
		},
	}, "build")
	defer ed.Close()
	close(ready)
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "build"}, &res); err != nil || res.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("asked %v, want the child's echo and its ls (the root's echo is always allowed)", asked)
	}
	for _, a := range asked {
		r, _ := a["requester"].(string)
		if a["sessionId"] != sid || a["purpose"] != "permission" || !strings.Contains(r, "sub-agent build-") {
			t.Errorf("question %v: want the parent's session and the child named", a)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("a.txt = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("b.txt exists: the child edited after its parent went to plan mode")
	}
}

// TestSubagentCancelLSP (issue 23): agent/cancel while three explorers wait
// on an MCP call ends every one of them and the turn, within 10 s.
func TestSubagentCancelLSP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	bin := buildHostile(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
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
	ed, _, sid := lspScriptedWith(ctx, t, dir, script, lspclient.Handlers{}, "plan", map[string]any{
		"mcp": map[string]any{"servers": map[string]any{"evil": map[string]any{"command": bin, "network": false}}, "read_only": []string{"evil/hang"}, "call_timeout_secs": 120},
	})
	defer ed.Close()
	done := make(chan error, 1)
	var res struct {
		StopReason string `json:"stopReason"`
	}
	go func() { done <- ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "go"}, &res) }()
	running := func(msgs []lspclient.Message) bool {
		state := map[string]string{}
		for _, m := range msgs {
			var u childUpdate
			if m.Method == "agent/update" && json.Unmarshal(m.Params, &u) == nil && u.Update.ParentToolCallID != "" && u.Update.Status != "" {
				state[u.Update.ToolCallID] = u.Update.Status
			}
		}
		n := 0
		for _, st := range state {
			if st == "in_progress" {
				n++
			}
		}
		return n == 3
	}
	if err := ed.Await(ctx, running); err != nil {
		t.Fatalf("the three explorers never ran at once: %v", err)
	}
	start := time.Now()
	if err := ed.Call(ctx, "agent/cancel", map[string]any{"sessionId": sid}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil || res.StopReason != "cancelled" {
			t.Errorf("prompt = %+v, %v; want cancelled", res, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the turn did not end within 10 s of agent/cancel")
	}
	t.Logf("the tree ended %v after agent/cancel", time.Since(start))
	failed := 0
	for _, u := range updatesOf(ed) {
		if u.Update.SessionUpdate == "tool_call_update" && u.Update.ParentToolCallID != "" && u.Update.Status == "failed" {
			failed++
		}
	}
	if failed != 3 {
		t.Errorf("%d child calls ended failed, want the 3 hang calls", failed)
	}
}
