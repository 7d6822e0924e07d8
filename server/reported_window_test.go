package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves that agentls asks the model's server for its context
// window when the configuration does not give it: a local server (vLLM,
// llama.cpp, LM Studio, Ollama) or a router (OpenRouter) says it, and no
// request has to be refused, or cut, to learn it.

// TestReportedWindowFitsEveryRequest: a model agentls does not know
// ("test-model", assumed 32k) on a server with an 8k window that reports
// it, each the way its kind of server does. Twelve turns read large files:
// every request fits (none is refused or cut) and the usage shows the
// server's window. Before, the first request past 8k was refused (or, on
// Ollama, cut) and the window was learned only from two of them.
func TestReportedWindowFitsEveryRequest(t *testing.T) {
	t.Parallel()
	for _, kind := range []fakeopenai.ServerKind{fakeopenai.KindVLLM, fakeopenai.KindOpenRouter, fakeopenai.KindLlamaCpp, fakeopenai.KindLMStudio, fakeopenai.KindOllama} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			overflow := fakeopenai.OverflowOpenAI
			if kind == fakeopenai.KindOllama {
				overflow = fakeopenai.OverflowOllamaCut
			}
			_, h, steps := readBigFilesOn(t, overflow, fakeopenai.WindowReport{Kind: kind, Tokens: smallWindow, Model: "test-model"})
			for i, r := range steps {
				if r.Status != 200 || r.Cut {
					t.Fatalf("request %d of %d was refused (%d) or cut (%v): the reported window was not used", i+1, len(steps), r.Status, r.Cut)
				}
			}
			if max := slices.Max(requestSizes(steps)); max < smallWindow*4/2 {
				t.Fatalf("the largest request is %d bytes: the test does not come near the window", max)
			}
			for _, w := range usageWindows(h) {
				if w != smallWindow {
					t.Fatalf("usage_update contextWindow %v, want the server's %d throughout", usageWindows(h), smallWindow)
				}
			}
		})
	}
}

// readBigFilesOn runs twelve turns that read large files against an
// endpoint with an 8k window (smallWindow) that overflows as overflow says
// and reports its window as report does; it returns the endpoint, the
// editor and the turns' requests.
func readBigFilesOn(t *testing.T, overflow fakeopenai.Overflow, report fakeopenai.WindowReport) (*fakeopenai.Server, *lsptest.Env, []fakeopenai.Request) {
	t.Helper()
	dir := t.TempDir()
	writeBigFiles(t, dir, 6, 6_000)
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: smallWindow * 4, Overflow: overflow, Window: report})
	t.Cleanup(fake.Close)
	h := startWithFake(t, dir, fake, nil)
	s := h.NewSession("build")
	for i := range 12 {
		if r := h.Prompt(s.SessionID, fmt.Sprintf("read big%d.txt", i%6+1)); r.StopReason != "end_turn" {
			t.Fatalf("turn %d = %+v (%s)", i+1, r, r.Error)
		}
	}
	steps, _ := agentRequests(fake.Requests())
	return fake, h, steps
}

// requestSizes are the body sizes of reqs.
func requestSizes(reqs []fakeopenai.Request) []int {
	var out []int
	for _, r := range reqs {
		out = append(out, len(r.Body))
	}
	return out
}

// TestReportedWindowOnceLoaded: Ollama loads a model on its first request,
// with its server's context (OLLAMA_CONTEXT_LENGTH; 4k by default on a
// small GPU); before, it lists it as not loaded and its Modelfile sets no
// num_ctx. agentls asks again before the next request, learns the loaded
// context, and no request is cut. The asking stops once it answered.
func TestReportedWindowOnceLoaded(t *testing.T) {
	t.Parallel()
	fake, h, steps := readBigFilesOn(t, fakeopenai.OverflowOllamaCut,
		fakeopenai.WindowReport{Kind: fakeopenai.KindOllama, Tokens: smallWindow, Model: "test-model", LoadedByChat: true})
	for i, r := range steps {
		if r.Cut {
			t.Fatalf("request %d of %d was cut", i+1, len(steps))
		}
	}
	ps := 0
	for _, a := range fake.Asks() {
		if a == "GET /api/ps" {
			ps++
		}
	}
	if ps != 2 {
		t.Fatalf("/api/ps asked %d times, want 2 (before the first request, then once the model was loaded): %v", ps, fake.Asks())
	}
	if w := usageWindows(h); len(w) < 2 || w[len(w)-1] != smallWindow {
		t.Fatalf("usage_update contextWindow %v, want the server's %d", w, smallWindow)
	}
}

// TestConfiguredWindowAsksNothing: model.context_window is the user's
// word: the server is not asked, and its report does not replace it.
func TestConfiguredWindowAsksNothing(t *testing.T) {
	t.Parallel()
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel,
		Window: fakeopenai.WindowReport{Kind: fakeopenai.KindLlamaCpp, Tokens: smallWindow, Model: "test-model"}})
	defer fake.Close()
	h := startWithFake(t, t.TempDir(), fake, map[string]any{"context_window": 65_536})
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "note hi"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	if a := fake.Asks(); len(a) != 0 {
		t.Fatalf("the server was asked %v with model.context_window set", a)
	}
	if w := usageWindows(h); len(w) == 0 || w[0] != 65_536 {
		t.Fatalf("usage_update contextWindow %v, want the configured 65536", w)
	}
}

// TestReportedWindowNamedWhenNothingFits: the server reports a window
// smaller than the system prompt and the tool definitions. The turn ends
// before any request is sent, with an error that says the window the
// server reported, where, and to give the server a larger context
// (model.context_window cannot make it larger). Before, the request was
// sent and refused, with advice to set model.context_window.
func TestReportedWindowNamedWhenNothingFits(t *testing.T) {
	t.Parallel()
	fake := fakeopenai.New(fakeopenai.Options{Reply: agentModel, MaxBytes: 1100 * 4, Overflow: fakeopenai.OverflowLlamaCppOld,
		Window: fakeopenai.WindowReport{Kind: fakeopenai.KindLlamaCpp, Tokens: 1100, Model: "test-model"}})
	defer fake.Close()
	h := startWithFake(t, t.TempDir(), fake, nil)
	s := h.NewSession("build")
	r := h.Prompt(s.SessionID, "note hi")
	if r.StopReason != "error" || r.Error == nil {
		t.Fatalf("prompt = %+v, want an error", r)
	}
	for _, want := range []string{"the endpoint reports the model's context window as 1100 tokens (llama.cpp /props)", "start the model's server with a larger context"} {
		if !strings.Contains(r.Error.Message, want) {
			t.Fatalf("error %q does not say %q", r.Error.Message, want)
		}
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("%d requests sent to a window nothing fits", n)
	}
}

// TestCheckModelSaysTheWindow: agent/checkModel (what a person runs to see
// whether the setup works) says the context window requests are budgeted
// by and where it comes from, and so does agentls.checkModel's line in a
// plain editor.
func TestCheckModelSaysTheWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		model  map[string]any
		report fakeopenai.WindowReport
		window int
		source string
	}{
		{"reported", nil, fakeopenai.WindowReport{Kind: fakeopenai.KindLlamaCpp, Tokens: 12_288, Model: "test-model"}, 12_288, "llama.cpp /props"},
		{"configured", map[string]any{"context_window": 65_536}, fakeopenai.WindowReport{Kind: fakeopenai.KindLlamaCpp, Tokens: 12_288, Model: "test-model"}, 65_536, "model.context_window"},
		{"known", map[string]any{"name": "qwen2.5-coder"}, fakeopenai.WindowReport{}, 32_768, "known for the model's family"},
		{"assumed", nil, fakeopenai.WindowReport{}, 32_768, "assumed: a model agentls does not know"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakeopenai.New(fakeopenai.Options{Window: tt.report, Models: []string{"test-model", "qwen2.5-coder"}})
			defer fake.Close()
			h := startWithFake(t, t.TempDir(), fake, tt.model)
			c, err := lsptest.Call(h, agentproto.CheckModel, agentproto.Empty{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.OK || c.ContextWindow != tt.window || c.ContextWindowSource != tt.source {
				t.Fatalf("checkModel = ok %v, window %d (%q); want %d (%q)", c.OK, c.ContextWindow, c.ContextWindowSource, tt.window, tt.source)
			}
			if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.checkModel", "arguments": []any{map[string]any{}}}, nil); err != nil {
				t.Fatal(err)
			}
			h.AwaitShown(fmt.Sprintf("agentls: model %s at %s answers; context window %d tokens (%s)", c.Model, fake.URL, tt.window, tt.source))
		})
	}
}
