package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// pickAction answers window/showMessageRequest with the action titled as
// the first of titles the message offers.
func pickAction(titles ...string) func(json.RawMessage) any {
	return func(raw json.RawMessage) any {
		var p lsptest.MessageRequest
		if json.Unmarshal(raw, &p) != nil {
			return nil
		}
		for _, want := range titles {
			for _, a := range p.Actions {
				if a["title"] == want {
					return a
				}
			}
		}
		return nil
	}
}

// TestPlainFormOneQuestionAtATime: a four-field form on a plain editor
// (Neovim without the plugin) is asked one question at a time, in order:
// the choice as a message request, the free-text name shown alone and
// answered by the next prompt, the optional note skipped with "-", the
// yes/no as a message request; then the batch is answered and the turn
// goes on with every answer.
func TestPlainFormOneQuestionAtATime(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:     lsptest.PlainCaps(),
		Handlers: lspclient.Handlers{ShowMessageRequest: pickAction("staging", "Yes")},
		Script: `
name: form
steps:
  - tool_calls:
      - id: q
        name: ask_user
        args:
          questions:
            - {name: env, question: "Which environment?", schema: {type: string, enum: [dev, staging]}}
            - {name: service, question: "Which service name?", schema: {type: string, pattern: "^[a-z]+$"}}
            - {name: note, question: "Anything else?", schema: {type: string}, optional: true}
            - {name: confirm, question: "Deploy now?", schema: {type: boolean}}
  - expect:
      last_message_contains: ['"confirm":true', '"env":"staging"', '"service":"billing"']
    text: deploying
`,
	})
	sid, err := promptCommand(h, []any{map[string]any{"text": "deploy"}})
	if err != nil {
		t.Fatal(err)
	}
	shown := h.AwaitShown("(2/4) Which service name?")
	if strings.Contains(shown.Message, "Which environment?") || strings.Contains(shown.Message, "Deploy now?") {
		t.Fatalf("the form was shown at once: %s", shown.Message)
	}
	if reqs := h.MessageRequests(); len(reqs) != 1 || !strings.Contains(reqs[0].Message, "(1/4) Which environment?") {
		t.Fatalf("message requests before the name = %+v", reqs)
	}
	if _, err := promptCommand(h, []any{map[string]any{"text": "Billing!"}}); lsptest.RPCCode(err) != -32602 {
		t.Fatalf("a name that does not fit = %v, want -32602", err)
	}
	if _, err := promptCommand(h, []any{map[string]any{"sessionId": sid, "text": "billing"}}); err != nil {
		t.Fatal(err)
	}
	note := h.AwaitShown("(3/4) Anything else?")
	if !strings.Contains(note.Message, "- to skip") {
		t.Fatalf("optional question = %s", note.Message)
	}
	if _, err := promptCommand(h, []any{map[string]any{"text": "-"}}); err != nil {
		t.Fatal(err)
	}
	h.AwaitShown("deploying")
	reqs := h.MessageRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Message, "(4/4) Deploy now?") {
		t.Fatalf("message requests = %+v, want env then confirm", reqs)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
}
