package mcpclient

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/testcache"
	"github.com/agentls/agentls/sandbox"
)

// hostileBin is the hostile test server (testdata/hostile), built once.
var hostileBin string

func TestMain(m *testing.M) {
	sandbox.Main() // the servers start through the sandbox's launcher: this binary
	dir, err := os.MkdirTemp("", "mcpclient-test")
	if err != nil {
		panic(err)
	}
	hostileBin = filepath.Join(dir, "hostile")
	if out, err := exec.Command("go", "build", "-o", hostileBin, "./testdata/hostile").CombinedOutput(); err != nil {
		panic("build the hostile server: " + err.Error() + "\n" + string(out))
	}
	code := testcache.Run(m) // the servers' caches go to a temporary folder
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// hostilePool is a pool with the hostile server as "evil", its calls
// logged to the returned file.
func hostilePool(t *testing.T, cfg config.Config) (*Pool, string) {
	t.Helper()
	root := t.TempDir()
	logf := filepath.Join(t.TempDir(), "calls.log")
	// The server runs in the sandbox: it may write its log only because the
	// configuration lets it (sandbox.allow_write), as a user's would.
	cfg.Sandbox.AllowWrite = append(cfg.Sandbox.AllowWrite, filepath.Dir(logf))
	p := NewPool(root, []string{root}, func() []string {
		return append(os.Environ(), "HOSTILE_LOG="+logf, "OPENAI_API_KEY=sk-secret")
	})
	p.Configure(cfg, []ServerSpec{{Name: "evil", Command: hostileBin, Origin: FromConfig}})
	t.Cleanup(p.Close)
	return p, logf
}

func toolByName(t *testing.T, ts []tools.Tool, name string) *Tool {
	t.Helper()
	for _, x := range ts {
		if x.Spec().Name == name {
			return x.(*Tool)
		}
	}
	t.Fatalf("no tool %s among %d", name, len(ts))
	return nil
}

func TestHintsAreNotTrusted(t *testing.T) {
	cfg := config.Default()
	p, _ := hostilePool(t, cfg)
	ts := p.SessionTools(context.Background(), "s1")
	if len(ts) != 8 {
		t.Fatalf("tools = %d, want 8; status %+v", len(ts), p.Status())
	}
	w := toolByName(t, ts, "mcp__evil__write_note")
	if w.ReadOnly() || w.Spec().Guard.Class != "mutating" || w.Spec().Guard.Plan != "build_only" {
		t.Errorf("write_note (readOnlyHint, hints not trusted) = %+v", w.Spec().Guard)
	}
	cfg.MCP.ReadOnly = []string{"evil/echo"}
	cfg.MCP.TrustHints = []string{}
	p.Configure(cfg, []ServerSpec{{Name: "evil", Command: hostileBin, Origin: FromConfig}})
	ts = p.SessionTools(context.Background(), "s1")
	if !toolByName(t, ts, "mcp__evil__echo").ReadOnly() || toolByName(t, ts, "mcp__evil__huge").ReadOnly() {
		t.Error("mcp.read_only: echo should be read-only, huge not")
	}
	cfg.MCP.TrustHints = []string{"evil"}
	p.Configure(cfg, []ServerSpec{{Name: "evil", Command: hostileBin, Origin: FromConfig}})
	ts = p.SessionTools(context.Background(), "s1")
	if !toolByName(t, ts, "mcp__evil__huge").ReadOnly() || toolByName(t, ts, "mcp__evil__hang").ReadOnly() {
		t.Error("mcp.trust_hints: huge (readOnlyHint) should be read-only, hang not")
	}
}

func TestCalls(t *testing.T) {
	p, logf := hostilePool(t, config.Default())
	ctx := context.Background()
	if n := len(p.SessionTools(ctx, "s")); n != 8 {
		t.Fatalf("tools = %d; %+v", n, p.Status())
	}
	s := p.servers("s")[0]

	res, err := s.Call(ctx, "huge", map[string]any{"bytes": 5 << 20}, 10*time.Second, 30000)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Text) > 30200 || res.Bytes != 5<<20 {
		t.Errorf("huge: truncated=%v len=%d bytes=%d", res.Truncated, len(res.Text), res.Bytes)
	}

	start := time.Now()
	_, err = s.Call(ctx, "hang", map[string]any{}, 300*time.Millisecond, 30000)
	if err == nil || !strings.Contains(err.Error(), "no answer within") || time.Since(start) > 5*time.Second {
		t.Errorf("hang: err = %v after %s", err, time.Since(start))
	}

	_, err = s.Call(ctx, "die", map[string]any{}, time.Minute, 30000)
	if err == nil || !strings.Contains(err.Error(), "exited") || !strings.Contains(err.Error(), "dying on purpose") {
		t.Errorf("die: err = %v", err)
	}
	st := s.Status()
	if State(st.State) != StateFailed || !strings.Contains(st.StderrTail, "dying on purpose") {
		t.Errorf("status after the exit = %+v", st)
	}
	log, _ := os.ReadFile(logf)
	if !strings.Contains(string(log), "die") {
		t.Errorf("calls log = %q", log)
	}
}

// TestEnvironmentScrubbed: the model's key and run.env_deny are not passed.
func TestEnvironmentScrubbed(t *testing.T) {
	p, _ := hostilePool(t, config.Default())
	p.mu.Lock()
	s := p.shared["evil"]
	p.mu.Unlock()
	for _, kv := range s.env {
		if strings.HasPrefix(kv, "OPENAI_API_KEY=") {
			t.Errorf("the model's key is in the server's environment")
		}
	}
}

// TestCloseKillsTheGroup: after Close the server's process is gone.
func TestCloseKillsTheGroup(t *testing.T) {
	p, _ := hostilePool(t, config.Default())
	if n := len(p.SessionTools(context.Background(), "s")); n != 8 {
		t.Fatalf("tools = %d", n)
	}
	s := p.servers("s")[0]
	s.mu.Lock()
	pid := s.proc.Pid
	s.mu.Unlock()
	p.Close()
	// SIGKILL is delivered at once, but the last of the group may still be
	// reaped by init: wait for that, boundedly.
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(-pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still alive 10 s after Close", pid)
		}
		runtime.Gosched()
	}
}

func TestToolName(t *testing.T) {
	tests := []struct{ server, tool, want string }{
		{"fs", "read_text_file", "mcp__fs__read_text_file"},
		{"my server", "a.b/c", "mcp__my_server__a_b_c"},
		{"", "", "mcp______"},
		{"s", strings.Repeat("x", 100), ("mcp__s__" + strings.Repeat("x", 100))[:64]},
		{"ü", "t", "mcp_____t"},
	}
	for _, tt := range tests {
		if got := ToolName(tt.server, tt.tool); got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
}

func TestCheckSchema(t *testing.T) {
	deep := any(map[string]any{"type": "object"})
	for range 20 {
		deep = map[string]any{"type": "object", "properties": map[string]any{"a": deep}}
	}
	tests := []struct {
		name   string
		schema any
		ok     bool
	}{
		{"plain", map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}, true},
		{"none", nil, true},
		{"not an object", map[string]any{"type": "string"}, false},
		{"array", []any{1}, false},
		{"too big", map[string]any{"type": "object", "description": strings.Repeat("x", 17<<10)}, false},
		{"too deep", deep, false},
	}
	for _, tt := range tests {
		_, err := checkSchema(tt.schema)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v", tt.name, err)
		}
	}
	if d := capDescription(strings.Repeat("é", 2000)); len(d) > maxDescription {
		t.Errorf("description of %d bytes", len(d))
	}
}

// TestToolListChanged: a server that adds a tool (tools/list_changed) has
// it offered at the session's next listing.
func TestToolListChanged(t *testing.T) {
	p, _ := hostilePool(t, config.Default())
	ctx := context.Background()
	if n := len(p.SessionTools(ctx, "s")); n != 8 {
		t.Fatalf("tools = %d", n)
	}
	s := p.servers("s")[0]
	listed := s.toolsListed()
	if _, err := s.Call(ctx, "grow", map[string]any{}, 10*time.Second, 1000); err != nil {
		t.Fatal(err)
	}
	select {
	case <-listed:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool list was not read again within 10 s of tools/list_changed")
	}
	ts := p.SessionTools(ctx, "s")
	res, err := toolByName(t, ts, "mcp__evil__grown").server.Call(ctx, "grown", map[string]any{}, 10*time.Second, 1000)
	if err != nil || res.Text != "grown ran" {
		t.Fatalf("grown: %+v %v", res, err)
	}
}

// TestRestartWithBackoff: a server that exited starts again at its next
// use once its backoff passed (here none), and after maxCrashes it stays
// failed.
func TestRestartWithBackoff(t *testing.T) {
	oldBase, oldMax := backoffBase, maxCrashes
	backoffBase, maxCrashes = 0, 3
	t.Cleanup(func() { backoffBase, maxCrashes = oldBase, oldMax })
	p, _ := hostilePool(t, config.Default())
	ctx := context.Background()
	if n := len(p.SessionTools(ctx, "s")); n != 8 {
		t.Fatalf("tools = %d", n)
	}
	s := p.servers("s")[0]
	for i := 1; i <= 3; i++ {
		if _, err := s.Call(ctx, "die", map[string]any{}, 10*time.Second, 1000); err == nil {
			t.Fatalf("die %d: no error", i)
		}
		st := s.Status()
		if State(st.State) != StateFailed {
			t.Fatalf("after crash %d: %+v", i, st)
		}
		if i < 3 {
			if !strings.Contains(st.Reason, "restarts at its next use") {
				t.Fatalf("after crash %d: reason %q", i, st.Reason)
			}
			res, err := s.Call(ctx, "echo", map[string]any{"path": "x", "content": "back"}, 10*time.Second, 1000)
			if err != nil || res.Text != "back" || State(s.Status().State) != StateRunning {
				t.Fatalf("restart %d: %+v %v %+v", i, res, err, s.Status())
			}
		}
	}
	st := s.Status()
	if !strings.Contains(st.Reason, "3 crashes within") || !strings.Contains(st.StderrTail, "dying on purpose") {
		t.Fatalf("after the last crash: %+v", st)
	}
	if _, err := s.Tools(ctx); err == nil {
		t.Fatal("a server that gave up started again")
	}
}
