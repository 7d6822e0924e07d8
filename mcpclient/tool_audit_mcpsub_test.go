package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/config"
)

// pyServer is a minimal MCP stdio server in Python, for answers the
// hostile server cannot give (a JSON-RPC error of its choosing): it
// answers initialize, tools/list with TOOLS (a JSON list), and each
// tools/call with CALL (a JSON object: {"error": {...}} or {"result": {...}}).
// A tool named "LONG:<n>" is offered as n letters n; an error message
// "HUGE" is sent as 5 MB.
const pyServer = `
import sys, json, os
tools = json.loads(os.environ["PY_TOOLS"])
call = json.loads(os.environ["PY_CALL"])
for t in tools:
    if t["name"].startswith("LONG:"):
        t["name"] = "n" * int(t["name"][5:])
def send(o):
    sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m or "method" not in m:
        continue
    meth, i = m["method"], m["id"]
    if meth == "initialize":
        send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": m["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "py", "version": "1"}}})
    elif meth == "tools/list":
        send({"jsonrpc": "2.0", "id": i, "result": {"tools": tools}})
    elif meth == "tools/call":
        o = {"jsonrpc": "2.0", "id": i}
        o.update(call)
        if "error" in o and o["error"].get("message") == "HUGE":
            o["error"]["message"] = "E" * (5 << 20)
        send(o)
    else:
        send({"jsonrpc": "2.0", "id": i, "result": {}})
`

// pyPool is a pool with the Python server as "py", offering tools and
// answering each call with call.
func pyPool(t *testing.T, cfg config.Config, tools []map[string]any, call map[string]any) *Pool {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	root := t.TempDir()
	script := filepath.Join(t.TempDir(), "server.py")
	if err := os.WriteFile(script, []byte(pyServer), 0o644); err != nil {
		t.Fatal(err)
	}
	tj, _ := json.Marshal(tools)
	cj, _ := json.Marshal(call)
	p := NewPool(root, []string{root}, os.Environ)
	p.Configure(cfg, []ServerSpec{{Name: "py", Command: "/usr/bin/python3", Args: []string{script},
		Env: map[string]string{"PY_TOOLS": string(tj), "PY_CALL": string(cj)}, Origin: FromConfig}})
	t.Cleanup(p.Close)
	return p
}

// TestCallErrorIsCapped: a server that answers a call with a JSON-RPC
// error of 5 MB (its message is the server's to choose) reaches the model
// capped at run.max_output_bytes, as a result of 5 MB is (docs/mcp.md: "A
// call's result is … cut to run.max_output_bytes"). The error's message
// goes into the tool result whole: 5 MB into the history, resent with every
// later request, and onto every face's tool_call_update.
func TestCallErrorIsCapped(t *testing.T) {
	cfg := config.Default()
	cfg.MCP.ReadOnly = []string{"py/boom"}
	p := pyPool(t, cfg, []map[string]any{{"name": "boom", "inputSchema": map[string]any{"type": "object"}}},
		map[string]any{"error": map[string]any{"code": -32000, "message": "HUGE"}})
	ts := p.SessionTools(context.Background(), "s")
	boom := toolByName(t, ts, "mcp__py__boom")
	res, err := boom.Run(context.Background(), plainEnv{}, json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	limit := config.Default().Run.MaxOutputBytes + 1000
	if res.Success || len(res.JSON()) > limit {
		t.Fatalf("the error result is %d bytes (success %v), want at most %d (run.max_output_bytes and a note)", len(res.JSON()), res.Success, limit)
	}
}

// TestLongToolNameKeepsTheDefinitionSmall: a server names a tool with
// 200 000 characters. The model-facing name is cut to 64 and the
// description to 1 KiB (docs/mcp.md, "The tools"), but the description's
// prefix repeats the server's own name of the tool whole, so every model
// request carries 200 KB the user never chose (and the call's title and
// permission question carry it too). The definition the model is sent
// must stay within the limits the docs give.
func TestLongToolNameKeepsTheDefinitionSmall(t *testing.T) {
	p := pyPool(t, config.Default(), []map[string]any{{"name": "LONG:200000", "inputSchema": map[string]any{"type": "object"}}},
		map[string]any{"result": map[string]any{"content": []any{}}})
	ts := p.SessionTools(context.Background(), "s")
	if len(ts) != 1 {
		t.Fatalf("%d tools, want the long-named one; status %+v", len(ts), p.Status())
	}
	spec := ts[0].Spec()
	if n := len(spec.Name) + len(spec.Description) + len(spec.Parameters); n > maxToolName+2*maxDescription+16<<10 {
		t.Errorf("the tool's definition is %d bytes (name %d, description %d), want within the name, description and schema limits", n, len(spec.Name), len(spec.Description))
	}
}
