package mcpclient

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// conformanceScenarios are the client scenarios of the pinned
// @modelcontextprotocol/conformance@0.1.13 that agentls's MCP client runs.
var conformanceScenarios = []string{"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"}

// conformanceSkipped are the suite's other client scenarios (`conformance
// list`), each skipped with why (docs/mcp.md lists the same). The suite's
// server scenarios test MCP servers: agentls is none.
var conformanceSkipped = func() map[string]string {
	const noOAuth = "OAuth is not supported: HTTP servers take static headers only (docs/mcp.md)"
	out := map[string]string{}
	for _, name := range []string{
		"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3", "auth/basic-cimd",
		"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
		"auth/scope-step-up", "auth/scope-retry-limit", "auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post",
		"auth/token-endpoint-auth-none", "auth/resource-mismatch", "auth/pre-registration",
		"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
		"auth/client-credentials-jwt", "auth/client-credentials-basic",
	} {
		out[name] = noOAuth
	}
	return out
}()

// TestConformance runs the MCP conformance suite's client scenarios
// against conformanceclient (mcpclient/internal/conformanceclient: an HTTP
// server of mcpclient's pool, as agentls connects to one). Each scenario
// must print "OVERALL: PASSED"; each one not run is a skipped subtest
// saying why (go test -v lists them).
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
	client := filepath.Join(t.TempDir(), "conformanceclient")
	if out, err := exec.Command("go", "build", "-o", client, "./internal/conformanceclient").CombinedOutput(); err != nil {
		t.Fatalf("build the conformance client: %v\n%s", err, out)
	}
	// Every client scenario of the suite is run or skipped with a reason.
	listed, err := exec.Command("node", runner, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, listed)
	}
	_, clients, _ := strings.Cut(string(listed), "Client scenarios")
	for _, line := range strings.Split(clients, "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if ok && !slices.Contains(conformanceScenarios, name) && conformanceSkipped[name] == "" {
			t.Errorf("client scenario %s is neither run nor skipped with a reason", name)
		}
	}
	skipped := make([]string, 0, len(conformanceSkipped))
	for name := range conformanceSkipped {
		skipped = append(skipped, name)
	}
	sort.Strings(skipped)
	for _, name := range skipped {
		t.Run(name, func(t *testing.T) { t.Skipf("SKIPPED conformance scenario %s: %s", name, conformanceSkipped[name]) })
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
