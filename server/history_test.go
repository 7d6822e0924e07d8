package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/sessionstore"
)

// startWithFake starts a server in dir whose model is the fake endpoint,
// configured as a user does (initializationOptions); model adds keys to
// the model section.
func startWithFake(t *testing.T, dir string, fake *fakeopenai.Server, model map[string]any) *lsptest.Env {
	return startWithFakeCaps(t, dir, fake, model, lsptest.FullCaps())
}

// startWithFakeCaps is startWithFake for an editor with these capabilities.
func startWithFakeCaps(t *testing.T, dir string, fake *fakeopenai.Server, model, caps map[string]any) *lsptest.Env {
	return startWithEndpoint(t, dir, fake.URL, model, caps)
}

// startWithEndpoint starts a server in dir whose model is the
// OpenAI-compatible endpoint at baseURL (key in $MY_KEY).
func startWithEndpoint(t *testing.T, dir, baseURL string, model, caps map[string]any) *lsptest.Env {
	t.Helper()
	m := map[string]any{"provider": "openai", "base_url": baseURL, "api_key_env": "MY_KEY", "name": "test-model"}
	for k, v := range model {
		m[k] = v
	}
	return lsptest.Start(t, lsptest.Setup{
		Dir:       dir,
		Caps:      caps,
		InitOpts:  map[string]any{"model": m},
		Env:       map[string]string{"MY_KEY": "sk-test"},
		RealModel: true,
	})
}

// chatLines returns the JSON lines after the frontmatter of a session file.
func chatLines(t *testing.T, dir, id string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".agentls", "chats", id+".chat"))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(string(data), "\n") {
		var m map[string]any
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// TestCrashedHistoryIsRepaired: a session file that ends in an assistant
// tool call with no result (as after a kill -9 mid tool call), and holds an
// orphan tool result, is repaired before it is sent: the fake endpoint, like
// real ones, answers 400 to such a history. The repair is recorded in the
// file, the full history stays, and loadSession still returns it.
func TestCrashedHistoryIsRepaired(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := sessionstore.NewStore(filepath.Join(dir, ".agentls", "chats"))
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	const id = "crashed-session"
	if err := store.Create(sessionstore.Meta{ID: id, Title: "t", Mode: "build", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"role":"user","content":"fix the bug"}`,
		`{"role":"tool","tool_call_id":"orphan_1","name":"read","content":"{\"success\":true}"}`,
		`{"role":"assistant","content":"Let me edit.","tool_calls":[{"id":"call_a","name":"edit","arguments":"{\"path\":\"a.go\"}"},{"id":"call_b","name":"read","arguments":"{\"path\":\"b.go\"}"}]}`,
		`{"role":"tool","tool_call_id":"call_b","name":"read","content":"{\"success\":true,\"result\":\"b\"}"}`,
	}
	for _, l := range lines {
		if err := store.Append(id, json.RawMessage(l)); err != nil {
			t.Fatal(err)
		}
	}
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(fakeopenai.Request) fakeopenai.Reply {
		return fakeopenai.Reply{Text: "I will check a.go again."}
	}})
	defer fake.Close()
	h := startWithFake(t, dir, fake, nil)

	loaded := h.LoadSession(id)
	if len(loaded.Messages) != 4 {
		t.Fatalf("loadSession returned %d messages, want the full 4", len(loaded.Messages))
	}
	if r := h.Prompt(id, "go on"); r.StopReason != "end_turn" {
		t.Fatalf("prompt after a crash = %+v (%s)", r, r.Error)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].Status != 200 {
		t.Fatalf("requests: %+v", reqs)
	}
	var roles []string
	var synthetic string
	for _, m := range reqs[0].Messages {
		roles = append(roles, m.Role+":"+m.ToolCallID)
		if m.ToolCallID == "call_a" {
			synthetic = m.Content
		}
	}
	if got := strings.Join(roles, " "); got != "system: user: assistant: tool:call_b tool:call_a user:" {
		t.Fatalf("sent history = %s", got)
	}
	if !strings.Contains(synthetic, "interrupted: agentls stopped before this tool finished; check the file before relying on it") {
		t.Fatalf("synthetic result = %q", synthetic)
	}
	var repairs []map[string]any
	for _, l := range chatLines(t, dir, id) {
		if l["record"] == "repair" {
			repairs = append(repairs, l)
		}
	}
	if len(repairs) != 1 || !strings.Contains(toJSON(repairs[0]), `"synthetic":["call_a"]`) || !strings.Contains(toJSON(repairs[0]), `"dropped":["orphan_1"]`) {
		t.Fatalf("repair records = %v", repairs)
	}
	// The file keeps the full history: the 4 messages, the prompt, the answer
	// (besides its records: the repair, the turn's checkpoint).
	n := 0
	for _, l := range chatLines(t, dir, id) {
		if l["record"] == nil {
			n++
		}
	}
	if n != 6 {
		t.Fatalf("%d messages in the file, want 6", n)
	}
	// A second prompt sends the same repaired history and records nothing new.
	if r := h.Prompt(id, "and then?"); r.StopReason != "end_turn" {
		t.Fatalf("second prompt = %+v (%s)", r, r.Error)
	}
	n = 0
	for _, l := range chatLines(t, dir, id) {
		if l["record"] == "repair" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d repair records after the second prompt, want 1", n)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestOversizeToolArgumentsRefused: a tool call whose arguments are over the
// 1 MB cap is not run, the model is told why, and the history keeps a short
// stub instead of the arguments, so they are not re-sent with every request.
func TestOversizeToolArgumentsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	huge := strings.Repeat("z", 3<<20)
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		if r.Messages[len(r.Messages)-1].Role == "user" {
			args, _ := json.Marshal(map[string]string{"path": "big.txt", "content": huge})
			return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call("call_big", "write", string(args))}}
		}
		return fakeopenai.Reply{Text: "I will write it in pieces."}
	}})
	defer fake.Close()
	h := startWithFake(t, dir, fake, nil)
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "write a big file"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	second := string(reqs[1].Body)
	if len(second) > 100<<10 || !strings.Contains(second, "arguments refused: 3.1 MB over the 1 MB cap") {
		t.Fatalf("second request: %d bytes, %q…", len(second), second[:min(len(second), 300)])
	}
	if _, err := os.Stat(filepath.Join(dir, "big.txt")); !os.IsNotExist(err) {
		t.Fatalf("big.txt was written: %v", err)
	}
	fi, err := os.Stat(filepath.Join(dir, ".agentls", "chats", s.SessionID+".chat"))
	if err != nil || fi.Size() > 100<<10 {
		t.Fatalf("session file: %v, %d bytes", err, fi.Size())
	}
	done := lsptest.Updates[agent.UpdateToolCallDone](h, "tool_call_update")
	if len(done) != 1 || done[0].Status != "failed" || !strings.Contains(toJSON(done[0]), "Send large content in pieces") {
		t.Fatalf("tool_call_update = %v", done)
	}
}

// TestReadCapThroughServer: a read of a 200 KB file sends the model at most
// 50 KB of it and says where to continue.
func TestReadCapThroughServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(bigText("big", 200_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel})
	defer fake.Close()
	h := startWithFake(t, dir, fake, nil)
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "read big.txt"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	reqs := fake.Requests()
	var result string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			result = m.Content
		}
	}
	if len(result) > 60<<10 || !strings.Contains(result, "output capped at 50 KB: continue at line") {
		t.Fatalf("read result sent to the model: %d bytes, %q…", len(result), result[:min(len(result), 200)])
	}
}
