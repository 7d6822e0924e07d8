package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/realservers"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// goModule is the workspace of the language-intelligence tests: main.go
// has a problem from the start (an unused variable, line 6) and calls
// Greet, declared in greet.go on line 4.
func goModule() map[string]string {
	return map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n",
		"main.go":  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tunused := 1\n\tfmt.Println(Greet(\"x\"))\n}\n",
		"greet.go": "package main\n\n// Greet greets.\nfunc Greet(name string) string { return \"hello \" + name }\n",
	}
}

// poolOpts are initializationOptions serving Go with the real gopls.
func poolOpts(t *testing.T) map[string]any {
	return map[string]any{"lsp": map[string]any{
		"servers":   map[string]any{"go": map[string]any{"command": []string{realservers.Gopls(t)}}},
		"settle_ms": 10000, // a loaded machine: settling ends at 200 ms of quiet anyway
	}}
}

// result is a tool call's result as the model saw it.
func result(t *testing.T, h *lsptest.Env, id string) (string, map[string]any) {
	t.Helper()
	status, out := h.ToolOutput(id)
	r, _ := out["result"].(map[string]any)
	return status, r
}

// TestEditorsTruthThroughThePool: a plain editor (no languageIntel): gopls
// in agentls's pool. The plan is built on gopls's definition (not a grep
// hit), rename is refused in plan mode, the edit's type error comes back in
// the same result (the old problem never does), the tick is refused until
// the fix, then it lands.
func TestEditorsTruthThroughThePool(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{
		Script:   loadScript(t, "language_intel.yaml"),
		Files:    goModule(),
		Handlers: lspclient.Handlers{AskUser: approveAll},
		InitOpts: poolOpts(t),
	})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "greet someone else"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%v)", r, r.Error)
	}
	checkEditorsTruth(t, h)
}

func checkEditorsTruth(t *testing.T, h *lsptest.Env) {
	t.Helper()
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
	status, def := result(t, h, "d1")
	locs, _ := def["locations"].([]any)
	if status != "completed" || len(locs) != 1 || fmt.Sprint(locs[0].(map[string]any)["path"]) != "greet.go" || fmt.Sprint(locs[0].(map[string]any)["line"]) != "4" {
		t.Fatalf("definition in plan mode = %s %v, want gopls's one location greet.go:4", status, def)
	}
	if status, out := h.ToolOutput("r1"); status != "failed" || out["refusal"] == nil {
		t.Fatalf("rename in plan mode = %s %v, want the guard's refusal", status, out)
	}
	if !strings.Contains(h.Read("greet.go"), "func Greet") {
		t.Fatal("a plan-mode rename changed greet.go")
	}
	_, edit := result(t, h, "e1")
	diags, _ := edit["diagnostics"].(map[string]any)
	fresh, _ := diags["new"].([]any)
	if len(fresh) != 1 || diags["settled"] != true {
		t.Fatalf("the breaking edit's diagnostics = %v, want one new problem, settled", edit["diagnostics"])
	}
	p := fresh[0].(map[string]any)
	if p["path"] != "main.go" || fmt.Sprint(p["line"]) != "7" || p["severity"] != "error" || p["source"] != "compiler" || !strings.Contains(fmt.Sprint(p["message"]), "42") {
		t.Fatalf("new problem = %v, want main.go:7 error from the compiler about 42", p)
	}
	if status, out := h.ToolOutput("t1"); status != "failed" || !strings.Contains(fmt.Sprint(out["error"]), "main.go:7: error") || strings.Contains(fmt.Sprint(out["error"]), "unused") {
		t.Fatalf("tick with a new error = %s %v, want refused naming main.go:7 only", status, out)
	}
	_, fix := result(t, h, "e2")
	if b, _ := json.Marshal(fix["diagnostics"]); string(b) != `{"new":[],"settled":true}` {
		t.Fatalf("the fixing edit's diagnostics = %s, want none new, settled", b)
	}
	if status, _ := h.ToolOutput("t2"); status != "completed" || !strings.Contains(h.Read("plans/greet.plan"), "- [x] Change the greeting") {
		t.Fatalf("tick after the fix = %s; plan:\n%s", status, h.Read("plans/greet.plan"))
	}
}
