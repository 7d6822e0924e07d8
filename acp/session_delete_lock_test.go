package acp_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentls/agentls/acp"
	"github.com/agentls/agentls/acp/internal/acptest"
)

// TestSessionDeleteReleasesItsPlanLock: deleting a session that builds an
// approved plan removes its entry from the state folder's plan locks.
func TestSessionDeleteReleasesItsPlanLock(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	script := filepath.Join(root, "script.yaml")
	writeFiles(t, root, map[string]string{
		"ws/a.txt": "x\n",
		"script.yaml": "steps:\n  - tool_calls: [{id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: \"# T\\n\\n## Steps\\n- [ ] one\\n\"}}]\n" +
			"  - tool_calls: [{id: x1, name: exit_plan_mode, args: {plan_file_path: plans/t.plan}}]\n  - text: Building.\n",
		"agentls.yaml": "model: {provider: scripted, script: " + script + "}\n",
	})
	env := map[string]string{"HOME": root, "XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "XDG_STATE_HOME": filepath.Join(root, "state")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, in := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		acp.Serve(ctx, inR, outW, acp.Options{ConfigFile: filepath.Join(root, "agentls.yaml"), Getenv: func(k string) string { return env[k] }})
		_ = outW.Close()
	}()
	defer func() { _ = in.Close(); <-done }()
	out := lines(outR)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	nextID(t, out, 1)
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", dir)
	res, _ := nextID(t, out, 2)["result"].(map[string]any)
	sid := res["sessionId"]
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"plan and build"}]}}`+"\n", sid)
	for {
		m := next(t, out)
		if m["id"] == float64(3) {
			break
		}
		if m["method"] == "session/request_permission" { // accept: the allow_once option
			time.Sleep(acptest.PersonReads) // as a person does, after reading the plan
			p, _ := m["params"].(map[string]any)
			opts, _ := p["options"].([]any)
			for _, o := range opts {
				if o, _ := o.(map[string]any); o["kind"] == "allow_once" {
					fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%v,"result":{"outcome":{"outcome":"selected","optionId":%q}}}`+"\n", m["id"], o["optionId"])
				}
			}
		}
	}
	locks := func() []string {
		names, _ := filepath.Glob(filepath.Join(root, "state", "agentls", "planlocks", "*.json"))
		return names
	}
	if len(locks()) != 1 {
		entries, _ := os.ReadDir(filepath.Join(root, "state"))
		t.Fatalf("plan locks %v after the approval, want one (state: %v)", locks(), entries)
	}
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":4,"method":"session/delete","params":{"sessionId":%q}}`+"\n", sid)
	if m := nextID(t, out, 4); m["error"] != nil {
		t.Fatalf("session/delete: %v", m)
	}
	if l := locks(); len(l) != 0 {
		t.Errorf("plan locks %v after the session was deleted", l)
	}
}
