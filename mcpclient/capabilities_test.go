package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestClientCapabilities: what agentls's MCP client tells a server in
// initialize (issue 18: "Advertise roots; no sampling"; form and URL
// elicitation, which go through agentls's question surfaces), as a server sees it
// (testdata/mcp/tiny-server.mjs writes the initialize params it got).
func TestClientCapabilities(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing")
		}
		t.Skip("node is missing")
	}
	tiny, err := filepath.Abs("../testdata/mcp/tiny-server.mjs")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	initLog := filepath.Join(t.TempDir(), "init.json")
	cfg := config.Default()
	cfg.Sandbox.AllowWrite = []string{filepath.Dir(initLog)}
	p := NewPool(root, []string{root}, nil)
	p.Configure(cfg, []ServerSpec{{Name: "tiny", Command: "node", Args: []string{tiny}, Env: map[string]string{"TINY_INIT_LOG": initLog}, Network: true, Origin: FromConfig}})
	t.Cleanup(p.Close)
	if n := len(p.SessionTools(context.Background(), "s")); n != 2 {
		t.Fatalf("tools = %d; %+v", n, p.Status())
	}
	raw, err := os.ReadFile(initLog)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		ClientInfo   struct {
			Name string `json:"name"`
		} `json:"clientInfo"`
	}
	t.Logf("initialize params: %s", raw)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	var names []string
	for k := range got.Capabilities {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, want := range []string{"elicitation", "roots"} {
		if !slices.Contains(names, want) {
			t.Errorf("capabilities %v lack %s: %s", names, want, raw)
		}
	}
	var elicit map[string]json.RawMessage
	_ = json.Unmarshal(got.Capabilities["elicitation"], &elicit)
	if _, form := elicit["form"]; !form {
		t.Errorf("elicitation without form: %s", raw)
	}
	if _, url := elicit["url"]; !url {
		t.Errorf("elicitation without url: %s", raw)
	}
	if slices.Contains(names, "sampling") {
		t.Errorf("capabilities %v offer sampling: %s", names, raw)
	}
	if got.ClientInfo.Name == "" {
		t.Errorf("no clientInfo.name: %s", raw)
	}
}
