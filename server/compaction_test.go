package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// bigText is a file of about n bytes of varied prose-like lines.
func bigText(name string, n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s line %d: the quick brown fox jumps over the lazy dog, value=%d;\n", name, i, i*7919)
	}
	return b.String()
}

const summaryText = "SUMMARY: the user asked to read the big files one by one; nothing is open."

// agentModel is the fake model of the compaction tests: a user message
// "read X" asks for read X, "plan" writes a plan, "ask" asks a question, a
// tool result gets "done", and a summary request gets summaryText.
func agentModel(r fakeopenai.Request) fakeopenai.Reply {
	if strings.Contains(r.System(), "You write hand-off summaries") {
		return fakeopenai.Reply{Text: summaryText}
	}
	last := r.Messages[len(r.Messages)-1]
	if last.Role != "user" {
		return fakeopenai.Reply{Text: "done"}
	}
	id := fmt.Sprintf("call_%d", len(r.Messages))
	switch text := last.Content; {
	case strings.HasPrefix(text, "read "):
		return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call(id, "read", fmt.Sprintf(`{"path":%q}`, strings.TrimPrefix(text, "read ")))}}
	case strings.HasPrefix(text, "note "):
		return fakeopenai.Reply{Text: "noted"}
	case text == "plan":
		return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call(id, "plan_write",
			`{"title":"Read all","path":"plans/p.plan","content":"# Goal\nRead every big file.\n\n## Steps\n- [ ] Read big1.txt\n- [ ] Read big9.txt\n"}`)}}
	case text == "ask":
		return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call(id, "ask_user",
			`{"questions":[{"name":"branch","question":"Branch name?","schema":{"type":"string","pattern":"^[a-z0-9-]+$"}}]}`)}}
	}
	return fakeopenai.Reply{Text: "hello"}
}

func writeBigFiles(t *testing.T, dir string, n, size int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("big%d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(bigText(name, size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// agentRequests are the requests of turns (not summaries).
func agentRequests(reqs []fakeopenai.Request) (turns, summaries []fakeopenai.Request) {
	for _, r := range reqs {
		if strings.Contains(r.System(), "You write hand-off summaries") {
			summaries = append(summaries, r)
		} else {
			turns = append(turns, r)
		}
	}
	return turns, summaries
}

// TestCompactionKeepsPlanAndMode runs a long plan-mode session and then a
// build-mode one against an endpoint whose context is 24k tokens: the
// history is compacted before any request passes the window (old tool
// results stubbed, then a hand-off summary), the plan being written is
// re-injected in plan mode and pinned in build mode, the mode never
// changes, usage_update carries the context fields, plain editors get a log
// line, and loadSession still returns the full conversation.
func TestCompactionKeepsPlanAndMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeBigFiles(t, dir, 12, 12_000)
	const window = 24_000
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: window * 4})
	defer fake.Close()
	h := startWithFake(t, dir, fake, map[string]any{"context_window": window})
	s := h.NewSession("plan")
	prompts := 0
	prompt := func(text string) {
		t.Helper()
		prompts++
		if r := h.Prompt(s.SessionID, text); r.StopReason != "end_turn" {
			t.Fatalf("prompt %q = %+v (%s)", text, r, r.Error)
		}
	}
	note := "note " + bigText("remember", 6_000)
	prompt("plan")
	for i := 1; i <= 6; i++ {
		prompt(fmt.Sprintf("read big%d.txt", i))
		prompt(note)
	}
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode after compaction = %q", got)
	}
	turns, summaries := agentRequests(fake.Requests())
	if len(summaries) == 0 {
		t.Fatal("no summary was asked for")
	}
	for i, r := range turns {
		if r.Status != 200 || len(r.Body) > window*4 {
			t.Fatalf("turn request %d: status %d, %d bytes (window %d bytes)", i, r.Status, len(r.Body), window*4)
		}
	}
	last := turns[len(turns)-1]
	for _, want := range []string{summaryText, "# The plan you are writing: plans/p.plan", "Read every big file."} {
		if !strings.Contains(last.System(), want) {
			t.Errorf("the last plan-mode request's system prompt lacks %q", want)
		}
	}
	stubbed := false
	for _, r := range turns {
		stubbed = stubbed || strings.Contains(string(r.Body), "of output removed from the context to save space")
	}
	if !stubbed {
		t.Error("no tool result was stubbed")
	}
	if !lsptest.HasLine(h.LogLines(), "[compaction] session="+s.SessionID) {
		t.Errorf("no compaction log line: %q", h.LogLines())
	}
	var sawContext bool
	for _, u := range lsptest.Updates[agentproto.UsageUpdate](h, "usage_update") {
		if u.ContextWindow == window && u.ContextTokens > 0 {
			sawContext = true
		}
	}
	if !sawContext {
		t.Error("no usage_update carried contextTokens and contextWindow")
	}

	// Build mode: the approved plan stays pinned through compactions.
	var info agentproto.Session
	if err := h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "build"}, &info); err != nil {
		t.Fatal(err)
	}
	before := len(summaries)
	for i := 7; i <= 12; i++ {
		prompt(fmt.Sprintf("read big%d.txt", i))
		prompt(note)
	}
	turns, summaries = agentRequests(fake.Requests())
	if len(summaries) <= before {
		t.Fatal("build mode did not compact")
	}
	last = turns[len(turns)-1]
	for _, want := range []string{"APPROVED EXECUTION PLAN", "Source: plans/p.plan", "Read every big file."} {
		if !strings.Contains(last.System(), want) {
			t.Errorf("the last build-mode request's system prompt lacks %q", want)
		}
	}
	for i, r := range turns {
		if r.Status != 200 {
			t.Fatalf("turn request %d: status %d", i, r.Status)
		}
	}
	if got := h.Editor.Mode(s.SessionID); got != "build" {
		t.Fatalf("mode after build-mode compaction = %q", got)
	}

	// The user still gets the whole conversation: 2 messages per prompt
	// and a tool call and result per tool-using one.
	loaded := h.LoadSession(s.SessionID)
	if want := prompts*2 + 13*2; len(loaded.Messages) != want {
		t.Fatalf("loadSession returned %d messages, want %d", len(loaded.Messages), want)
	}
	var records int
	for _, l := range chatLines(t, dir, s.SessionID) {
		if l["record"] == "compaction" {
			records++
		}
	}
	if records == 0 {
		t.Fatal("no compaction record in the session file")
	}
}

// TestContextExceededRecovery: the window is configured far too large, so
// only the endpoint's overflow error (in OpenAI's, vLLM's and llama.cpp's
// wording) says the history is too long: agentls compacts and retries once,
// and the turn succeeds.
func TestContextExceededRecovery(t *testing.T) {
	t.Parallel()
	for _, style := range fakeopenai.Overflows {
		t.Run(string(style), func(t *testing.T) {
			dir := t.TempDir()
			writeBigFiles(t, dir, 4, 12_000)
			fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: 64_000, Overflow: style})
			defer fake.Close()
			h := startWithFake(t, dir, fake, map[string]any{"context_window": 1_000_000})
			s := h.NewSession("build")
			for i := 1; i <= 4; i++ {
				if r := h.Prompt(s.SessionID, fmt.Sprintf("read big%d.txt", i)); r.StopReason != "end_turn" {
					t.Fatalf("prompt %d = %+v (%s)", i, r, r.Error)
				}
			}
			turns, _ := agentRequests(fake.Requests())
			overflowAt := -1
			for i, r := range turns {
				if r.Status == 400 {
					overflowAt = i
					break
				}
			}
			if overflowAt < 0 {
				t.Fatal("the endpoint never refused a request: the test does not test recovery")
			}
			refused := turns[overflowAt]
			if overflowAt+1 >= len(turns) || turns[overflowAt+1].Status != 200 || len(turns[overflowAt+1].Body) >= len(refused.Body) ||
				turns[overflowAt+1].LastUser() != refused.LastUser() {
				t.Fatal("the request after the overflow was not a smaller retry of it that succeeded")
			}
			if !strings.Contains(string(turns[overflowAt+1].Body), "of output removed from the context to save space") {
				t.Fatal("the retry has no stubbed tool result")
			}
		})
	}
}

// TestContextExceededTwiceKeepsSessionUsable: a prompt too long for the
// window even after compaction ends its turn with a clear error; it is set
// aside, so a shorter next prompt works and does not carry it.
func TestContextExceededTwiceKeepsSessionUsable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: 64_000})
	defer fake.Close()
	h := startWithFake(t, dir, fake, nil)
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "hi"); r.StopReason != "end_turn" {
		t.Fatalf("first prompt = %+v (%s)", r, r.Error)
	}
	huge := "please consider " + strings.Repeat("all of this text ", 5000)
	r := h.Prompt(s.SessionID, huge)
	if r.StopReason != "error" || r.Error == nil || !strings.Contains(r.Error.Message, "context window") || !strings.Contains(r.Error.Message, "shorter") {
		t.Fatalf("huge prompt = %+v (%s)", r, r.Error)
	}
	if r := h.Prompt(s.SessionID, "hi again"); r.StopReason != "end_turn" {
		t.Fatalf("prompt after the failure = %+v (%s)", r, r.Error)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-1]
	if last.Status != 200 || strings.Contains(string(last.Body), "all of this text") || !strings.Contains(string(last.Body), "hi again") {
		t.Fatalf("the request after the failure: status %d, carries the huge prompt: %v", last.Status, strings.Contains(string(last.Body), "all of this text"))
	}
	// The failed prompt stays in the history the user sees.
	loaded := h.LoadSession(s.SessionID)
	if !strings.Contains(toJSON(loaded.Messages), "all of this text") {
		t.Fatal("the set-aside prompt is gone from the history")
	}
}

// TestAgentCompact: agent/compact (and the agentls.compact command)
// compacts an idle session on request without touching its mode or its
// pending question, and is refused with -32803 while the session's turn
// runs.
func TestAgentCompact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeBigFiles(t, dir, 3, 12_000)
	release := make(chan struct{})
	var once sync.Once
	entered := make(chan struct{})
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		if r.LastUser() == "block" {
			once.Do(func() { close(entered) })
			<-release
		}
		return agentModel(r)
	}})
	defer fake.Close()
	h := startWithFakeCaps(t, dir, fake, nil, noAskCaps(false)) // questions wait for an answer
	s := h.NewSession("plan")
	for i := 1; i <= 3; i++ {
		if r := h.Prompt(s.SessionID, fmt.Sprintf("read big%d.txt", i)); r.StopReason != "end_turn" {
			t.Fatalf("prompt %d = %+v (%s)", i, r, r.Error)
		}
	}
	// A question waits (the editor cannot show it): compaction keeps it.
	if r := h.Prompt(s.SessionID, "ask"); r.StopReason != "question_pending" {
		t.Fatalf("ask = %+v (%s)", r, r.Error)
	}
	res := lsptest.MustCall(h, agentproto.Compact, agentproto.SessionParams{SessionID: s.SessionID})
	if !res.Compacted || res.ContextTokens <= 0 {
		t.Fatalf("agent/compact = %+v", res)
	}
	if info := loadInfo(h, s.SessionID); info.Mode != "plan" {
		t.Fatalf("mode after agent/compact = %q", info.Mode)
	}
	q := lsptest.Updates[agent.UpdateQuestion](h, "question_pending")
	if len(q) != 1 {
		t.Fatalf("%d question_pending updates", len(q))
	}
	r := promptQA(h, s.SessionID, q[0].QuestionID, map[string]any{"branch": "main"})
	if r.StopReason != "end_turn" {
		t.Fatalf("answering the question after agent/compact = %+v (%s)", r, r.Error)
	}

	// While a turn runs, agent/compact is refused with -32803 and changes nothing.
	done := h.PromptAsync(s.SessionID, "block")
	<-entered
	err := h.Editor.Call(h.Ctx, "agent/compact", map[string]any{"sessionId": s.SessionID}, nil)
	if lsptest.RPCCode(err) != -32803 {
		t.Fatalf("agent/compact on a busy session: %v", err)
	}
	close(release)
	if r := <-done; r.StopReason != "end_turn" {
		t.Fatalf("the blocked turn = %+v (%s)", r, r.Error)
	}
	// The command does the same as the method.
	if err := command(h, "agentls.compact", map[string]any{"sessionId": s.SessionID}, &res); err != nil {
		t.Fatalf("agentls.compact: %v", err)
	}
	if res.ContextTokens <= 0 {
		t.Fatalf("agentls.compact = %+v", res)
	}
}

// promptQA sends a prompt that answers a pending question.
func promptQA(h *lsptest.Env, sid, qid string, answers map[string]any) agentproto.PromptResult {
	h.T.Helper()
	var r agentproto.PromptResult
	params := map[string]any{"sessionId": sid, "text": "", "questionAnswer": map[string]any{"questionId": qid, "answers": answers}}
	if err := h.Editor.Call(h.Ctx, "agent/prompt", params, &r); err != nil {
		h.T.Fatalf("prompt: %v", err)
	}
	return r
}

// loadInfo is agent/loadSession's session.
func loadInfo(h *lsptest.Env, sid string) agentproto.Session {
	h.T.Helper()
	return h.LoadSession(sid).Session
}
