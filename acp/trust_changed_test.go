package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestDeclinedChangedConfigKeepsNoOldTrust: on the ACP face the user trusts
// the workspace's .agentls.yaml (run.allow: touch *), then the file changes
// (a pull; here one comment line). At the next prompt agentls asks about the
// new content and the user answers "Don't trust". docs/acp.md: "Don't
// trust" leaves the keys ignored; docs/guard.md: any change to the file
// asks again, and in between the widening keys are ignored: the old trusted
// content's run.allow does not stay in force, and the model's `touch made`
// is asked about (and refused here) under a file the user just declined.
func TestDeclinedChangedConfigKeepsNoOldTrust(t *testing.T) {
	var mu sync.Mutex
	trustAsked := 0
	client := &testClient{permit: func(_ context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		id := "reject_once"
		if p.ToolCall.Title != nil && strings.HasPrefix(*p.ToolCall.Title, "Trust ") {
			mu.Lock()
			trustAsked++
			if trustAsked == 1 {
				id = "allow_always" // the first content: trusted
			}
			mu.Unlock()
		}
		return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}
	}}
	r := newRig(t, setup{userConfig: buildByDefault, client: client,
		files: map[string]string{".agentls.yaml": "run: {allow: ['touch *']}\n"}, script: `
steps:
  - text: "OK."
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - text: "Done."
`})
	sid := r.newSession().SessionId
	r.mustPrompt(sid, "hello")
	// The file changes on disk: new content, not trusted yet.
	if err := os.WriteFile(filepath.Join(r.dir, ".agentls.yaml"), []byte("run: {allow: ['touch *']}\n# changed upstream\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.mustPrompt(sid, "make it")
	mu.Lock()
	asked := trustAsked
	mu.Unlock()
	if asked != 2 {
		t.Fatalf("trust asked %d times, want 2 (the first content, then the changed one)", asked)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "made")); err == nil {
		t.Errorf("`touch made` ran without asking under run.allow of the old content, after the user declined the changed .agentls.yaml")
	}
}
