package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/workspace"
)

func TestCheckedSteps(t *testing.T) {
	plan := "---\ntitle: T\nstatus: approved\n---\n# Goal\nx\n\n## Steps\n- [x] one\n- [ ] two\n- [X] three\n"
	if n := checkedSteps(plan); n != 2 {
		t.Fatalf("checkedSteps = %d, want 2", n)
	}
}

// brokenSource is a language-intelligence source whose server could not
// start: its error holds the server's stderr, several lines.
type brokenSource struct{ statusSource }

func (brokenSource) Diagnostics(context.Context, []string) (intel.Snapshot, error) {
	return intel.Snapshot{}, errors.New("the go language server could not start: gopls: initialize: EOF (stderr: panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n)")
}

// TestEditDiagnosticsErrorIsOneLine: an edit's diagnostics.error (a
// server's stderr tail in it) is one line: the faces put it in one line
// of a chat or a log.
func TestEditDiagnosticsErrorIsOneLine(t *testing.T) {
	m, _ := newTestManager(t, "name: idle\nsteps:\n  - text: hi\n", &memEditor{}, nil)
	m.intel = brokenSource{}
	s := newTestSession(t, m, "build")
	st := s.intelState()
	st.mu.Lock()
	st.calls["c1"] = []workspace.Change{{Path: workspace.Path{Abs: "/w/a.go"}}}
	st.mu.Unlock()
	res, _ := s.withDiagnostics(context.Background(), "c1", tools.Result{Success: true, Value: map[string]any{"path": "a.go"}})
	b, err := json.Marshal(res.Value)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Diagnostics EditDiagnostics `json:"diagnostics"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if e := v.Diagnostics.Error; !strings.Contains(e, "panic: boom goroutine 1") || strings.ContainsAny(e, "\r\n") {
		t.Errorf("diagnostics.error = %q, want the error on one line", e)
	}
}
