package acp_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/acp"
)

// TestPlanUpdateForClientsThatDeclarePlan: a client declaring
// clientCapabilities.plan gets the attached .plan whole as plan_update
// (Markdown, with its absolute path); one that does not gets the legacy
// plan checklist.
func TestPlanUpdateForClientsThatDeclarePlan(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, caps, want string
	}{
		{"declares plan", `{"plan":{}}`, "plan_update"},
		{"does not", `{}`, "plan"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "ws")
			script := filepath.Join(root, "script.yaml")
			writeFiles(t, root, map[string]string{
				"ws/a.txt":     "x\n",
				"script.yaml":  "steps:\n  - tool_calls: [{id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: \"# T\\n\\n## Steps\\n- [ ] one\\n\"}}]\n  - text: Planned.\n",
				"agentls.yaml": "model: {provider: scripted, script: " + script + "}\n",
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			inR, in := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan struct{})
			go func() {
				defer close(done)
				acp.Serve(ctx, inR, outW, acp.Options{ConfigFile: filepath.Join(root, "agentls.yaml"),
					Getenv: func(k string) string {
						return map[string]string{"HOME": root, "XDG_CONFIG_HOME": filepath.Join(root, "xdg")}[k]
					}})
				_ = outW.Close()
			}()
			defer func() { _ = in.Close(); <-done }()
			out := lines(outR)
			fmt.Fprintf(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":%s}}`+"\n", c.caps)
			nextID(t, out, 1)
			fmt.Fprintf(in, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", dir)
			res, _ := nextID(t, out, 2)["result"].(map[string]any)
			fmt.Fprintf(in, `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"plan"}]}}`+"\n", res["sessionId"])
			var kinds []string
			var plan map[string]any
			for {
				m := next(t, out)
				if m["id"] == float64(3) {
					break
				}
				p, _ := m["params"].(map[string]any)
				u, _ := p["update"].(map[string]any)
				k, _ := u["sessionUpdate"].(string)
				if k == "plan" || k == "plan_update" {
					kinds = append(kinds, k)
					if k == "plan_update" {
						plan, _ = u["plan"].(map[string]any)
					}
				}
			}
			if len(kinds) == 0 {
				t.Fatal("no plan update")
			}
			for _, k := range kinds {
				if k != c.want {
					t.Fatalf("plan updates %v, want only %s", kinds, c.want)
				}
			}
			if c.want == "plan_update" {
				wantPath := filepath.Join(dir, "plans", "t.plan")
				if real, err := filepath.EvalSymlinks(wantPath); err == nil {
					wantPath = real
				}
				content, _ := plan["content"].(string)
				if plan["type"] != "markdown" || plan["planId"] != "plans/t.plan" || plan["path"] != wantPath || !strings.Contains(content, "- [ ] one") {
					t.Errorf("plan_update %v", plan)
				}
				if b, _ := os.ReadFile(wantPath); string(b) != content {
					t.Errorf("content is not the file's text: %q vs %q", content, b)
				}
			}
		})
	}
}
