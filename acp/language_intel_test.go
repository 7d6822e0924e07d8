package acp_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/realservers"
)

// TestEditorsTruthOnACP: ACP clients cannot answer agent/diagnostics:
// agentls's pool serves (the real gopls). The edit's type error is in the
// same tool call (its result and a text content block), the old problem
// never is, and the step ticks only after the fix.
func TestEditorsTruthOnACP(t *testing.T) {
	script, err := os.ReadFile("../testdata/scripts/language_intel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	gopls, _ := json.Marshal(realservers.Gopls(t))
	client := &testClient{permit: choose("allow_once")}
	r := newRig(t, setup{
		files: map[string]string{
			"go.mod":   "module example.com/m\n\ngo 1.22\n",
			"main.go":  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tunused := 1\n\tfmt.Println(Greet(\"x\"))\n}\n",
			"greet.go": "package main\n\n// Greet greets.\nfunc Greet(name string) string { return \"hello \" + name }\n",
		},
		script: string(script), client: client,
		caps:       sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}},
		userConfig: "lsp:\n  settle_ms: 30000\n  servers:\n    go:\n      command: [" + string(gopls) + "]\n",
	})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "greet someone else"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %s", stop)
	}
	text := func(id string) string {
		var b strings.Builder
		for _, u := range client.toolUpdates(id) {
			for _, c := range u.Content {
				if c.Content != nil && c.Content.Content.Text != nil {
					b.WriteString(c.Content.Content.Text.Text + "\n")
				}
			}
		}
		return b.String()
	}
	if got := text("d1"); client.finalStatus("d1") != sdk.ToolCallStatusCompleted || !strings.Contains(got, `"path":"greet.go","line":4`) || !strings.Contains(got, `"total":1`) {
		t.Fatalf("definition: %s %s, want gopls's greet.go:4 only", client.finalStatus("d1"), got)
	}
	if client.finalStatus("r1") != sdk.ToolCallStatusFailed {
		t.Fatalf("rename in plan mode: %s, want failed", client.finalStatus("r1"))
	}
	got := text("e1")
	if !strings.Contains(got, "New problems:\nmain.go:7: error: ") || !strings.Contains(got, "(compiler") || strings.Contains(got, "unused") {
		t.Fatalf("the breaking edit's tool call content:\n%s\nwant the new main.go:7 error as text, not the old problem", got)
	}
	if got := text("t1"); client.finalStatus("t1") != sdk.ToolCallStatusFailed || !strings.Contains(got, "step not ticked") || !strings.Contains(got, "main.go:7: error: ") {
		t.Fatalf("tick with a new error: %s %s, want refused naming main.go:7", client.finalStatus("t1"), got)
	}
	// The plan update sent with the refusal says why, beside the open step.
	refusals := client.tickRefusals()
	if len(refusals) != 1 {
		t.Fatalf("plan updates with agentls/tickRefused: %d, want exactly the one refused tick's", len(refusals))
	}
	tr := refusals[0]
	if len(tr.Steps) != 1 || tr.Steps[0] != "Change the greeting" || len(tr.Problems) != 1 || tr.Problems[0].Path != "main.go" || tr.Problems[0].Line != 7 || tr.Problems[0].Severity != "error" || !strings.Contains(tr.Message, "step not ticked") {
		t.Fatalf("the refused tick's plan update: %+v, want the step and main.go:7's error", tr)
	}
	if got := text("e2"); !strings.Contains(got, `"diagnostics":{"new":[],"settled":true}`) {
		t.Fatalf("the fixing edit's content: %s", got)
	}
	if client.finalStatus("t2") != sdk.ToolCallStatusCompleted || !strings.Contains(r.read("plans/greet.plan"), "- [x] Change the greeting") {
		t.Fatalf("tick after the fix: %s; plan:\n%s", client.finalStatus("t2"), r.read("plans/greet.plan"))
	}
}

// tickRefusals are the agentls/tickRefused _meta of the plan updates
// received, in order.
func (c *testClient) tickRefusals() []agentproto.TickRefusal {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []agentproto.TickRefusal
	for _, u := range c.updates {
		if u.Update.Plan == nil || u.Update.Plan.Meta["agentls/tickRefused"] == nil {
			continue
		}
		b, _ := json.Marshal(u.Update.Plan.Meta["agentls/tickRefused"])
		var r agentproto.TickRefusal
		if err := json.Unmarshal(b, &r); err != nil {
			continue
		}
		out = append(out, r)
	}
	return out
}
