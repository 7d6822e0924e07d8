package acp_test

import (
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
	"github.com/agentls/agentls/internal/setuptest"
)

// TestLoadSessionKeepsItsAdditionalDirectories: agentls advertises
// sessionCapabilities.additionalDirectories, and session/new's
// additionalDirectories make the session's workspace (a cwd with other
// additional folders is a workspace of its own). session/load carries the
// same field (the complete additional-root list of the loaded session),
// but agentls ignores it and loads the session into the workspace of cwd
// alone: a session reloaded as the client made it (after session/close,
// or while still open on this connection) either cannot reach its
// additional folder any more or is refused as "held by another editor
// window" by agentls's own other workspace of the same folder.
func TestLoadSessionKeepsItsAdditionalDirectories(t *testing.T) {
	t.Parallel()
	for _, closeFirst := range []bool{true, false} {
		name := "open on this connection"
		if closeFirst {
			name = "after session/close"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			lib := filepath.Join(t.TempDir(), "lib")
			setuptest.WriteFiles(t, lib, map[string]string{"util.txt": "shared helper\n"})
			env := acptest.Start(t, acptest.Setup{Script: `
steps:
  - tool_calls: [{id: r1, name: read, args: {path: "` + filepath.ToSlash(filepath.Join(lib, "util.txt")) + `"}}]
  - text: "Read."
`})
			res, err := env.Conn.NewSession(env.Ctx, sdk.NewSessionRequest{Cwd: env.Dir, McpServers: []sdk.McpServer{}, AdditionalDirectories: []string{lib}})
			if err != nil {
				t.Fatalf("session/new: %v", err)
			}
			sid := res.SessionId
			if closeFirst {
				if _, err := env.Conn.CloseSession(env.Ctx, sdk.CloseSessionRequest{SessionId: sid}); err != nil {
					t.Fatalf("session/close: %v", err)
				}
			}
			if _, err := env.Conn.LoadSession(env.Ctx, sdk.LoadSessionRequest{SessionId: sid, Cwd: env.Dir, McpServers: []sdk.McpServer{}, AdditionalDirectories: []string{lib}}); err != nil {
				t.Fatalf("session/load with the session's own cwd and additionalDirectories: %v", err)
			}
			env.PromptAsync(sid, "read the helper")
			env.Await(acptest.OnceMet(acptest.TurnEnded(sid), acptest.ToolCallStatus("r1", sdk.ToolCallStatusCompleted)))
		})
	}
}
