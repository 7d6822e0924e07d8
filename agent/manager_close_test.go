package agent

import (
	"context"
	"errors"
	"testing"

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
