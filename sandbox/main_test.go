package sandbox

import (
	"os"
	"testing"

	"github.com/agentls/agentls/internal/testcache"
)

// helperArg makes the test binary a small program the tests run inside
// the sandbox: `<test binary> sandbox-test-helper <op> [arg]`.
const helperArg = "sandbox-test-helper"

func TestMain(m *testing.M) {
	Main()
	if len(os.Args) > 2 && os.Args[1] == helperArg {
		os.Exit(helper(os.Args[2:]))
	}
	os.Exit(testcache.Run(m)) // the commands' caches go to a temporary folder
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
