package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// waitingBuild prints a line, waits for the file go1, prints another and
// waits for go2, then ends: the test decides when each line has been seen
// (each wait gives up after 60 s, so a failed test leaves no command).
const waitingBuild = `echo compiling
i=0; while [ ! -e go1 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
echo '<img src=x onerror=alert(1)> **bold** [link](http://x)'
i=0; while [ ! -e go2 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
echo done
`

// toolCallUpdate is the part of a tool_call or tool_call_update the test reads.
type toolCallUpdate struct {
	Kind   string `json:"sessionUpdate"`
	ID     string `json:"toolCallId"`
	Status string `json:"status"`
	// Content is a tool_call_update's content (a message chunk's is an object).
	Content json.RawMessage `json:"content"`
}

// callUpdates are the tool_call and tool_call_update updates of call id, in
// the order they arrived, as "kind status [text]".
func callUpdates(t *testing.T, h *lsptest.Env, id string) []string {
	t.Helper()
	var out []string
	for _, raw := range h.Messages("agent/update") {
		var p struct{ Update toolCallUpdate }
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("agent/update %s: %v", raw, err)
		}
		u := p.Update
		if u.ID != id || (u.Kind != "tool_call" && u.Kind != "tool_call_update") {
			continue
		}
		e := u.Kind + " " + u.Status
		if u.Kind == "tool_call_update" && u.Status == "in_progress" {
			var content []struct {
				Content struct{ Text string } `json:"content"`
			}
			if err := json.Unmarshal(u.Content, &content); err != nil {
				t.Fatalf("tool_call_update %s: %v", raw, err)
			}
			for _, c := range content {
				e += " " + c.Content.Text
			}
		}
		out = append(out, e)
	}
	return out
}

// TestRunOutputAsToolCallProgress: while a command runs, a client that
// declared experimental.agent.toolCallProgress gets each new output line
// as a tool_call_update in_progress of the run call (the line as text, as
// the command printed it), and the call's end after them; a client that
// did not gets no such update (its work-done progress has the line), nor
// does a plain client get anything new.
func TestRunOutputAsToolCallProgress(t *testing.T) {
	t.Parallel()
	hostile := "<img src=x onerror=alert(1)> **bold** [link](http://x)"
	withProgress := lsptest.FullCaps()
	withProgress["window"] = map[string]any{"workDoneProgress": true}
	withProgress["experimental"] = map[string]any{"agent": map[string]any{"askUser": true, "modeIndicator": true, "toolCallProgress": true}}
	without := lsptest.FullCaps()
	without["window"] = map[string]any{"workDoneProgress": true}
	plain := lsptest.PlainCaps()
	plain["window"] = map[string]any{"workDoneProgress": true}
	tests := []struct {
		name string
		caps map[string]any
		want []string
	}{
		{"toolCallProgress", withProgress, []string{
			"tool_call pending", "tool_call in_progress",
			"tool_call_update in_progress compiling", "tool_call_update in_progress " + hostile,
			"tool_call_update completed",
		}},
		{"experimental.agent without toolCallProgress", without, []string{
			"tool_call pending", "tool_call in_progress", "tool_call_update completed",
		}},
		{"plain client", plain, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := lsptest.Start(t, lsptest.Setup{
				Caps:     tc.caps,
				InitOpts: map[string]any{"plan_mode": map[string]any{"default_active": false}, "run": map[string]any{"allow": []string{"sh build.sh"}}},
				Files:    map[string]string{"build.sh": waitingBuild},
				Script: `
name: run-progress-updates
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "sh build.sh"}}
  - text: built
`,
			})
			s := h.NewSession("build")
			result := h.PromptAsync(s.SessionID, "build")
			for i, line := range []string{"compiling", hostile} {
				h.AwaitMessage("$/progress", jsonText(t, "BUILD: run: "+line))
				if err := os.WriteFile(filepath.Join(h.Dir, []string{"go1", "go2"}[i]), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if r := <-result; r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v (%s)", r, r.Error)
			}
			if got := callUpdates(t, h, "r1"); !slices.Equal(got, tc.want) {
				t.Errorf("the run call's updates:\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// jsonText is s as a JSON string's text (what a params' bytes contain).
func jsonText(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[1 : len(b)-1])
}
