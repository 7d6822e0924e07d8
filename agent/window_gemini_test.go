package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentls/agentls/agent/openai"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestGeminiOverflowIsRecognised: Gemini's OpenAI-compatible endpoint says a
// request is too long as "The input token count (N) exceeds the maximum
// number of tokens allowed (M)" (google-gemini/gemini-cli#4118, #11507:
// accounts whose limit is 131072 or 65536, below the 1048576 agentls assumes
// for gemini). agentls does not know this wording, so the refusal is a plain
// error: nothing is compacted, no window is learned, the prompt is not set
// aside, and every later prompt sends the same over-long history and fails
// the same way — the session cannot be used again.
func TestGeminiOverflowIsRecognised(t *testing.T) {
	t.Parallel()
	const limit = 12000 // the endpoint's real window, in its tokens (a byte in four)
	var refused atomic.Int32
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		if n := fakeopenai.Tokens(len(r.Body)); n > limit {
			refused.Add(1)
			return fakeopenai.Reply{Status: 400, ErrorBody: fmt.Sprintf(`[{"error":{"code":400,"message":"The input token count (%d) exceeds the maximum number of tokens allowed (%d).","status":"INVALID_ARGUMENT"}}]`, n, limit)}
		}
		if strings.Contains(r.System(), "You write hand-off summaries") {
			return fakeopenai.Reply{Text: "Summary: the user had files read one by one."}
		}
		if last := r.Messages[len(r.Messages)-1]; last.Role == "tool" {
			return fakeopenai.Reply{Text: "read it"}
		}
		if u := r.LastUser(); strings.HasPrefix(u, "read f") {
			return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call(fmt.Sprintf("c%d", len(r.Messages)), "read",
				fmt.Sprintf(`{"path":%q}`, strings.TrimPrefix(u, "read ")+".go"))}}
		}
		return fakeopenai.Reply{Text: "ok"}
	}})
	t.Cleanup(fake.Close)
	p, err := openai.New(openai.Config{BaseURL: fake.URL, Model: "gemini-2.5-pro", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.Name = "gemini-2.5-pro" })
	m.Reconfigure(m.config(), p)
	for i := range 30 {
		body := strings.Repeat(fmt.Sprintf("// file %d: a line of source with some words in it\n", i), 60)
		if err := os.WriteFile(filepath.Join(ed.ws.Root(), fmt.Sprintf("f%d.go", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newTestSession(t, m, "build")
	var ends []string
	failedInARow := 0
	for i := range 30 {
		res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: fmt.Sprintf("read f%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		if res.StopReason == agentproto.StopEndTurn {
			failedInARow = 0
			continue
		}
		failedInARow++
		ends = append(ends, fmt.Sprintf("prompt %d: %s: %v", i, res.StopReason, res.Err))
		if failedInARow == 3 {
			t.Fatalf("once the history passed the endpoint's window, prompt after prompt fails:\n%s", strings.Join(ends, "\n"))
		}
	}
	if refused.Load() == 0 {
		t.Fatal("the rig is wrong: the endpoint never refused a request")
	}
}
