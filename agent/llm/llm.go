// Package llm holds the provider-neutral chat model types: the messages of a
// conversation, tool specifications and calls, the streaming events a provider
// emits while it answers, and the Provider interface the agent's turn loop uses.
package llm

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/agentls/agentls/agentproto"
)

// ErrContextExceeded is matched (errors.Is) by a provider's error when the
// endpoint refused a request as longer than the model's context window.
var ErrContextExceeded = errors.New("the request is longer than the model's context window")

// ContextCounts are the numbers an endpoint stated when it refused a
// request as too long, each 0 when it did not state it: the model's context
// window, the request's input tokens and the tokens asked for the answer
// (counted against the same window by some servers).
type ContextCounts struct {
	Window, Prompt, Completion int
}

// CountsOf is the ContextCounts an error carries (a provider's error that
// has a ContextCounts method), zero when none.
func CountsOf(err error) ContextCounts {
	var c interface{ ContextCounts() ContextCounts }
	if errors.As(err, &c) {
		return c.ContextCounts()
	}
	return ContextCounts{}
}

// Role is who wrote a Message.
type Role string

// The roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation. It is also the unit persisted in a
// session's `.chat` file (one JSON object per line).
type Message struct {
	// ID is the message's id (a UUIDv7; derived for older sessions): a
	// checkpoint and a rewind name the message by it.
	ID   string `json:"id,omitempty"`
	Role Role   `json:"role"`
	// Content is the text (for a tool message: the tool result JSON).
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message asks for. A call's
	// Arguments are the raw JSON text the model produced: they may be
	// invalid JSON (the turn loop reports that to the model as a failed
	// tool call). Its Title and Kind are how the editor shows the call,
	// kept with the history; never sent to the model.
	ToolCalls []agentproto.ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Name is the tool name of a tool message.
	Name string `json:"name,omitempty"`
	// Thinking is the reasoning the model sent apart before this assistant
	// message, as it was shown live: a reloaded chat shows it again. It is
	// not sent to the model, except where a provider must send it back
	// (agent/openai: to the model that wrote it, by its ProviderState).
	Thinking string `json:"thinking,omitempty"`
	// ProviderState is what a provider must get back on later requests to
	// continue from this message (reasoning items, encrypted thinking),
	// opaque to everyone else. Omitted when empty, so older .chat files
	// load unchanged.
	ProviderState json.RawMessage `json:"provider_state,omitempty"`
	// Outcome is how the call a tool message answers ended, as the editor
	// showed it (status, refusal, the question asked and its answers);
	// never sent to the model. Nil in sessions saved before it.
	Outcome *ToolOutcome `json:"outcome,omitempty"`
	// Error is, on a user message shown to the editor, the error its turn
	// ended with (never saved with the message nor sent to the model).
	Error string `json:"error,omitempty"`
	// Rewound is, on a message shown to the editor, set when a
	// conversation rewind left it out (never saved nor sent to the model).
	Rewound bool `json:"rewound,omitempty"`
}

// ToolOutcome is how a tool call ended, kept so that a reloaded chat shows
// it as it was shown live.
type ToolOutcome struct {
	// Status is "completed" or "failed" (a refused call is failed).
	Status string `json:"status"`
	// Refusal is the plan-mode or guard refusal of a refused call.
	Refusal json.RawMessage `json:"refusal,omitempty"`
	// Questions are the questions the call asked the user (ask_user, a plan
	// approval, a permission), Answers the user's answers, Dismissed
	// whether the user dismissed them.
	Questions json.RawMessage `json:"questions,omitempty"`
	Answers   json.RawMessage `json:"answers,omitempty"`
	Dismissed bool            `json:"dismissed,omitempty"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"` // a JSON Schema object
}

// Request is one model call.
type Request struct {
	// Model overrides the provider's configured model name when not empty.
	Model    string
	System   string    // the system prompt (persona, mode reminder, plan)
	Messages []Message // the conversation, without the system prompt
	Tools    []ToolSpec
	// MaxTokens, when positive, caps this request's answer below the
	// provider's configured cap (model.max_tokens): the answer reserve of
	// the model's window, so that a small window (a plan model's 8k) is not
	// asked for more than it holds with the prompt.
	MaxTokens int
	// Agent names the sub-agent whose request this is ("" for a session
	// of the user's): its kind and index, "explore-1", below another
	// sub-agent "build-1/explore-2". A scripted model replays the
	// script's section of that name; other providers ignore it.
	Agent string
}

// EventKind names a streaming Event.
type EventKind string

// The kinds of streaming events.
const (
	EventText    EventKind = "text"    // a piece of the assistant's answer
	EventThought EventKind = "thought" // a piece of reasoning, when the provider exposes it
)

// Event is a piece of the answer, emitted while the model streams.
type Event struct {
	Kind EventKind
	Text string
}

// Usage counts tokens of one model call.
type Usage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	// CachedInputTokens is the part of InputTokens the provider served from
	// its prompt cache (billed at the cached price), when it says.
	CachedInputTokens int `json:"cachedInputTokens,omitempty"`
}

// Response is the complete answer of one model call.
type Response struct {
	// Message is the assistant message: its text and the tool calls it asks for.
	Message Message
	// FinishReason is "stop", "tool_calls", "length", or a provider's own value.
	FinishReason string
	Usage        Usage
}

// Provider is a chat model. Complete streams the answer to onEvent (which may
// be nil) as it arrives and returns the whole answer. It honours ctx: a
// cancelled context aborts the HTTP request promptly.
type Provider interface {
	Complete(ctx context.Context, req Request, onEvent func(Event)) (Response, error)
}
