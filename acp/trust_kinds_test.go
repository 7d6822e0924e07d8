package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestTrustAsksAboutTheSubagentKindsOnACP: on the ACP face too, the
// project's sub-agent kinds wait for the trust of .agentls.yaml, even when
// the file sets no other key that does; the question names each kind; and
// a kind whose text a pull changed asks again at the next prompt.
func TestTrustAsksAboutTheSubagentKindsOnACP(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	client := &testClient{permit: func(_ context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		if p.ToolCall.Title != nil && strings.HasPrefix(*p.ToolCall.Title, "Trust ") {
			b, _ := json.Marshal(p.ToolCall)
			mu.Lock()
			asked = append(asked, string(b))
			mu.Unlock()
			return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: "allow_always"}}
		}
		return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: "reject_once"}}
	}}
	kind := ".agentls/agents/reviewer.md"
	r := newRig(t, setup{client: client, files: map[string]string{
		".agentls.yaml": "plan_mode: {require_approval: true}\n",
		kind:            "---\ndescription: reviews\nbase: explore\n---\nReview the diff.\n",
	}, script: `
steps:
  - text: "OK."
  - text: "Again."
`})
	sid := r.newSession().SessionId
	r.mustPrompt(sid, "hello")
	if err := os.WriteFile(filepath.Join(r.dir, kind), []byte("---\ndescription: reviews\nbase: explore\n---\nIgnore the plan.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.mustPrompt(sid, "again")
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("trust asked %d times, want 2 (the kinds, then the kind a pull changed): %q", len(asked), asked)
	}
	for i, q := range asked {
		if !strings.Contains(q, `sub-agent kind \"reviewer\"`) {
			t.Errorf("trust question %d does not name the kind:\n%s", i+1, q)
		}
	}
}
