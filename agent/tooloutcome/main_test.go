package tooloutcome

import (
	"os"
	"testing"

	"github.com/agentls/agentls/internal/testcache"
)

// TestMain: whatever the tests start keeps its caches in a temporary
// folder, never the user's ~/.cache/agentls.
func TestMain(m *testing.M) { os.Exit(testcache.Run(m)) }
