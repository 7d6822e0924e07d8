package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
)

// pyServer is a minimal MCP stdio server in Python, for answers the
// hostile server cannot give (a JSON-RPC error of its choosing): it
// answers initialize, tools/list with TOOLS (a JSON list), and each
// tools/call with CALL (a JSON object: {"error": {...}} or {"result": {...}}).
// A tool named "LONG:<n>" is offered as n letters n; an error message
// "HUGE" is sent as 512 KiB (17 times run.max_output_bytes; small enough
// to cross the pipe well within exitGrace on a loaded machine, where 5 MB
// took 2.5 s). CALL {"elicit": n} sends n form elicitations
// at once and answers the call once all are answered.
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
    if "method" not in m and str(m.get("id", "")).startswith("e"):
        waiting -= 1
        if waiting == 0:
            send({"jsonrpc": "2.0", "id": pending, "result": {"content": [{"type": "text", "text": "all answered"}]}})
        continue
    if "id" not in m or "method" not in m:
        continue
    meth, i = m["method"], m["id"]
    if meth == "initialize":
        send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": m["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "py", "version": "1"}}})
    elif meth == "tools/list":
        send({"jsonrpc": "2.0", "id": i, "result": {"tools": tools}})
    elif meth == "tools/call" and "elicit" in call:
        # call["elicit"] form elicitations at once, then the answer once
        # every one of them was answered.
        pending, waiting = i, call["elicit"]
        for k in range(waiting):
            send({"jsonrpc": "2.0", "id": "e%d" % k, "method": "elicitation/create", "params": {
                  "message": "Question %d?" % k, "requestedSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}})
    elif meth == "tools/call":
        o = {"jsonrpc": "2.0", "id": i}
        o.update(call)
        if "error" in o and o["error"].get("message") == "HUGE":
            o["error"]["message"] = "E" * (512 << 10)
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
// error of 512 KiB (its message is the server's to choose) reaches the model
// cut to run.max_output_bytes, as a large result is (docs/mcp.md: "A
// call's result is … cut to run.max_output_bytes"): the history, every
// later request and every face's tool_call_update carry the cut text.
func TestCallErrorIsCapped(t *testing.T) {
	cfg := config.Default()
	cfg.MCP.ReadOnly = []string{"py/boom"}
	p := pyPool(t, cfg, []map[string]any{{"name": "boom", "inputSchema": map[string]any{"type": "object"}}},
		map[string]any{"error": map[string]any{"code": -32000, "message": "HUGE"}})
	ts := p.SessionTools(context.Background(), "s")
	boom := toolByName(t, ts, "mcp__py__boom")
	start := time.Now()
	res, err := boom.Run(context.Background(), plainEnv{}, json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// The server answered: no wait for it to exit (exitGrace is for a
	// connection that broke).
	if took := time.Since(start); took >= exitGrace {
		t.Errorf("the error answer took %v: it waited for the server to exit", took)
	}
	limit := config.Default().Run.MaxOutputBytes + 1000
	if res.Success || len(res.JSON()) > limit {
		t.Fatalf("the error result is %d bytes (success %v), want at most %d (run.max_output_bytes and a note)", len(res.JSON()), res.Success, limit)
	}
}

// TestLongToolNameKeepsTheDefinitionSmall: a server names a tool with
// 200 000 characters. The tool is offered, its model-facing name cut to 64
// and its description to 1 KiB (docs/mcp.md, "The tools"), and the
// description's prefix shows the server's own name cut to 128 characters
// (as do the call's title and permission question): the definition every
// model request carries stays within the limits the docs give.
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
	if title := ts[0].Title(nil); len(title) > 4*maxShownName+100 {
		t.Errorf("the call's title is %d bytes, want the tool's name cut", len(title))
	}
	if names := p.Status()[0].ToolNames; len(names) != 1 || len(names[0]) > 4*maxShownName+100 {
		t.Errorf("the status names the tool %d bytes long, want it cut", len(strings.Join(names, "")))
	}
}

// TestShownNameCutsLongNames: a server's own tool name is shown whole up
// to 128 characters; a longer one is cut at a character, with its length
// and a hash that keeps two long names apart.
func TestShownNameCutsLongNames(t *testing.T) {
	short := strings.Repeat("é", maxShownName)
	if got := shownName(short); got != short {
		t.Errorf("a name of %d characters is shown as %q, want it whole", maxShownName, got)
	}
	a, b := shownName(short+"a"), shownName(short+"b")
	if !strings.HasPrefix(a, short+"…[129 characters, sha256 ") || !utf8.ValidString(a) {
		t.Errorf("a long name is shown as %q", a)
	}
	if a == b {
		t.Errorf("two long names are both shown as %q", a)
	}
}

// TestElicitationFloodAsksOneAtATime: during one call a server sends 20
// elicitation/create requests at once. The client handles a server's
// requests concurrently (go-sdk's ClientSession.handle), but a server's
// questions are put to the user one at a time: the next waits until the
// one before is answered (or the call ends), so no flood of agent/askUser
// forms or window/showMessageRequest pop-ups opens at once.
func TestElicitationFloodAsksOneAtATime(t *testing.T) {
	cfg := config.Default()
	cfg.MCP.ReadOnly = []string{"py/ask"}
	p := pyPool(t, cfg, []map[string]any{{"name": "ask", "inputSchema": map[string]any{"type": "object"}}},
		map[string]any{"elicit": 20})
	if n := len(p.SessionTools(context.Background(), "s")); n != 1 {
		t.Fatalf("%d tools; status %+v", n, p.Status())
	}
	s := p.servers("s")[0]
	var open, most, total atomic.Int32
	var mu sync.Mutex
	release := make(chan struct{})
	var released sync.Once
	hooks := &CallHooks{Scope: "s", Elicit: func(ctx context.Context, e tools.MCPElicitation) (tools.MCPElicitReply, error) {
		total.Add(1)
		n := open.Add(1)
		defer open.Add(-1)
		mu.Lock()
		if n > most.Load() {
			most.Store(n)
		}
		mu.Unlock()
		if n > 1 {
			released.Do(func() { close(release) }) // a second question is open beside the first: enough seen
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return tools.MCPElicitReply{Action: "decline"}, nil
	}}
	// Questions put one at a time: the first stays open until the call's
	// timeout ends it (no second one opens meanwhile), and the test passes.
	res, err := s.CallWith(context.Background(), "ask", map[string]any{}, 3*time.Second, 30000, hooks)
	t.Logf("call: %+v %v; questions asked %d", res, err, total.Load())
	if most.Load() > 1 {
		t.Errorf("%d of the server's questions were open at once, want one at a time", most.Load())
	}
}
