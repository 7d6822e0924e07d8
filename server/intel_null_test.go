package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestNullDiagnosticsAnswerIsNoVerdict: an editor with languageIntel that
// answers agent/diagnostics with null, an empty object or a null
// `diagnostics` member has said nothing about the files. Before, that read
// as "no problems" and the edit's result told the model its edit was clean;
// now the diagnostics carry an error naming the answer (as an error reply
// does), and the edit itself stands.
func TestNullDiagnosticsAnswerIsNoVerdict(t *testing.T) {
	t.Parallel()
	for _, reply := range []string{`null`, `{}`, `{"diagnostics":null,"versions":{}}`} {
		t.Run(reply, func(t *testing.T) {
			t.Parallel()
			caps := lsptest.FullCaps()
			caps["experimental"].(map[string]any)["agent"].(map[string]any)["languageIntel"] = true
			h := lsptest.Start(t, lsptest.Setup{
				Script: "name: null-diagnostics\nsteps:\n  - tool_calls:\n      - {id: e1, name: edit, args: {path: main.go, old_string: \"Greet(\\\"x\\\")\", new_string: \"Greet(1)\"}}\n  - text: done\n",
				Files:  goModule(),
				Caps:   caps,
				Handlers: lspclient.Handlers{Requests: map[string]func(json.RawMessage) (any, error){
					"agent/diagnostics": func(json.RawMessage) (any, error) { return json.RawMessage(reply), nil },
				}},
			})
			s := h.NewSession("build")
			if r := h.Prompt(s.SessionID, "edit"); r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v (%v)", r, r.Error)
			}
			status, edit := result(t, h, "e1")
			diags, _ := edit["diagnostics"].(map[string]any)
			if status != "completed" || !strings.Contains(h.Read("main.go"), "Greet(1)") ||
				!strings.Contains(fmt.Sprint(diags["error"]), "agent/diagnostics") {
				t.Fatalf("edit = %s %v, want applied, with the diagnostics' error naming the answer", status, edit)
			}
		})
	}
}
