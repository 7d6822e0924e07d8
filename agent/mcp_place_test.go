package agent

import (
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestMCPPlace: what an MCP call's question says of the server's network
// and sandbox, for each sandbox and origin.
func TestMCPPlace(t *testing.T) {
	bwrap := sandbox.Status{Mode: "landlock+bwrap", Network: true}
	landlock := sandbox.Status{Mode: "landlock", Network: true} // the socket filter keeps the network off
	none := sandbox.Status{Mode: "none"}
	off := sandbox.Status{Mode: "off"}
	tests := []struct {
		name            string
		st              sandbox.Status
		remote, network bool
		wantNet, wantSb string
	}{
		{"http server", bwrap, true, true, "yes", "off (a remote HTTP server)"},
		{"http server, no sandbox", none, true, false, "yes", "off (a remote HTTP server)"},
		{"configured stdio server", bwrap, false, true, "yes", "on (landlock+bwrap)"},
		{"untrusted workspace server", bwrap, false, false, "no", "on (landlock+bwrap)"},
		{"landlock alone: the socket filter cuts the network", landlock, false, false, "no", "on (landlock)"},
		{"landlock alone, a server given the network", landlock, false, true, "yes", "on (landlock)"},
		{"no layer", none, false, false, "not isolated", "off"},
		{"sandbox.mode off", off, false, true, "not isolated", "off"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, s := MCPPlace(tc.st, tc.remote, tc.network)
			if n != tc.wantNet || s != tc.wantSb {
				t.Errorf("MCPPlace = %q, %q; want %q, %q", n, s, tc.wantNet, tc.wantSb)
			}
		})
	}
}
