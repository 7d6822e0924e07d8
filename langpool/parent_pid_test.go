package langpool

import (
	"os"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestParentPID: a confined server is not told agentls's pid: in bwrap's
// PID namespace it names no process or another one, and under Landlock
// alone (ABI 6 on) a signal to it is refused; typescript-language-server,
// which checks its parent every three seconds, exited with status 1
// mid-request (TestTypeScriptDiagnostics failed one run in two under
// bwrap; TestRealServersUnderLandlockAlone under load, restarting the
// server every three seconds, with "landlock" here still agentls's pid).
func TestParentPID(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want any
	}{
		{"landlock+bwrap", nil},
		{"bwrap", nil},
		{"landlock", nil},
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
