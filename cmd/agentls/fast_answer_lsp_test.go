package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/permission"
)

// planApprovedScript writes a plan (call p1), asks its approval (x1) and,
// once approved, says "Building.".
const planApprovedScript = `
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: "# T\n\n## Steps\n- [ ] one\n"}}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/t.plan}}
  - text: "Building."
`

// fastTail is how every fast-answer note ends: who answered, without
// claiming the user turned anything on.
const fastTail = `the client answered by itself (an auto-approve setting, or a client that remembers an earlier "always")`

// TestLSPAnswerFasterThanAPerson: against the real agentls binary on the
// LSP face, a client that allows at once — the Go fake editor answering
// agent/askUser, and a plain client answering window/showMessageRequest —
// is the client's answer, not a person's. A run allowed once runs, named
// "answered by the client in N ms (allow_once), faster than a person
// decides: allowed for this call only; the client answered by itself …"
// in its result (agent/update), a log message (window/logMessage, which a
// plain client shows) and agentls's log (a warning). A run allowed
// "always" runs once and saves no rule: the same command is asked again.
// A plan approved at once is not approved: the mode stays plan, the
// editor is told how to approve it (the lens, agentls.approvePlan), and
// the person's own agent/resolvePlan, after permission.HumanFloor, builds.
func TestLSPAnswerFasterThanAPerson(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	const note = "answered by the client in "
	const twoRuns = `
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "echo fast-answer"}}
  - tool_calls:
      - {id: r2, name: run, args: {command: "echo fast-answer"}}
  - text: "Ran."
`
	scripts := map[string]struct {
		mode, script, callID, option, outcome string
		asks                                  int // the questions the turn asks
	}{
		"run permission":        {"build", twoRuns, "r1", "allow_once", "allowed for this call only", 2},
		"run permission always": {"build", twoRuns, "r1", "allow_always", "allowed once, not always (no rule is saved)", 2},
		"plan approval": {"plan", planApprovedScript, "x1", "allow_once",
			`the plan is not approved and still awaits approval; ` + fastTail + `; approve it yourself: the plan's "Approve & Build" code lens, or the agentls.approvePlan command`, 1},
	}
	for _, face := range []struct {
		name  string
		caps  map[string]any
		plain bool
	}{
		{"agent/askUser", map[string]any{"workspace": map[string]any{"applyEdit": true},
			"experimental": map[string]any{"agent": map[string]any{"askUser": true, "savesEdits": true}}}, false},
		{"plain window/showMessageRequest", map[string]any{"workspace": map[string]any{"applyEdit": true}}, true},
	} {
		for name, sc := range scripts {
			t.Run(face.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				root := t.TempDir()
				dir := filepath.Join(root, "ws")
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				scriptPath := filepath.Join(root, "script.yaml")
				if err := os.WriteFile(scriptPath, []byte(sc.script), 0o644); err != nil {
					t.Fatal(err)
				}
				logFile := filepath.Join(root, "agentls.log")
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				started := make(chan *os.Process, 1)
				var asks atomic.Int32
				ed, err := lspclient.Start(ctx, dir, processServeWith(t, started, func(c *exec.Cmd) {
					c.Args = append(c.Args, "--log-file", logFile)
					c.Env = append(c.Env, "XDG_CONFIG_HOME="+filepath.Join(root, "xdg"), "HOME="+root)
				}), lspclient.Handlers{
					// The client answers at once, allowing: as an auto-approve does.
					AskUser: func(p json.RawMessage) any {
						asks.Add(1)
						if strings.Contains(string(p), `"purpose":"plan_approval"`) {
							return map[string]any{"answers": map[string]any{"approve": true}}
						}
						return map[string]any{"answers": map[string]any{"decision": sc.option}}
					},
					ShowMessageRequest: func(p json.RawMessage) any {
						asks.Add(1)
						var m struct {
							Actions []map[string]any `json:"actions"`
						}
						_ = json.Unmarshal(p, &m)
						for _, a := range m.Actions {
							title, _ := a["title"].(string)
							if sc.option == "allow_once" && (title == "Run" || title == "Accept & Build") ||
								sc.option == "allow_always" && strings.HasPrefix(title, "Always allow") {
								return a
							}
						}
						return nil
					},
				})
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = ed.Close() }()
				<-started
				init := map[string]any{
					"rootUri": "file://" + filepath.ToSlash(dir), "capabilities": face.caps,
					"initializationOptions": map[string]any{"model": map[string]any{"provider": "scripted", "script": scriptPath}},
				}
				if err := ed.Call(ctx, "initialize", init, nil); err != nil {
					t.Fatal(err)
				}
				var s struct {
					SessionID string `json:"sessionId"`
				}
				if err := ed.Call(ctx, "agent/newSession", map[string]any{"mode": sc.mode}, &s); err != nil {
					t.Fatal(err)
				}
				prompted := make(chan error, 1)
				go func() {
					prompted <- ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "go"}, nil)
				}()
				if sc.mode == "plan" {
					// The client's approval approved nothing: the editor is
					// told, the plan still awaits approval, and the
					// person approves it.
					if err := ed.Await(ctx, func(ms []lspclient.Message) bool {
						return slices.ContainsFunc(ms, func(m lspclient.Message) bool {
							return m.Method == "window/logMessage" && strings.Contains(string(m.Params), note)
						})
					}); err != nil {
						t.Fatalf("no log message names the client's own approval: %v", err)
					}
					if mode := ed.Mode(s.SessionID); mode == "build" {
						t.Fatalf("mode %q after the client's own approval, want plan", mode)
					}
					time.Sleep(permission.HumanFloor) // a person reads the plan
					if err := ed.Call(ctx, "agent/resolvePlan", map[string]any{"sessionId": s.SessionID, "decision": "approve"}, nil); err != nil {
						t.Fatalf("the person's agent/resolvePlan: %v", err)
					}
				}
				if err := <-prompted; err != nil {
					t.Fatal(err)
				}
				var logged, inResult, told bool
				for _, m := range ed.Messages() {
					switch m.Method {
					case "window/logMessage":
						var p struct {
							Message string `json:"message"`
						}
						_ = json.Unmarshal(m.Params, &p)
						logged = logged || strings.HasPrefix(p.Message, note) && strings.Contains(p.Message, " ms ("+sc.option+"), faster than a person decides: "+sc.outcome)
					case "agent/update":
						var p struct {
							Update struct {
								SessionUpdate string          `json:"sessionUpdate"`
								ToolCallID    string          `json:"toolCallId"`
								Status        string          `json:"status"`
								Content       json.RawMessage `json:"content"`
							} `json:"update"`
						}
						_ = json.Unmarshal(m.Params, &p)
						if p.Update.SessionUpdate == "agent_message_chunk" && strings.Contains(string(p.Update.Content), note) {
							told = true
						}
						if p.Update.SessionUpdate != "tool_call_update" || p.Update.ToolCallID != sc.callID {
							continue
						}
						if p.Update.Status != "completed" {
							t.Errorf("%s ended %s: an allow-once stands, and the person approved the plan", sc.callID, p.Update.Status)
						}
						var content []struct {
							Content struct {
								Text string `json:"text"`
							} `json:"content"`
						}
						_ = json.Unmarshal(p.Update.Content, &content)
						for _, c := range content[min(1, len(content)):] {
							inResult = inResult || strings.HasPrefix(c.Content.Text, note) && strings.Contains(c.Content.Text, sc.outcome)
						}
					}
				}
				if got := int(asks.Load()); got != sc.asks {
					t.Errorf("%d questions, want %d (an \"always\" given at once saves no rule: the same command is asked again)", got, sc.asks)
				}
				if !logged {
					t.Error("no window/logMessage names the client's own answer and what it was taken for")
				}
				if !face.plain && !inResult {
					t.Errorf("the result of %s lacks the note", sc.callID)
				}
				if sc.mode == "plan" {
					if !face.plain && !told { // a plain client shows it as the turn's text
						t.Error("no agent_message_chunk tells the user the plan still awaits approval")
					}
					if mode := ed.Mode(s.SessionID); mode != "build" {
						t.Errorf("mode %q after the person approved, want build", mode)
					}
				}
				if err := ed.Shutdown(ctx); err != nil {
					t.Logf("shutdown: %v", err)
				}
				log, _ := os.ReadFile(logFile)
				found := false
				for _, line := range strings.Split(string(log), "\n") {
					found = found || strings.Contains(line, "WARN") && strings.Contains(line, note) && strings.Contains(line, "faster than a person decides")
				}
				if !found {
					t.Errorf("agentls's log lacks the warning:\n%s", log)
				}
				if strings.Contains(string(log), "check the client's auto-approve setting") {
					t.Errorf("agentls's log claims the user's auto-approve setting is on")
				}
			})
		}
	}
}
