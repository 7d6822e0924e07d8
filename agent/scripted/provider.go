package scripted

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// Provider replays a Script, one step per Complete call. It is safe for
// concurrent use: each call takes the next step.
type Provider struct {
	script *Script

	mu   sync.Mutex
	next int // index of the next step to play
	// children is the next step of each children section.
	children map[string]int
}

var _ llm.Provider = (*Provider)(nil)

// New returns a Provider replaying s from its first step.
func New(s *Script) *Provider {
	return &Provider{script: s}
}

// Remaining returns how many steps have not been played yet.
func (p *Provider) Remaining() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.script.Steps) - p.next
}

// name returns the script name used in errors.
func (p *Provider) name() string {
	if p.script.Name == "" {
		return "unnamed"
	}
	return p.script.Name
}

// Complete plays the next step: it checks the step's expectations against
// req, then streams its thought and text to onEvent (which may be nil) and
// returns its text and tool calls, with FinishReason "tool_calls" when there
// are calls and "stop" otherwise. A step with an error returns that error
// text as is. The step is used up even when its expectations fail, except
// an optional one, which is passed over for the step after it. Usage is
// an estimate: the words of the system prompt and messages (content and
// tool-call arguments) as input tokens, and the words of the answer as
// output tokens. A cancelled ctx returns ctx.Err() (wrapped) and, if it was
// cancelled before the call, leaves the step unplayed.
func (p *Provider) Complete(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, fmt.Errorf("script %s: %w", p.name(), err)
	}
	steps, next, section := p.script.Steps, &p.next, ""
	p.mu.Lock()
	if req.Agent != "" {
		section = "children " + req.Agent + " "
		var ok bool
		if steps, ok = p.script.Children[req.Agent]; !ok {
			p.mu.Unlock()
			return llm.Response{}, fmt.Errorf("script %s has no children section %q", p.name(), req.Agent)
		}
		if p.children == nil {
			p.children = map[string]int{}
		}
		n := p.children[req.Agent]
		next = &n
	}
	if *next >= len(steps) {
		p.mu.Unlock()
		return llm.Response{}, fmt.Errorf("script %s %shas no step left", p.name(), section)
	}
	i := *next
	// An optional step whose expectations the request does not meet is
	// passed over (Step.Optional): validation put a step after it.
	for i+1 < len(steps) && steps[i].Optional && steps[i].Expect != nil && steps[i].Expect.check(req) != nil {
		i++
	}
	*next = i + 1
	if req.Agent != "" {
		p.children[req.Agent] = *next
	}
	p.mu.Unlock()

	step := steps[i]
	where := fmt.Sprintf("script %s %sstep %d", p.name(), section, i+1)
	if step.Expect != nil {
		if err := step.Expect.check(req); err != nil {
			return llm.Response{}, fmt.Errorf("%s: %w", where, err)
		}
	}
	if step.Error != "" {
		return llm.Response{}, errors.New(step.Error)
	}

	msg := llm.Message{Role: llm.RoleAssistant, Content: step.Text, Thinking: step.Thought} // the thought kept to be shown again
	out := countWords(step.Thought, step.Text)
	for j, c := range step.ToolCalls {
		args, err := c.arguments()
		if err != nil {
			return llm.Response{}, fmt.Errorf("%s: tool call %d (%s): %w", where, j+1, c.Name, err)
		}
		msg.ToolCalls = append(msg.ToolCalls, agentproto.ToolCall{ID: c.id(i, j), Name: c.Name, Arguments: args})
		out += countWords(c.Name, args)
	}

	for _, ev := range events(step) {
		if err := ctx.Err(); err != nil {
			return llm.Response{}, fmt.Errorf("%s: %w", where, err)
		}
		if onEvent != nil {
			onEvent(ev)
		}
	}

	finish := step.FinishReason
	switch {
	case finish != "":
	case len(msg.ToolCalls) > 0:
		finish = "tool_calls"
	default:
		finish = "stop"
	}
	return llm.Response{
		Message:      msg,
		FinishReason: finish,
		Usage:        llm.Usage{InputTokens: inputWords(req), OutputTokens: out},
	}, nil
}

// events returns the stream of a step: its thought chunks, then its text
// chunks.
func events(st Step) []llm.Event {
	var evs []llm.Event
	for _, c := range chunks(st.Thought) {
		evs = append(evs, llm.Event{Kind: llm.EventThought, Text: c})
	}
	for _, c := range chunks(st.Text) {
		evs = append(evs, llm.Event{Kind: llm.EventText, Text: c})
	}
	return evs
}

// inputWords estimates a request's input tokens.
func inputWords(req llm.Request) int {
	n := countWords(req.System)
	for _, m := range req.Messages {
		n += countWords(m.Content)
		for _, c := range m.ToolCalls {
			n += countWords(c.Name, c.Arguments)
		}
	}
	return n
}
