package langpool

import (
	"os"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestParentPID: a server in bwrap's PID namespace is not told agentls's
// pid (there it names no process or another one, and
// typescript-language-server, which checks its parent every few seconds,
// exited with status 1 mid-request: TestTypeScriptDiagnostics failed one
// run in two).
func TestParentPID(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want any
	}{
		{"landlock+bwrap", nil},
		{"bwrap", nil},
		{"landlock", os.Getpid()},
		{"none", os.Getpid()},
		{"off", os.Getpid()},
	} {
		c := &client{prep: &sandbox.Prepared{Status: sandbox.Status{Mode: tc.mode}}}
		if got := c.parentPID(); got != tc.want {
			t.Errorf("%s: processId %v, want %v", tc.mode, got, tc.want)
		}
	}
	if got := (&client{}).parentPID(); got != os.Getpid() {
		t.Errorf("no sandbox: processId %v, want %d", got, os.Getpid())
	}
}
