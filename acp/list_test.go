package acp_test

import (
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
	"github.com/agentls/agentls/internal/setuptest"
)

// TestListSessionsListsEachSessionOnce: a session/new with
// additionalDirectories opens a second workspace on the same cwd folder
// (docs/acp.md: "A cwd with a different set of additional folders is a
// workspace of its own"), whose sessions live in the same
// <cwd>/.agentls/chats. session/list without cwd lists "every workspace
// this process serves": each served workspace lists that one folder
// again, so every session of the project is listed twice (a client's
// history shows duplicates, one of which cannot be loaded).
func TestListSessionsListsEachSessionOnce(t *testing.T) {
	t.Parallel()
	lib := filepath.Join(t.TempDir(), "lib")
	setuptest.WriteFiles(t, lib, map[string]string{"util.txt": "shared helper\n"})
	env := acptest.Start(t, acptest.Setup{})
	plain := env.NewSession()
	res, err := env.Conn.NewSession(env.Ctx, sdk.NewSessionRequest{Cwd: env.Dir, McpServers: []sdk.McpServer{}, AdditionalDirectories: []string{lib}})
	if err != nil {
		t.Fatalf("session/new with additionalDirectories: %v", err)
	}
	for name, req := range map[string]sdk.ListSessionsRequest{"without cwd": {}, "with cwd": {Cwd: &env.Dir}} {
		list, err := env.Conn.ListSessions(env.Ctx, req)
		if err != nil {
			t.Fatalf("session/list %s: %v", name, err)
		}
		seen := map[sdk.SessionId]int{}
		for _, s := range list.Sessions {
			seen[s.SessionId]++
		}
		for _, sid := range []sdk.SessionId{plain, res.SessionId} {
			if seen[sid] != 1 {
				t.Errorf("session/list %s lists session %s %d times, want once (%d sessions listed)", name, sid, seen[sid], len(list.Sessions))
			}
		}
	}
}
