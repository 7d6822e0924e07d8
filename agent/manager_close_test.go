package agent

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/agentls/agentls/sessionstore"
)

// TestClosedManagerTakesNoLock: a request still under way when the server
// shut down (Manager.Close gave the locks up) must fail, not take a
// session's lock again: that lock would outlive the server, and the next
// agentls (the editor window reloaded) would find the session "open in
// another agentls process". A second manager stands for that process.
func TestClosedManagerTakesNoLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		late func(m *Manager, id string) error
	}{
		{"loadSession", func(m *Manager, id string) error { _, _, err := m.LoadSession(ctx, id); return err }},
		{"prompt", func(m *Manager, id string) error {
			_, err := m.Prompt(ctx, PromptRequest{SessionID: id, Text: "hi"})
			return err
		}},
		{"setMode", func(m *Manager, id string) error { _, err := m.SetMode(ctx, id, "plan"); return err }},
		{"newSession", func(m *Manager, _ string) error { _, err := m.NewSession(ctx, "plan", ""); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			first, _ := newTestManager(t, "name: none\nsteps:\n  - text: x\n", &memEditor{}, nil)
			id := newTestSession(t, first, "plan").ID()
			first.Close()
			// The manager of the server that shut down, not yet aware of the
			// session (a request naming a session it never loaded).
			m, err := NewManager(Options{Workspace: first.ws, Config: first.config(), Provider: first.Provider(), Editor: &memEditor{ws: first.ws}})
			if err != nil {
				t.Fatal(err)
			}
			m.Close()
			if err := tc.late(m, id); !errors.Is(err, sessionstore.ErrReleased) {
				t.Errorf("%s after Close = %v, want ErrReleased", tc.name, err)
			}
			if sessions, _ := m.store.List(); len(sessions) != 1 {
				t.Errorf("%d sessions on disk after a late %s, want 1", len(sessions), tc.name)
			}
			next, err := NewManager(Options{Workspace: first.ws, Config: first.config(), Provider: first.Provider(), Editor: &memEditor{ws: first.ws}})
			if err != nil {
				t.Fatal(err)
			}
			defer next.Close()
			if _, _, err := next.LoadSession(ctx, id); err != nil {
				t.Fatalf("the next agentls cannot load the session after a late %s: %v", tc.name, err)
			}
		})
	}
}

// TestCloseWaitsForTheTurns: a turn that is still winding down when the
// server shuts down (its request's handler has not returned: a tool that
// takes a while to notice the cancel) must end before Close gives the
// session's lock up; otherwise it writes to a session another process may
// already drive. The turn here is held in ask_user past its cancel, until
// the test lets it go; synctest.Wait tells when Close is blocked.
func TestCloseWaitsForTheTurns(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		asked, letGo := make(chan struct{}), make(chan struct{})
		ed := &memEditor{ask: func(ctx context.Context, _ AskRequest) (AskReply, error) {
			close(asked)
			<-ctx.Done() // Close cancels the turn...
			<-letGo      // ...which takes its time to wind down
			return AskReply{}, ctx.Err()
		}}
		m, _ := newTestManager(t, `
name: slow
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: branch, question: "Branch?", schema: {type: string}}]}}
  - text: never
`, ed, nil)
		id := newTestSession(t, m, "plan").ID()
		prompted := make(chan error, 1)
		go func() {
			_, err := m.Prompt(context.Background(), PromptRequest{SessionID: id, Text: "ask"})
			prompted <- err
		}()
		<-asked
		closed := make(chan struct{})
		go func() {
			m.Close()
			close(closed)
		}()
		synctest.Wait()
		select {
		case <-closed:
			t.Error("Close returned while a turn was still running")
		default:
			if !m.store.Owns(id) {
				t.Error("Close gave the lock up while a turn was still running")
			}
		}
		close(letGo)
		<-closed
		if err := <-prompted; err != nil {
			t.Errorf("prompt: %v", err)
		}
		if m.store.Owns(id) {
			t.Error("the lock outlived Close")
		}
		// A turn asked for after Close does not start.
		if _, err := m.Prompt(context.Background(), PromptRequest{SessionID: id, Text: "again"}); !errors.Is(err, sessionstore.ErrReleased) {
			t.Errorf("prompt after Close = %v, want ErrReleased", err)
		}
	})
}
