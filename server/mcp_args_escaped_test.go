package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestMCPCallArgumentsShownEscaped: the arguments of a mutating MCP call
// reach the person asked escaped (issue 18: "with the arguments shown
// escaped"): a bidi override that would reorder what the user reads, or a
// zero-width space, shows as \u202E / \u200B in the question's text and in
// the permission payload's what, never raw; on a plain client's
// showMessageRequest too.
func TestMCPCallArgumentsShownEscaped(t *testing.T) {
	bin := buildHostile(t)
	script := `
steps:
  - tool_calls:
      - {id: w, name: mcp__evil__write_note, args: {path: "note.txt", content: "safe \u202Eexe.txt\u200B"}}
  - text: "Done."
    expect:
      tool_result_contains: {w: ["the user rejected"]}
`
	opts := map[string]any{"mcp": map[string]any{"servers": map[string]any{"evil": map[string]any{"command": bin}}}}
	raw := func(s string) bool { return strings.ContainsAny(s, "\u202E\u200B") }
	escaped := func(s string) bool { return strings.Contains(s, `\u202E`) && strings.Contains(s, `\u200B`) }
	t.Run("askUser", func(t *testing.T) {
		h := lsptest.Start(t, lsptest.Setup{Script: script, InitOpts: opts, Handlers: lspclient.Handlers{AskUser: decide("reject_once")}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
		asks := h.AskUserRequests("")
		if len(asks) != 1 || asks[0].Permission == nil {
			t.Fatalf("%d questions (%+v), want 1 permission", len(asks), asks)
		}
		q, what := asks[0].Questions[0].Question, asks[0].Permission.What
		if raw(q) || raw(what) || !escaped(q) || !escaped(what) {
			t.Fatalf("question %q, what %q: want the arguments' U+202E and U+200B escaped", q, what)
		}
	})
	t.Run("showMessageRequest", func(t *testing.T) {
		h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(true), Script: script, InitOpts: opts,
			Handlers: lspclient.Handlers{ShowMessageRequest: func(b json.RawMessage) any {
				var p lsptest.MessageRequest
				_ = json.Unmarshal(b, &p)
				return p.Actions[0] // Reject
			}}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
		reqs := h.MessageRequests()
		if len(reqs) != 1 || raw(reqs[0].Message) || !escaped(reqs[0].Message) {
			t.Fatalf("message requests %+v: want one, the arguments escaped", reqs)
		}
	})
}
