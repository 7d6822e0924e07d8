package mcpclient

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// conformanceScenarios are the client scenarios of the pinned
// @modelcontextprotocol/conformance@0.1.13 that agentls's MCP client runs.
var conformanceScenarios = []string{"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"}

// conformanceSkipped are the suite's other client scenarios, each with why
// it is not run (docs/mcp.md lists the same). The suite's server scenarios
// test MCP servers: agentls is none.
var conformanceSkipped = map[string]string{
	"auth/*": "OAuth (the 19 auth/… scenarios: metadata discovery, CIMD, scopes, token endpoint, client credentials, pre-registration, back-compat) is not supported: HTTP servers take static headers only",
}

// TestConformance runs the MCP conformance suite's client scenarios
// against conformanceclient (mcpclient/internal/conformanceclient: an HTTP
// server of mcpclient's pool, as agentls connects to one). Each scenario
// must print "OVERALL: PASSED".
func TestConformance(t *testing.T) {
	runner, err := filepath.Abs(filepath.Join("testdata", "servers", "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, statErr := os.Stat(runner)
	if nodeErr != nil || statErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node (%v) or the conformance suite (%v) missing: run scripts/install-mcp", nodeErr, statErr)
		}
		t.Skipf("node (%v) or the conformance suite (%v) missing: run scripts/install-mcp", nodeErr, statErr)
	}
	for name, why := range conformanceSkipped {
		t.Logf("SKIPPED conformance scenario %s: %s", name, why)
	}
	client := filepath.Join(t.TempDir(), "conformanceclient")
	if out, err := exec.Command("go", "build", "-o", client, "./internal/conformanceclient").CombinedOutput(); err != nil {
		t.Fatalf("build the conformance client: %v\n%s", err, out)
	}
	for _, sc := range conformanceScenarios {
		t.Run(sc, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", runner, "client", "--command", client, "--scenario", sc)
			cmd.Dir = t.TempDir() // the suite writes its results/ there
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "OVERALL: PASSED") {
				t.Fatalf("scenario %s: %v\n%s", sc, err, out)
			}
		})
	}
}
