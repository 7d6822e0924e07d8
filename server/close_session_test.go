package server_test

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestCloseSessionLetsAnotherServerLoadIt: two servers on one folder (two
// editor windows). The second cannot load the session the first drives;
// after agent/closeSession on the first it can, and the first cannot take
// it back. An unknown session is -32602.
func TestCloseSessionLetsAnotherServerLoadIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h1 := lsptest.Start(t, lsptest.Setup{Dir: dir})
	s := h1.NewSession("plan")
	h2 := lsptest.Start(t, lsptest.Setup{Dir: dir})
	load := map[string]any{"sessionId": s.SessionID}
	if err := h2.Editor.Call(h2.Ctx, "agent/loadSession", load, nil); err == nil || !strings.Contains(err.Error(), "open in another agentls process") {
		t.Fatalf("loading a session another server drives = %v", err)
	}
	h1.CloseSession(s.SessionID)
	if got := h2.LoadSession(s.SessionID); got.SessionID != s.SessionID || got.Mode != "plan" {
		t.Fatalf("after the close: %+v", got)
	}
	if err := h1.Editor.Call(h1.Ctx, "agent/loadSession", load, nil); err == nil {
		t.Error("the first server took back a session the second drives")
	}
	err := h1.Editor.Call(h1.Ctx, "agent/closeSession", map[string]any{"sessionId": "no-such-session"}, nil)
	if err == nil || !strings.Contains(err.Error(), "unknown session") {
		t.Errorf("closing an unknown session = %v", err)
	}
}
