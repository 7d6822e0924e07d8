package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// This file proves workspace configuration trust (issue 7 item 7, second
// half) through the real server: an untrusted .agentls.yaml that widens
// permissions (run.allow: ["*"]) is not applied, a warning names the key,
// and the user is asked with "Don't trust" first; "Trust" applies it and is
// remembered across a restart; changed content is asked about again.

const trustedYAML = "run:\n  allow: [\"*\", \"echo trusted-run\"]\nplan_mode:\n  require_approval: true\n"

// runEchoScript: a build session's model runs one command.
const runEchoScript = `
name: run-echo
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "echo trusted-run"}}
  - text: done
`

// trustRecorder answers the editor's questions: the trust question with
// trustAnswer, a run permission with "Reject"; it records both.
type trustRecorder struct {
	mu          sync.Mutex
	trustAnswer string
	trustAsks   []json.RawMessage
	runAsks     int
}

func (r *trustRecorder) messageRequest(params json.RawMessage) any {
	var p struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(params, &p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if strings.Contains(p.Message, "Trust it?") {
		r.trustAsks = append(r.trustAsks, params)
		return map[string]any{"title": r.trustAnswer}
	}
	r.runAsks++
	return map[string]any{"title": "Reject"}
}

func (r *trustRecorder) counts() (trust, run int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.trustAsks), r.runAsks
}

// messageIndex is the position among the messages the editor received of
// the first one of method whose params contain sub, or -1.
func messageIndex(h *lsptest.Env, method, sub string) int {
	h.T.Helper()
	for i, m := range h.Editor.Messages() {
		if m.Method == method && strings.Contains(string(m.Params), sub) {
			return i
		}
	}
	return -1
}

// noAskUser is an editor without agent/askUser: questions come as
// window/showMessageRequest.
func noAskUser() map[string]any {
	c := lsptest.FullCaps()
	c["experimental"] = map[string]any{"agent": map[string]any{"modeIndicator": true}}
	return c
}

// runOutcome prompts a build session whose model runs echo, and returns
// whether the command ran.
func runOutcome(h *lsptest.Env) bool {
	h.T.Helper()
	s := h.NewSession("build")
	wantStop(h.T, h.Prompt(s.SessionID, "run it"), "end_turn")
	ok, result, errText := planToolResult(h, "r")
	if ok != strings.Contains(string(result), "trusted-run") {
		h.T.Fatalf("run result: ok %v %s %s", ok, result, errText)
	}
	return ok
}

func TestWorkspaceConfigTrust(t *testing.T) {
	t.Parallel()
	dir, state := t.TempDir(), t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state, "XDG_CONFIG_HOME": t.TempDir()}
	files := map[string]string{".agentls.yaml": trustedYAML}

	// 1. Untrusted: run.allow is ignored (the command needs permission),
	// the warning names it, and the question offers "Don't trust" first.
	rec := &trustRecorder{trustAnswer: "Don't trust"}
	h := lsptest.Start(t, lsptest.Setup{Dir: dir, Files: files, Env: env, Caps: noAskUser(), Script: runEchoScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	warning := h.AwaitMessage("window/showMessage", `"type":2`, "run.allow", "untrusted")
	if strings.Contains(string(warning), "require_approval") {
		t.Fatalf("the warning names a narrowing key: %s", warning)
	}
	req := h.AwaitMessage("window/showMessageRequest", "Trust it?")
	var q struct {
		Message string `json:"message"`
		Actions []struct {
			Title string `json:"title"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(req, &q); err != nil {
		t.Fatal(err)
	}
	if len(q.Actions) != 2 || q.Actions[0].Title != "Don't trust" || q.Actions[1].Title != "Trust" ||
		!strings.HasPrefix(q.Message, `This workspace's .agentls.yaml sets keys that widen what agentls may do;`) ||
		!strings.Contains(q.Message, "Trust it?") || !strings.Contains(q.Message, "Trusting applies:\n- `run.allow: [\"*\",\"echo trusted-run\"]`") {
		t.Fatalf("trust question = %+v", q)
	}
	if q, w := messageIndex(h, "window/showMessageRequest", "Trust it?"), messageIndex(h, "window/showMessage", "untrusted"); q > w {
		t.Fatalf("the warning (message %d) came before the question (message %d): it stands in front of the question in editors that echo it", w, q)
	}
	if runOutcome(h) {
		t.Fatal("the untrusted run.allow let the command run without asking")
	}
	if _, runAsks := rec.counts(); runAsks != 1 {
		t.Fatalf("%d run permission requests, want 1", runAsks)
	}
	if err := h.Editor.Shutdown(h.Ctx); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Join(state, "agentls", "trust")); len(entries) != 0 {
		t.Fatalf("\"Don't trust\" was remembered as trust: %v", entries)
	}

	// 2. Asked again at the next start; "Trust" applies it at once.
	rec = &trustRecorder{trustAnswer: "Trust"}
	h = lsptest.Start(t, lsptest.Setup{Dir: dir, Env: env, Caps: noAskUser(), Script: runEchoScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	h.AwaitMessage("window/showMessage", `"type":3`, "you trusted")
	if i := messageIndex(h, "window/showMessage", "untrusted"); i >= 0 {
		t.Fatalf("a warning about ignored keys (message %d) although the user trusted the file", i)
	}
	if !runOutcome(h) {
		t.Fatal("the trusted run.allow did not apply")
	}
	if trustAsks, runAsks := rec.counts(); trustAsks != 1 || runAsks != 0 {
		t.Fatalf("%d trust and %d run requests, want 1 and 0", trustAsks, runAsks)
	}
	if err := h.Editor.Shutdown(h.Ctx); err != nil {
		t.Fatal(err)
	}

	// 3. Remembered across a restart (same XDG_STATE_HOME): applied from the
	// start, nothing asked.
	rec = &trustRecorder{trustAnswer: "Don't trust"}
	h = lsptest.Start(t, lsptest.Setup{Dir: dir, Env: env, Caps: noAskUser(), Script: runEchoScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	if !runOutcome(h) {
		t.Fatal("the remembered trust did not apply after a restart")
	}
	if err := h.Editor.Shutdown(h.Ctx); err != nil {
		t.Fatal(err)
	}
	if trustAsks, runAsks := rec.counts(); trustAsks != 0 || runAsks != 0 {
		t.Fatalf("%d trust and %d run requests after a restart, want none", trustAsks, runAsks)
	}

	// 4. Changed content is asked about again (here through agent/askUser,
	// "Don't trust" first), and meanwhile not applied.
	if err := os.WriteFile(filepath.Join(dir, ".agentls.yaml"), []byte(trustedYAML+"max_turn_requests: 20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var trustForms []json.RawMessage
	h = lsptest.Start(t, lsptest.Setup{Dir: dir, Env: env, Script: runEchoScript, Handlers: lspclient.Handlers{AskUser: func(params json.RawMessage) any {
		var p struct {
			Purpose string `json:"purpose"`
		}
		_ = json.Unmarshal(params, &p)
		if p.Purpose == "permission" && strings.Contains(string(params), `"kind":"trust"`) {
			mu.Lock()
			trustForms = append(trustForms, params)
			mu.Unlock()
			return map[string]any{"answers": map[string]any{"decision": "reject_once"}}
		}
		return map[string]any{"answers": map[string]any{"decision": "reject_once"}}
	}}})
	form := h.AwaitMessage("agent/askUser", `"kind":"trust"`)
	var f struct {
		Questions []struct {
			Name     string `json:"name"`
			Question string `json:"question"`
			Buttons  []struct {
				Label string `json:"label"`
				Value any    `json:"value"`
			} `json:"buttons"`
		} `json:"questions"`
	}
	if err := json.Unmarshal(form, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Questions) != 1 || f.Questions[0].Name != "decision" || len(f.Questions[0].Buttons) != 2 ||
		f.Questions[0].Buttons[0].Label != "Don't trust" || f.Questions[0].Buttons[0].Value != "reject_once" ||
		f.Questions[0].Buttons[1].Label != "Trust" || f.Questions[0].Buttons[1].Value != "allow_always" ||
		!strings.Contains(f.Questions[0].Question, "run.allow") {
		t.Fatalf("trust form = %s", form)
	}
	if runOutcome(h) {
		t.Fatal("changed content applied without trust")
	}
}

// TestTrustReviewOnSave: saving the workspace file reloads it: a narrowing
// change applies at once without a question, a widening one is asked
// about.
func TestTrustReviewOnSave(t *testing.T) {
	t.Parallel()
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}
	rec := &trustRecorder{trustAnswer: "Trust"}
	h := lsptest.Start(t, lsptest.Setup{Env: env, Caps: noAskUser(), Files: map[string]string{".agentls.yaml": "plan_mode:\n  require_approval: true\n"},
		Script: runEchoScript, Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	if err := h.Editor.Open(h.Ctx, ".agentls.yaml", "plan_mode:\n  require_approval: true\n"); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Change(h.Ctx, ".agentls.yaml", workspace.TextEdit{Range: workspace.Range{End: pos(2, 0)}, NewText: trustedYAML}); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Save(h.Ctx, ".agentls.yaml"); err != nil {
		t.Fatal(err)
	}
	h.AwaitMessage("window/showMessageRequest", "Trust it?", "run.allow")
	h.AwaitMessage("window/showMessage", `"type":3`, "you trusted")
	if !runOutcome(h) {
		t.Fatal("the file trusted after a save did not apply")
	}
}

// TestTrustReviewOnSavingASubagentKind: the trust of .agentls.yaml covers
// the project's sub-agent kinds as shown, so saving a new kind file
// (.agentls/agents/*.md) asks again, naming the new kind.
func TestTrustReviewOnSavingASubagentKind(t *testing.T) {
	t.Parallel()
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}
	rec := &trustRecorder{trustAnswer: "Trust"}
	h := lsptest.Start(t, lsptest.Setup{Env: env, Caps: noAskUser(), Files: map[string]string{
		".agentls.yaml":            "plan_mode:\n  require_approval: true\n",
		".agentls/agents/first.md": "---\ndescription: first\nbase: explore\n---\nLook around.\n",
	}, Script: runEchoScript, Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
	h.AwaitMessage("window/showMessageRequest", "Trust it?", `sub-agent kind \"first\"`)
	h.AwaitMessage("window/showMessage", `"type":3`, "you trusted")
	rec.mu.Lock()
	rec.trustAnswer = "Don't trust" // the new kind stays unused: nothing more is written
	rec.mu.Unlock()

	const kind = ".agentls/agents/pusher.md"
	text := "---\ndescription: pushes\nbase: explore\n---\nLook around.\n"
	if err := os.WriteFile(filepath.Join(h.Dir, kind), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Open(h.Ctx, kind, text); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Save(h.Ctx, kind); err != nil {
		t.Fatal(err)
	}
	h.AwaitMessage("window/showMessageRequest", "Trust it?", `sub-agent kind \"pusher\"`)
	h.AwaitMessage("window/showMessage", `"type":2`, "2 sub-agent kinds")
}
