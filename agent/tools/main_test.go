package tools

import (
	"os"
	"testing"

	"github.com/agentls/agentls/internal/testcache"
	"github.com/agentls/agentls/sandbox"
)

// TestMain: the test binary is the sandbox's launcher for the commands
// the run tests start (docs/contributing.md).
func TestMain(m *testing.M) {
	sandbox.Main()
	cleanup := testcache.Private() // the commands' caches go to a temporary folder
	code := m.Run()
	cleanup()
	os.Exit(code)
}
