package acp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestRunSentinelOnACPListsEveryChange: a command that creates 30 .envrc
// files makes a question too long to list them on the LSP face, where a
// generated document opened beside it holds them. ACP cannot open a
// document: the request's content lists all 30 itself (ACP clients
// scroll) and refers to no document. Fails without acp.Permit clearing
// Request.Document: the content said "in full in <state>/questions/…"
// and listed none.
func TestRunSentinelOnACPListsEveryChange(t *testing.T) {
	const command = `for i in $(seq 30); do mkdir -p d$i && echo x > d$i/.envrc; done`
	client := &testClient{}
	client.permit = func(_ context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		id := "allow_once" // the run question
		if p.ToolCall.Title != nil && strings.HasPrefix(*p.ToolCall.Title, "Keep what ") {
			id = "reject_once"
		}
		return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}
	}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: `
steps:
  - tool_calls: [{id: r, name: run, args: {command: "` + command + `"}}]
  - text: "OK."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "go"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop = %s", stop)
	}
	ps := client.permissionsSeen()
	if len(ps) != 2 || len(ps[1].ToolCall.Content) == 0 || ps[1].ToolCall.Content[0].Content == nil || ps[1].ToolCall.Content[0].Content.Content.Text == nil {
		t.Fatalf("%d permission requests (%+v), want the run's and the one after it, with text", len(ps), ps)
	}
	text := ps[1].ToolCall.Content[0].Content.Content.Text.Text
	if strings.Contains(text, "in full in") {
		t.Errorf("the question refers to a document ACP cannot open:\n%s", text)
	}
	for i := 1; i <= 30; i++ {
		if want := fmt.Sprintf("- `d%d/.envrc`: created", i); !strings.Contains(text, want) {
			t.Errorf("the question lacks %q:\n%s", want, text)
		}
	}
}
