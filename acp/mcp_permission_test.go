package acp_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/sandbox"
)

// buildHostile builds the hostile MCP server (mcpclient/testdata/hostile).
func buildHostile(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hostile")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcpclient/testdata/hostile").CombinedOutput(); err != nil {
		t.Fatalf("build the hostile server: %v\n%s", err, out)
	}
	return bin
}

// rejectedMCPWrite runs a turn, as the client clientName ("" for the rig's
// default), in which the model calls the hostile MCP server's mutating
// write_note (as server evil); the client rejects it and the turn must end
// end_turn. It returns the client and the one permission request it got.
func rejectedMCPWrite(t *testing.T, clientName string) (*testClient, sdk.RequestPermissionRequest) {
	t.Helper()
	bin := buildHostile(t)
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{clientName: clientName, userConfig: buildByDefault + fmt.Sprintf("mcp: {servers: {evil: {command: %q}}}\n", bin), client: client, script: `
steps:
  - tool_calls: [{id: w, name: mcp__evil__write_note, args: {path: note.txt, content: hi}}]
  - expect: {tool_result_contains: {w: ["the user rejected"]}}
    text: "Done."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "go"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	perms := client.permissionsSeen()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests, want 1", len(perms))
	}
	return client, perms[0]
}

// TestMCPCallRequestShowsNetworkAndSandbox: session/request_permission for
// a mutating MCP call shows the server's network and sandbox, like the run
// request (Guard III: every question shows what it grants).
func TestMCPCallRequestShowsNetworkAndSandbox(t *testing.T) {
	_, perm := rejectedMCPWrite(t, "")
	text := permissionText(perm)
	network, sandboxState := agent.MCPPlace(sandbox.Detect().Status(sandbox.Mode("auto")), false, true)
	for _, want := range []string{"Allow the MCP call `write_note ", "Network: " + network + "\nSandbox: " + sandboxState, "MCP server `evil`"} {
		if !strings.Contains(text, want) {
			t.Errorf("MCP call request lacks %q:\n%s", want, text)
		}
	}
}
