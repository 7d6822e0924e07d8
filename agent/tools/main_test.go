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
	os.Exit(testcache.Run(m)) // the commands' caches go to a temporary folder
}
