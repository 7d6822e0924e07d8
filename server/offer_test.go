package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
)

// offerServer is a fake OpenAI endpoint that records the names of the tools
// offered in each request and answers from a script: each answer is either
// a tool call (name and arguments) or, when name is empty, text ending the
// turn. Before answering request hold (1-based), it reports the request on
// held and waits for release.
type offerServer struct {
	answers []offerAnswer
	hold    int
	held    chan struct{}
	release chan struct{}

	mu      sync.Mutex
	tools   [][]string
	systems []string // each request's system prompt
}

type offerAnswer struct{ name, args string }

func (o *offerServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Function.Name)
	}
	system := ""
	if len(req.Messages) > 0 && req.Messages[0].Role == "system" {
		system = req.Messages[0].Content
	}
	o.mu.Lock()
	o.tools = append(o.tools, names)
	o.systems = append(o.systems, system)
	n := len(o.tools)
	o.mu.Unlock()
	if n == o.hold {
		select {
		case o.held <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		select {
		case <-o.release:
		case <-r.Context().Done():
			return
		}
	}
	a := offerAnswer{}
	if n <= len(o.answers) {
		a = o.answers[n-1]
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta, finish string) {
		fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, finish)
	}
	if a.name == "" {
		chunk(`{"role":"assistant","content":"done"}`, `"stop"`)
	} else {
		args, _ := json.Marshal(a.args)
		chunk(fmt.Sprintf(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_%d","type":"function","function":{"name":%q,"arguments":%s}}]}`, n, a.name, args), `"tool_calls"`)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// system returns the system prompt of request i (1-based).
func (o *offerServer) system(i int) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i > len(o.systems) {
		return ""
	}
	return o.systems[i-1]
}

// offered returns the tool names of every request so far.
func (o *offerServer) offered() [][]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.tools)
}

// offeredNames are the names of the tools the registry offers in mode.
func offeredNames(t *testing.T, mode agentproto.Mode) []string {
	t.Helper()
	reg, err := tools.NewRegistry(tools.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range reg.Offered(mode) {
		// No language server serves these tests' workspaces (the harness's
		// PATH is empty): the code and rename tools are not offered.
		if !tools.NeedsLanguageIntel(s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

func wantOffered(t *testing.T, got [][]string, want ...[]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d model requests, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("request %d offers %q\nwant %q", i+1, got[i], want[i])
		}
	}
}

// TestPlanModeOffersOnlyPlanTools: through the real server and the OpenAI
// provider, a plan-mode request offers only the tools plan mode allows and a
// build-mode request offers every tool; a call to a tool that is not offered
// is still judged by the guard (a plan-mode refusal, not "unknown tool").
func TestPlanModeOffersOnlyPlanTools(t *testing.T) {
	t.Parallel()
	planTools, allTools := offeredNames(t, agentproto.ModePlan), offeredNames(t, agentproto.ModeBuild)
	if len(planTools) >= len(allTools) || slices.Contains(planTools, "run") || !slices.Contains(allTools, "run") {
		t.Fatalf("plan mode offers %q, build mode %q", planTools, allTools)
	}
	chat := &offerServer{answers: []offerAnswer{
		{"run", `{"command":"touch x"}`}, {}, // plan mode: run is not offered, and refused
		{}, // build mode
	}}
	h := startWithOpenAI(t, chat)
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "plan it"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	status, out := h.ToolOutput("call_1")
	refusal, _ := out["refusal"].(map[string]any)
	if status != "failed" || refusal == nil || refusal["tool_name"] != "run" || !strings.Contains(fmt.Sprint(out["error"]), "Plan Mode") {
		t.Errorf("plan-mode run: status %s, result %v; want the guard's plan-mode refusal", status, out)
	}
	if err := h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "build"}, nil); err != nil {
		t.Fatal(err)
	}
	if r := h.Prompt(s.SessionID, "build it"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	wantOffered(t, chat.offered(), planTools, planTools, allTools)
	wantSystem(t, chat.system(1), "Your tools in plan mode are "+quoted(planTools)+".")
	wantSystem(t, chat.system(3), "Your tools in build mode are "+quoted(allTools)+".")
}

// quoted is names as the prompts list them: `a`, `b`.
func quoted(names []string) string {
	return "`" + strings.Join(names, "`, `") + "`"
}

func wantSystem(t *testing.T, system, want string) {
	t.Helper()
	if !strings.Contains(system, want) {
		t.Errorf("system prompt lacks %q:\n%s", want, system)
	}
}

// TestOfferedToolsFollowModeMidTurn: the offered set is read at each model
// request, so a mode change in the middle of a turn (by the model's
// enter_plan_mode, or by the user while a request is in flight) changes it
// at the next request of the same turn.
func TestOfferedToolsFollowModeMidTurn(t *testing.T) {
	t.Parallel()
	planTools, allTools := offeredNames(t, agentproto.ModePlan), offeredNames(t, agentproto.ModeBuild)
	t.Run("enter_plan_mode", func(t *testing.T) {
		chat := &offerServer{answers: []offerAnswer{{"enter_plan_mode", `{"reason":"risky"}`}, {}}}
		h := startWithOpenAI(t, chat)
		s := h.NewSession("build")
		if r := h.Prompt(s.SessionID, "refactor"); r.StopReason != "end_turn" {
			t.Fatalf("prompt = %+v (%s)", r, r.Error)
		}
		wantOffered(t, chat.offered(), allTools, planTools)
		wantSystem(t, chat.system(2), "changed from BUILD to PLAN")
		wantSystem(t, chat.system(2), "Your tools now are "+quoted(planTools)+".")
	})
	t.Run("user switches to build", func(t *testing.T) {
		chat := &offerServer{answers: []offerAnswer{{"read", `{"path":"notes.txt"}`}, {}},
			hold: 1, held: make(chan struct{}), release: make(chan struct{})}
		h := startWithOpenAI(t, chat)
		if err := writeFile(h.Dir, "notes.txt", "hello\n"); err != nil {
			t.Fatal(err)
		}
		s := h.NewSession("plan")
		done := h.PromptAsync(s.SessionID, "look")
		select { // the first request is in flight, with the plan tools
		case <-chat.held:
		case <-h.Ctx.Done():
			t.Fatal("the first model request never came")
		}
		if err := h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "build"}, nil); err != nil {
			t.Fatal(err)
		}
		close(chat.release)
		if r := <-done; r.StopReason != "end_turn" {
			t.Fatalf("prompt = %+v (%s)", r, r.Error)
		}
		wantOffered(t, chat.offered(), planTools, allTools)
		wantSystem(t, chat.system(2), "Your tools now are "+quoted(allTools)+".")
	})
}
