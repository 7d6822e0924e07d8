package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves long sessions on small windows (issue 24): at an 8k
// window, where the system prompt and the tool definitions take almost half
// of the budget, compaction leaves room for several steps, every request
// sent fits, and a turn's own prompt is never summarised away, even when a
// single tool result alone is larger than the window.

// smallWindow is the window of these tests, in tokens; the fake endpoint
// refuses a request over it (four bytes a token).
const smallWindow = 8192

func TestSmallWindowLongSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeBigFiles(t, dir, 6, 6_000)
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: smallWindow * 4})
	defer fake.Close()
	h := startWithFake(t, dir, fake, map[string]any{"context_window": smallWindow})
	s := h.NewSession("build")
	const turns = 18
	for i := 0; i < turns; i++ {
		prompt := fmt.Sprintf("read big%d.txt", i%6+1)
		before := len(fake.Requests())
		if r := h.Prompt(s.SessionID, prompt); r.StopReason != "end_turn" {
			t.Fatalf("turn %d = %+v (%s)", i+1, r, r.Error)
		}
		mine, _ := agentRequests(fake.Requests()[before:])
		for j, r := range mine {
			if r.LastUser() != prompt {
				t.Fatalf("turn %d, request %d: the last user message is %q, not the turn's prompt %q: it was summarised away",
					i+1, j+1, r.LastUser(), prompt)
			}
		}
	}
	steps, summaries := agentRequests(fake.Requests())
	for i, r := range steps {
		if r.Status != 200 {
			t.Fatalf("request %d was refused (%d): a request over the window was sent", i+1, r.Status)
		}
	}
	// Each compaction makes room for more than one step.
	if len(summaries) > len(steps)/3 {
		t.Fatalf("%d summary requests for %d steps: compaction runs on almost every step", len(summaries), len(steps))
	}
	t.Logf("%d steps, %d summaries", len(steps), len(summaries))
}

// TestHugeToolResultKeepsThePrompt: turn 1 reads a 300 KB file (the read
// tool's 50 KB cap is still far over an 8k window): the result is stubbed,
// the prompt stays, and the request sent fits.
func TestHugeToolResultKeepsThePrompt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "huge.txt"), []byte(bigText("huge.txt", 300_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: smallWindow * 4})
	defer fake.Close()
	h := startWithFake(t, dir, fake, map[string]any{"context_window": smallWindow})
	s := h.NewSession("build")
	const prompt = "read huge.txt"
	if r := h.Prompt(s.SessionID, prompt); r.StopReason != "end_turn" {
		t.Fatalf("turn = %+v (%s)", r, r.Error)
	}
	steps, _ := agentRequests(fake.Requests())
	if len(steps) != 2 {
		t.Fatalf("%d requests, want the call and the answer after the result", len(steps))
	}
	after := steps[1]
	if after.Status != 200 || after.LastUser() != prompt {
		t.Fatalf("the request after the huge result: status %d, last user message %q", after.Status, after.LastUser())
	}
	// Stubbed in the step that asked for it: the stub says the model never
	// saw the output and asks for a narrower call.
	if !strings.Contains(string(after.Body), "were not shown to you") || !strings.Contains(string(after.Body), "asking for less") {
		t.Fatal("the huge result was not stubbed as a result the model never saw")
	}
	// The next turn still works.
	if r := h.Prompt(s.SessionID, "note small"); r.StopReason != "end_turn" {
		t.Fatalf("second turn = %+v (%s)", r, r.Error)
	}
}

// spuriousOverflow is an endpoint's context overflow error for a request
// that was not too long.
const spuriousOverflow = `{"error":{"message":"This model's maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`

// TestSpuriousOverflowTeachesNoWindow: a fresh session's first request is
// refused once as too long although it is small; the retry succeeds, and
// the session's window stays the configured one (one overflow is no
// evidence: only two at the same size are).
func TestSpuriousOverflowTeachesNoWindow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	failed := false
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		if !failed {
			failed = true
			return fakeopenai.Reply{Status: 400, ErrorBody: spuriousOverflow}
		}
		return agentModel(r)
	}})
	defer fake.Close()
	h := startWithFake(t, dir, fake, map[string]any{"context_window": 32_768})
	s := h.NewSession("build")
	for _, p := range []string{"note one", "note two"} {
		if r := h.Prompt(s.SessionID, p); r.StopReason != "end_turn" {
			t.Fatalf("prompt %q = %+v (%s)", p, r, r.Error)
		}
	}
	usages := usageWindows(h)
	if len(usages) == 0 {
		t.Fatal("no usage_update")
	}
	for _, w := range usages {
		if w != 32_768 {
			t.Fatalf("usage_update contextWindow %v, want the configured 32768 after one spurious overflow", usages)
		}
	}
}

// TestOverflowRetriesKeepThePrompt: the endpoint's real window
// is far smaller than configured: the refused request is compacted and
// sent again, each retry smaller than the one before and each with the
// turn's prompt, until one fits.
func TestOverflowRetriesKeepThePrompt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeBigFiles(t, dir, 8, 12_000)
	// Turn requests grow by about 12 KB a turn: the fifth is refused.
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: 64_000})
	defer fake.Close()
	h := startWithFake(t, dir, fake, map[string]any{"context_window": 1_000_000})
	s := h.NewSession("build")
	var refusedAt int
	for i := 1; i <= 8; i++ {
		prompt := fmt.Sprintf("read big%d.txt", i)
		if r := h.Prompt(s.SessionID, prompt); r.StopReason != "end_turn" {
			t.Fatalf("prompt %d = %+v (%s)", i, r, r.Error)
		}
		steps, _ := agentRequests(fake.Requests())
		for j, r := range steps {
			if r.Status == 400 && refusedAt == 0 {
				refusedAt = j
			}
		}
	}
	if refusedAt == 0 {
		t.Fatal("the endpoint never refused a request: the test does not test recovery")
	}
	steps, _ := agentRequests(fake.Requests())
	refused := steps[refusedAt]
	var sizes []int
	for _, r := range steps[refusedAt:] {
		if r.LastUser() != refused.LastUser() {
			t.Fatalf("a retry lost the turn's prompt %q (last user message %q)", refused.LastUser(), r.LastUser())
		}
		sizes = append(sizes, len(r.Body))
		if r.Status == 200 {
			break
		}
	}
	if len(sizes) < 2 || steps[refusedAt+len(sizes)-1].Status != 200 {
		t.Fatalf("no retry of the refused request succeeded (sizes %v)", sizes)
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] >= sizes[i-1] {
			t.Fatalf("retry %d is not smaller than the request before it: sizes %v", i, sizes)
		}
	}
	t.Logf("refused request and its retries: %v bytes", sizes)
}

// usageWindows lists the contextWindow of every usage_update.
func usageWindows(h *lsptest.Env) []int {
	var out []int
	for _, u := range lsptest.Updates[agentproto.UsageUpdate](h, "usage_update") {
		out = append(out, u.ContextWindow)
	}
	return out
}

// TestStatedWindowFitsInOneRetry: ten turns in, the model's server is
// restarted with an 8k window (the session assumed 32k: a local model
// agentls does not know), so the next request is more than twice the
// window. Each refused request is compacted and sent once more, and fits.
// The second refusal states the same window as the first (every wording
// here states it) and teaches it: no request is refused after that. Before,
// LM Studio's wording was no overflow (the turn failed), and the window was
// learned only from two refusals at the same size: the third.
func TestStatedWindowFitsInOneRetry(t *testing.T) {
	t.Parallel()
	for _, style := range []fakeopenai.Overflow{fakeopenai.OverflowOpenAI, fakeopenai.OverflowVLLM, fakeopenai.OverflowLlamaCpp, fakeopenai.OverflowLMStudio} {
		t.Run(string(style), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeBigFiles(t, dir, 6, 6_000)
			fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, Overflow: style})
			defer fake.Close()
			h := startWithFake(t, dir, fake, map[string]any{"context_window": 32_768})
			s := h.NewSession("build")
			prompt := func(i int) {
				t.Helper()
				if r := h.Prompt(s.SessionID, fmt.Sprintf("read big%d.txt", i%6+1)); r.StopReason != "end_turn" {
					t.Fatalf("turn %d = %+v (%s)", i+1, r, r.Error)
				}
			}
			for i := range 10 {
				prompt(i)
			}
			before := len(fake.Requests())
			fake.SetMaxBytes(smallWindow * 4)
			for i := 10; i < 16; i++ {
				prompt(i)
			}
			steps, _ := agentRequests(fake.Requests()[before:])
			var sizes []string
			for _, r := range steps {
				sizes = append(sizes, fmt.Sprintf("%d:%dB", r.Status, len(r.Body)))
			}
			refusals := 0
			for i, r := range steps {
				if r.Status == 200 {
					continue
				}
				refusals++
				if i+1 >= len(steps) || steps[i+1].Status != 200 || steps[i+1].LastUser() != r.LastUser() {
					t.Fatalf("refused request %d was not followed by one retry of it that fits: %v", i+1, sizes)
				}
			}
			if refusals == 0 || len(steps[0].Body) < 2*smallWindow*4 {
				t.Fatalf("the first request after the restart was not refused at twice the window: %v", sizes)
			}
			t.Logf("%v", sizes)
			if refusals > 2 {
				t.Fatalf("%d refusals (%v): two stating the same window did not teach it", refusals, sizes)
			}
		})
	}
}

// TestStatedWindowNamedWhenNothingFits: the model's server has a window
// smaller than the system prompt and the tool definitions. The turn ends
// with an error that says the window the endpoint stated (not only the
// one agentls assumed) and what to change.
func TestStatedWindowNamedWhenNothingFits(t *testing.T) {
	t.Parallel()
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: 1000 * 4, Overflow: fakeopenai.OverflowLlamaCpp})
	defer fake.Close()
	h := startWithFake(t, t.TempDir(), fake, nil)
	s := h.NewSession("build")
	r := h.Prompt(s.SessionID, "note hi")
	if r.StopReason != "error" || r.Error == nil {
		t.Fatalf("prompt = %+v, want an error", r)
	}
	for _, want := range []string{"the endpoint says the model's context window is 1000 tokens", "larger context", "model.context_window to 1000"} {
		if !strings.Contains(r.Error.Message, want) {
			t.Fatalf("error %q does not say %q", r.Error.Message, want)
		}
	}
	if steps, _ := agentRequests(fake.Requests()); len(steps) > 2 {
		t.Fatalf("%d requests: a request the stated window cannot hold is sent at most twice (once more in case the refusal was spurious)", len(steps))
	}
}

// TestCutPromptsTeachTheWindow: the model's server is Ollama-like: a
// request longer than its 8k context is not refused but cut, the model
// answering without the request's start (the system prompt first), and only
// the usage's prompt count (half the context and two) shows it. The session
// assumed 32k. Two cuts to the same context teach it: every later request
// is compacted to fit, and none is cut again. Before, every request past
// the 8k was cut, for the rest of the session.
func TestCutPromptsTeachTheWindow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeBigFiles(t, dir, 6, 6_000)
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: smallWindow * 4, Overflow: fakeopenai.OverflowOllamaCut})
	defer fake.Close()
	h := startWithFake(t, dir, fake, map[string]any{"context_window": 32_768})
	s := h.NewSession("build")
	for i := range 12 {
		if r := h.Prompt(s.SessionID, fmt.Sprintf("read big%d.txt", i%6+1)); r.StopReason != "end_turn" {
			t.Fatalf("turn %d = %+v (%s)", i+1, r, r.Error)
		}
	}
	steps, _ := agentRequests(fake.Requests())
	var cut []int
	for i, r := range steps {
		if r.Cut {
			cut = append(cut, i+1)
		}
	}
	if len(cut) == 0 {
		t.Fatal("no request was cut: the test does not test the cut")
	}
	if len(cut) > 2 {
		t.Fatalf("requests %v of %d were cut: two cuts to one context did not teach it", cut, len(steps))
	}
	if w := usageWindows(h); len(w) == 0 || w[len(w)-1] != smallWindow {
		t.Fatalf("usage_update contextWindow %v, want the server's %d at the end", w, smallWindow)
	}
}

// TestCutPromptsNamedWhenNothingFits: the Ollama-like server's context
// (4k) is smaller than the system prompt and the tool definitions with the
// answer's room. Once two cuts taught it, the turn ends with an error that
// says the server cut the requests and what to change, instead of every
// later request reaching a model that never saw its start.
func TestCutPromptsNamedWhenNothingFits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeBigFiles(t, dir, 2, 6_000)
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: 4096 * 4, Overflow: fakeopenai.OverflowOllamaCut})
	defer fake.Close()
	h := startWithFake(t, dir, fake, map[string]any{"context_window": 32_768})
	s := h.NewSession("build")
	var last agentproto.PromptResult
	for i := range 3 {
		if last = h.Prompt(s.SessionID, fmt.Sprintf("read big%d.txt", i%2+1)); last.StopReason != "end_turn" {
			break
		}
	}
	if last.StopReason != "error" || last.Error == nil {
		t.Fatalf("last prompt = %+v, want an error once the cuts taught the window", last)
	}
	for _, want := range []string{"cut longer requests to fit a 4096-token window without an error", "OLLAMA_CONTEXT_LENGTH", "model.context_window"} {
		if !strings.Contains(last.Error.Message, want) {
			t.Fatalf("error %q does not say %q", last.Error.Message, want)
		}
	}
}
