package scripted

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

func load(t *testing.T, name string) *Provider {
	t.Helper()
	s, err := Load(filepath.Join("testdata", "valid", name))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return New(s)
}

func play(p *Provider, req llm.Request) (llm.Response, []llm.Event, error) {
	var evs []llm.Event
	resp, err := p.Complete(context.Background(), req, func(e llm.Event) { evs = append(evs, e) })
	return resp, evs, err
}

// joined concatenates the events of one kind and counts them.
func joined(evs []llm.Event, kind llm.EventKind) (string, int) {
	var b strings.Builder
	n := 0
	for _, e := range evs {
		if e.Kind == kind {
			b.WriteString(e.Text)
			n++
		}
	}
	return b.String(), n
}

func TestReplayPlanFlow(t *testing.T) {
	p := load(t, "plan_flow.yaml")
	if p.Remaining() != 3 {
		t.Fatalf("Remaining = %d, want 3", p.Remaining())
	}

	// Step 1: thought, text and two calls.
	req := llm.Request{
		System:   "You are agentls. PLAN mode is active.",
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Give me an overview of the repo"}},
	}
	resp, evs, err := play(p, req)
	if err != nil {
		t.Fatalf("step 1: %v", err)
	}
	want := llm.Response{
		Message: llm.Message{Role: llm.RoleAssistant, Content: "Let me look at the repository layout before planning anything.",
			Thinking: "The user wants an overview, so I list the files first.", // kept to be shown again
			ToolCalls: []agentproto.ToolCall{
				{ID: "call_1_1", Name: "list_files", Arguments: `{"depth":2,"path":"."}`},
				{ID: "grep_todo", Name: "grep", Arguments: `{"paths":["agent","server"],"pattern":"TODO"}`},
			}},
		FinishReason: "tool_calls",
		Usage:        llm.Usage{InputTokens: 14, OutputTokens: 25}, // words: 7+7 in; 11+10+2+2 out
	}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("step 1\n got %+v\nwant %+v", resp, want)
	}
	if evs[0].Kind != llm.EventThought {
		t.Errorf("first event %v, want the thought first", evs[0])
	}
	if th, n := joined(evs, llm.EventThought); th != p.script.Steps[0].Thought || n < 2 {
		t.Errorf("thought streamed as %d chunks %q", n, th)
	}
	if tx, n := joined(evs, llm.EventText); tx != want.Message.Content || n < 2 {
		t.Errorf("text streamed as %d chunks %q", n, tx)
	}
	if p.Remaining() != 2 {
		t.Errorf("Remaining = %d, want 2", p.Remaining())
	}

	// Step 2: the tool results must be in the request.
	req.Messages = append(req.Messages, resp.Message,
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_1_1", Content: `{"files":["go.mod","agent/turn.go"]}`},
		llm.Message{Role: llm.RoleTool, ToolCallID: "grep_todo", Content: `{"matches":["agent/turn.go:12: // TODO"]}`})
	resp, _, err = play(p, req)
	if err != nil {
		t.Fatalf("step 2: %v", err)
	}
	if resp.Message.Content != "I found two TODOs." || resp.FinishReason != "stop" || resp.Message.ToolCalls != nil {
		t.Errorf("step 2: %+v", resp)
	}

	// Step 3: raw (broken) arguments are passed as they are.
	resp, evs, err = play(p, req)
	if err != nil {
		t.Fatalf("step 3: %v", err)
	}
	wantCalls := []agentproto.ToolCall{{ID: "call_3_1", Name: "write_file", Arguments: `{"path": "a.go", "content": "pack`}}
	if !reflect.DeepEqual(resp.Message.ToolCalls, wantCalls) || len(evs) != 0 {
		t.Errorf("step 3: calls %+v events %v", resp.Message.ToolCalls, evs)
	}

	// Exhausted.
	if _, _, err := play(p, req); err == nil || err.Error() != "script plan-flow has no step left" {
		t.Errorf("exhausted: error = %v", err)
	}
	if p.Remaining() != 0 {
		t.Errorf("Remaining = %d, want 0", p.Remaining())
	}
}

func TestExpectations(t *testing.T) {
	base := llm.Request{
		System: "You are agentls, a coding agent.\nPLAN mode is active: do not edit files.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Read go.mod please"},
			{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"go.mod"}`}}},
			{Role: llm.RoleTool, ToolCallID: "c1", Content: `{"content":"module github.com/agentls/agentls"}`},
		},
	}
	noMessages := base
	noMessages.Messages = nil
	tests := []struct {
		name    string
		expect  Expect
		req     llm.Request
		wantErr string // exact, after "script t step 2: "; empty: met
	}{
		{"all met", Expect{
			SystemContains:      []string{"PLAN mode", "agentls"},
			SystemNotContains:   []string{"BUILD mode"},
			LastMessageContains: []string{"module github.com"},
			ToolResultContains:  map[string][]string{"c1": {"agentls/agentls"}},
		}, base, ""},
		{"system_contains unmet", Expect{SystemContains: []string{"BUILD mode"}}, base,
			`expect system_contains "BUILD mode": not in the system prompt "You are agentls, a coding agent. PLAN mode is active: do not edit files."`},
		{"system_not_contains violated", Expect{SystemNotContains: []string{"do not edit"}}, base,
			`expect system_not_contains "do not edit": found in the system prompt at "…LAN mode is active: do not edit files."`},
		{"last message unmet", Expect{LastMessageContains: []string{"go.sum"}}, base,
			`expect last_message_contains "go.sum": not in the last message (tool) "{\"content\":\"module github.com/agentls/agentls\"}"`},
		{"no messages", Expect{LastMessageContains: []string{"x"}}, noMessages,
			`expect last_message_contains: the request has no messages`},
		{"tool result substring missing", Expect{ToolResultContains: map[string][]string{"c1": {"module", "go 1.26"}}}, base,
			`expect tool_result_contains[c1] "go 1.26": not in the tool result "{\"content\":\"module github.com/agentls/agentls\"}"`},
		{"tool result for another call", Expect{ToolResultContains: map[string][]string{"c9": {"x"}}}, base,
			`expect tool_result_contains[c9]: no tool message answers it (tool messages answer c1)`},
		{"no tool messages", Expect{ToolResultContains: map[string][]string{"c1": {"x"}}}, noMessages,
			`expect tool_result_contains[c1]: the request has no tool messages`},
		{"several failures reported together", Expect{SystemContains: []string{"zzz"}, ToolResultContains: map[string][]string{"b": {"x"}, "a": {"y"}}}, base,
			`expect system_contains "zzz": not in the system prompt "You are agentls, a coding agent. PLAN mode is active: do not edit files."; ` +
				`expect tool_result_contains[a]: no tool message answers it (tool messages answer c1); ` +
				`expect tool_result_contains[b]: no tool message answers it (tool messages answer c1)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect := tt.expect
			p := New(&Script{Name: "t", Steps: []Step{{Text: "first"}, {Text: "second", Expect: &expect}}})
			if _, _, err := play(p, llm.Request{}); err != nil {
				t.Fatalf("step 1: %v", err)
			}
			resp, _, err := play(p, tt.req)
			if tt.wantErr == "" {
				if err != nil || resp.Message.Content != "second" {
					t.Fatalf("step 2: %+v, %v", resp, err)
				}
				return
			}
			if want := "script t step 2: " + tt.wantErr; err == nil || err.Error() != want {
				t.Errorf("error\n got %v\nwant %s", err, want)
			}
			if p.Remaining() != 0 {
				t.Errorf("the failed step was not used up")
			}
		})
	}
}

// TestOptionalStep: an optional step answers a request that meets its
// expectations and is passed over for the next step when the request does
// not (a turn the client cancelled before its last request).
func TestOptionalStep(t *testing.T) {
	user := func(text string) llm.Request {
		return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}}
	}
	tests := []struct {
		name     string
		requests []string // the last message of each request
		want     []string // the text each answers with
	}{
		{"met: played in turn", []string{"go", "result", "again"}, []string{"first", "maybe", "after"}},
		{"unmet: passed over", []string{"go", "again"}, []string{"first", "after"}},
		{"two optional passed over", []string{"go", "again"}, []string{"first", "after"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := []Step{
				{Text: "first"},
				{Text: "maybe", Optional: true, Expect: &Expect{LastMessageContains: []string{"result"}}},
				{Text: "after", Expect: &Expect{LastMessageContains: []string{"again"}}},
			}
			if i == 2 {
				extra := Step{Text: "perhaps", Optional: true, Expect: &Expect{LastMessageContains: []string{"other"}}}
				steps = append(steps[:2], append([]Step{extra}, steps[2:]...)...)
			}
			s := &Script{Name: "t", Steps: steps}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			p := New(s)
			for j, r := range tt.requests {
				resp, _, err := play(p, user(r))
				if err != nil || resp.Message.Content != tt.want[j] {
					t.Fatalf("request %d (%q): %q, %v; want %q", j+1, r, resp.Message.Content, err, tt.want[j])
				}
			}
			if p.Remaining() != 0 {
				t.Errorf("%d steps left, want none", p.Remaining())
			}
		})
	}
	// A required step after an unmet optional one still fails on its own
	// expectations.
	p := New(&Script{Name: "t", Steps: []Step{
		{Text: "maybe", Optional: true, Expect: &Expect{LastMessageContains: []string{"result"}}},
		{Text: "after", Expect: &Expect{LastMessageContains: []string{"again"}}},
	}})
	if _, _, err := play(p, user("neither")); err == nil || !strings.Contains(err.Error(), "script t step 2: expect last_message_contains \"again\"") {
		t.Errorf("error %v, want step 2's unmet expectation", err)
	}
}

func TestErrorStep(t *testing.T) {
	p := load(t, "error_step.yaml")
	_, evs, err := play(p, llm.Request{})
	if err == nil || err.Error() != "model request failed: 429 Too Many Requests: slow down" || len(evs) != 0 {
		t.Fatalf("error step: err %v, events %v", err, evs)
	}
	resp, _, err := play(p, llm.Request{})
	if err != nil || resp.Message.Content != "recovered" {
		t.Fatalf("next step: %+v, %v", resp, err)
	}
	if _, _, err := play(p, llm.Request{}); err == nil || err.Error() != "script error_step has no step left" {
		t.Errorf("exhausted: %v", err)
	}
}

func TestContextCancelled(t *testing.T) {
	p := New(&Script{Steps: []Step{{Text: "one two three four five six seven"}}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Complete(ctx, llm.Request{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: error = %v", err)
	}
	if p.Remaining() != 1 {
		t.Errorf("a cancelled call used up a step")
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var evs []llm.Event
	_, err := p.Complete(ctx, llm.Request{}, func(e llm.Event) {
		evs = append(evs, e)
		cancel()
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "script unnamed step 1") {
		t.Errorf("cancelled while streaming: error = %v", err)
	}
	if len(evs) != 1 {
		t.Errorf("%d events after cancellation, want 1", len(evs))
	}
}

func TestConcurrentUse(t *testing.T) {
	const n = 20
	s := &Script{Name: "many"}
	for i := range n {
		s.Steps = append(s.Steps, Step{Text: fmt.Sprintf("answer %d", i)})
	}
	p := New(s)
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			resp, err := p.Complete(context.Background(), llm.Request{}, func(llm.Event) {})
			if err != nil {
				t.Errorf("Complete: %v", err)
				return
			}
			mu.Lock()
			seen[resp.Message.Content] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != n || p.Remaining() != 0 {
		t.Errorf("%d distinct answers, %d remaining; want %d and 0", len(seen), p.Remaining(), n)
	}
}

func TestChunks(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"one", []string{"one"}},
		{"one two three", []string{"one two three"}},
		{"one two three four", []string{"one two three", " four"}},
		{"  lead, two three\n\nfour five six seven ", []string{"  lead, two three", "\n\nfour five six", " seven "}},
		{"héllo wörld ünïcode ok", []string{"héllo wörld ünïcode", " ok"}},
		{"   ", []string{"   "}},
	}
	for _, tt := range tests {
		got := chunks(tt.in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("chunks(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Join(got, "") != tt.in {
			t.Errorf("chunks(%q) do not join back", tt.in)
		}
	}
}

func TestUsageEstimate(t *testing.T) {
	p := New(&Script{Steps: []Step{{Thought: "hmm ok", Text: "three word answer", ToolCalls: []Call{{Name: "grep", RawArgs: `{"pattern": "x y"}`}}}}})
	req := llm.Request{
		System: "be brief",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "find x y"},
			{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{Name: "read_file", Arguments: `{"path": "a"}`}}},
		},
	}
	resp, err := p.Complete(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	// input: 2 + 3 + (1 + 2); output: 2 + 3 + (1 + 3)
	if want := (llm.Usage{InputTokens: 8, OutputTokens: 9}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
}
