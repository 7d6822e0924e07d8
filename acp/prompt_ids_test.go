package acp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp"
)

// TestPromptIDsAreForgotten: the wire keeps a prompt's id (to tell a
// withdrawn prompt from a superseded one) only while the prompt runs. It
// knows the id while the turn waits for a permission answer, and forgets
// it once the answer went out or the session closed: after prompts over
// several sessions the connection keeps nothing (it kept one entry per
// session, for ever). Not parallel: it sets a package hook.
func TestPromptIDsAreForgotten(t *testing.T) {
	const sessions, prompts = 3, 2
	var tracked func() int
	restore := acp.TrackPromptIDsForTest(func(f func() int) { tracked = f })
	defer restore()
	asked, release := make(chan struct{}), make(chan struct{})
	client := &testClient{permit: func(ctx context.Context, _ sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		close(asked)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}
	}}
	script := "steps:\n  - tool_calls: [{id: r1, name: run, args: {command: \"touch made\"}}]\n" +
		strings.Repeat("  - text: \"Done.\"\n", 1+sessions*prompts)
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: script})
	if tracked == nil {
		t.Fatal("the connection's wire was not reported")
	}

	first := r.newSession().SessionId
	done := r.promptAsync(first, "run it")
	select {
	case <-asked:
	case <-r.ctx.Done():
		t.Fatal("no permission request")
	}
	if n := tracked(); n != 1 {
		t.Errorf("while the prompt waits for an answer the wire keeps %d prompt ids, want 1 (a $/cancel_request must find it)", n)
	}
	close(release)
	if res := <-done; res.err != nil {
		t.Fatalf("first prompt: %v", res.err)
	}

	ids := []sdk.SessionId{first}
	for i := 1; i < sessions; i++ {
		ids = append(ids, r.newSession().SessionId)
	}
	for step, c := range []struct {
		name   string
		act    func(sid sdk.SessionId) error
		wantAt int
	}{
		{"prompts answered", func(sid sdk.SessionId) error {
			for i := range prompts {
				if _, err := r.prompt(sid, fmt.Sprintf("prompt %d", i)); err != nil {
					return err
				}
			}
			return nil
		}, 0},
		{"sessions closed", func(sid sdk.SessionId) error {
			_, err := r.conn.CloseSession(r.ctx, sdk.CloseSessionRequest{SessionId: sid})
			return err
		}, 0},
	} {
		for _, sid := range ids {
			if err := c.act(sid); err != nil {
				t.Fatalf("%d %s: %v", step, c.name, err)
			}
		}
		if n := tracked(); n != c.wantAt {
			t.Errorf("after %s over %d sessions the wire keeps %d prompt ids, want %d", c.name, sessions, n, c.wantAt)
		}
	}
}
