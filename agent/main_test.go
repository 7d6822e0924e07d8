package agent

import (
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/agentls/agentls/internal/testcache"
	"github.com/agentls/agentls/sandbox"
)

// TestMain keeps the agent's logs out of the test output unless
// AGENTLS_TEST_LOG is set.
func TestMain(m *testing.M) {
	sandbox.Main() // the test binary is the sandbox's launcher (docs/contributing.md)
	if os.Getenv("AGENTLS_TEST_LOG") == "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(testcache.Run(m)) // the commands' caches go to a temporary folder
}
