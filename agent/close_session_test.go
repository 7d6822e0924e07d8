package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestCloseSessionReleasesItsLock: two managers on one workspace stand for
// two processes. The second cannot load the session the first drives until
// the first closes it (CloseSession, without closing the manager); then the
// second drives it and the first cannot take it back.
func TestCloseSessionReleasesItsLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, _ := newTestManager(t, "name: none\nsteps:\n  - text: x\n", &memEditor{}, nil)
	s := newTestSession(t, m, "plan")
	m2, err := NewManager(Options{Workspace: m.ws, Config: m.config(), Provider: m.Provider(), Editor: &memEditor{ws: m.ws}})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if _, _, err := m2.LoadSession(ctx, s.ID()); err == nil || !strings.Contains(err.Error(), "open in another agentls process") {
		t.Fatalf("second manager loading a driven session = %v", err)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatalf("close: %v", err)
	}
	if m.store.Owns(s.ID()) {
		t.Error("the first manager still holds the lock")
	}
	if _, _, err := m2.LoadSession(ctx, s.ID()); err != nil {
		t.Fatalf("second manager after the close: %v", err)
	}
	if _, _, err := m.LoadSession(ctx, s.ID()); err == nil {
		t.Error("the first manager took back a session the second drives")
	}
	// Closing it again where it is not open does nothing; an unknown one is an error.
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Errorf("closing a session not open here = %v", err)
	}
	var inv *InvalidParamsError
	if err := m.CloseSession(ctx, "no-such-session"); !errors.As(err, &inv) || !errors.Is(err, ErrUnknownSession) {
		t.Errorf("closing an unknown session = %v", err)
	}
}
