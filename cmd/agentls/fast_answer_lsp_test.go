package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
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

// TestLSPAnswerFasterThanAPerson: against the real agentls binary on the
// LSP face, a client that allows at once — the Go fake editor answering
// agent/askUser, and a plain client answering window/showMessageRequest —
// a run permission or a plan approval is named: the asking tool call's
// result (agent/update) gets "answered by the client in N ms
// (allow_once): faster than a person decides; …", the editor a log
// message with it (window/logMessage, which a plain client shows), and
// agentls's log a warning. The decision stands: the command runs, the plan
// builds.
func TestLSPAnswerFasterThanAPerson(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	const note = "answered by the client in "
	const noteTail = " ms (allow_once): faster than a person decides; check the client's auto-approve setting"
	scripts := map[string]struct {
		mode, script, callID string
	}{
		"run permission": {"build", `
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "echo fast-answer"}}
  - text: "Ran."
`, "r1"},
		"plan approval": {"plan", planApprovedScript, "x1"},
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
				ed, err := lspclient.Start(ctx, dir, processServeWith(t, started, func(c *exec.Cmd) {
					c.Args = append(c.Args, "--log-file", logFile)
					c.Env = append(c.Env, "XDG_CONFIG_HOME="+filepath.Join(root, "xdg"), "HOME="+root)
				}), lspclient.Handlers{
					// The client answers at once, allowing: as an auto-approve does.
					AskUser: func(p json.RawMessage) any {
						if strings.Contains(string(p), `"purpose":"plan_approval"`) {
							return map[string]any{"answers": map[string]any{"approve": true}}
						}
						return map[string]any{"answers": map[string]any{"decision": "allow_once"}}
					},
					ShowMessageRequest: func(p json.RawMessage) any {
						var m struct {
							Actions []map[string]any `json:"actions"`
						}
						_ = json.Unmarshal(p, &m)
						for _, a := range m.Actions {
							if a["title"] == "Run" || a["title"] == "Accept & Build" {
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
				if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "go"}, nil); err != nil {
					t.Fatal(err)
				}
				var asked, logged, inResult bool
				for _, m := range ed.Messages() {
					switch m.Method {
					case "agent/askUser", "window/showMessageRequest":
						asked = true
					case "window/logMessage":
						var p struct {
							Message string `json:"message"`
						}
						_ = json.Unmarshal(m.Params, &p)
						logged = logged || strings.HasPrefix(p.Message, note) && strings.HasSuffix(p.Message, noteTail)
					case "agent/update":
						var p struct {
							Update struct {
								SessionUpdate string `json:"sessionUpdate"`
								ToolCallID    string `json:"toolCallId"`
								Status        string `json:"status"`
								Content       []struct {
									Content struct {
										Text string `json:"text"`
									} `json:"content"`
								} `json:"content"`
							} `json:"update"`
						}
						_ = json.Unmarshal(m.Params, &p)
						if p.Update.SessionUpdate != "tool_call_update" || p.Update.ToolCallID != sc.callID {
							continue
						}
						if p.Update.Status != "completed" {
							t.Errorf("%s ended %s: the decision must stand", sc.callID, p.Update.Status)
						}
						for _, c := range p.Update.Content[min(1, len(p.Update.Content)):] {
							inResult = inResult || strings.HasPrefix(c.Content.Text, note) && strings.HasSuffix(c.Content.Text, noteTail)
						}
					}
				}
				if !asked {
					t.Fatal("the client was never asked")
				}
				if !logged {
					t.Error("no window/logMessage names the client's own answer")
				}
				if !face.plain && !inResult {
					t.Errorf("the result of %s lacks the note", sc.callID)
				}
				if sc.mode == "plan" {
					if mode := ed.Mode(s.SessionID); mode != "build" {
						t.Errorf("mode %q after the fast approval, want build: the decision stands", mode)
					}
				}
				if err := ed.Shutdown(ctx); err != nil {
					t.Logf("shutdown: %v", err)
				}
				log, _ := os.ReadFile(logFile)
				found := false
				for _, line := range strings.Split(string(log), "\n") {
					found = found || strings.Contains(line, "WARN") && strings.Contains(line, note) && strings.Contains(line, noteTail)
				}
				if !found {
					t.Errorf("agentls's log lacks the warning:\n%s", log)
				}
			})
		}
	}
}
