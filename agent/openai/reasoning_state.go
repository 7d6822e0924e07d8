package openai

import (
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
)

// A reasoning model's thinking goes back to its server on later requests
// where the server needs it: DeepSeek refuses a request whose history lacks
// the reasoning of an assistant message from a span (between two user
// messages) in which the model called a tool ("Missing reasoning_content
// field in the assistant message at message index N", or "The
// reasoning_content in the thinking mode must be passed back to the
// API"), and interleaved-thinking models (Kimi K2, MiniMax M2, gpt-oss)
// continue a tool loop better with it. It is kept as the message's
// Thinking (persisted with the session, shown again on reload), with the
// model that wrote it in its ProviderState, and sent back only to that
// model, in the field its server sent it in.
// A server that still refuses a request for a missing reasoning_content
// (DeepSeek V4 asks it of every assistant message once the request has
// tools, and of messages another model wrote) gets it on every assistant
// message from then on, empty where none was kept (Provider.echoAll); a
// server that refuses the field (Groq's strict schema: "property
// 'reasoning' is unsupported") gets none from then on (Provider.noEcho).
// Either way the refused request is made again at once.

// reasoningState is an assistant message's ProviderState: the model that
// wrote its reasoning (the message's Thinking) and the field its server
// sent it in.
type reasoningState struct {
	Model string `json:"model"`
	Field string `json:"field,omitempty"` // "reasoning" or reasoning_content (empty)
}

// Fields a server sends reasoning in.
const (
	fieldReasoningContent = "reasoning_content"
	fieldReasoning        = "reasoning"
)

// keepReasoning keeps text, the reasoning model wrote in field, with msg:
// its Thinking, and who wrote it in its ProviderState (nothing when text
// is empty).
func keepReasoning(msg *llm.Message, model, field, text string) {
	if text == "" {
		return
	}
	st := reasoningState{Model: model}
	if field == fieldReasoning {
		st.Field = fieldReasoning
	}
	b, err := json.Marshal(st)
	if err != nil {
		return
	}
	msg.Thinking, msg.ProviderState = text, b
}

// echoMode is which assistant messages carry reasoning back.
type echoMode int

const (
	// echoInSpans: those echoSpans marks, with the model's own reasoning.
	echoInSpans echoMode = iota
	// echoOnAll: every assistant message, empty where none was kept (a
	// server that demanded it: reasoningDemanded).
	echoOnAll
	// echoNone: none (a server that refused it: reasoningRefused).
	echoNone
)

// echoMode is how p's requests carry reasoning back now.
func (p *Provider) echoMode() echoMode {
	switch {
	case p.noEcho.Load():
		return echoNone
	case p.echoAll.Load():
		return echoOnAll
	}
	return echoInSpans
}

// echo is the reasoning sent back with a message: its field and text
// (field "" for none).
type echo struct {
	field, text string
}

// echoTo says whose reasoning goes back with a message: the request's
// model's (model; "" for none), and whether a message without it gets an
// empty reasoning_content (placeholder: a server that demands it on every
// assistant message, reasoningDemanded).
type echoTo struct {
	model       string
	placeholder bool
}

// reasoningEcho is what of m's reasoning is sent back for to: its kept
// reasoning when to.model wrote it; else an empty reasoning_content when
// to asks for a placeholder (DeepSeek takes it for a message another model
// wrote, or one from before reasoning was kept); else none (another
// model's thinking, or a state this provider did not write).
func reasoningEcho(m llm.Message, to echoTo) echo {
	if m.Role != llm.RoleAssistant || to.model == "" {
		return echo{}
	}
	var st reasoningState
	if m.Thinking != "" && len(m.ProviderState) > 0 && json.Unmarshal(m.ProviderState, &st) == nil && st.Model == to.model {
		if st.Field == fieldReasoning {
			return echo{fieldReasoning, m.Thinking}
		}
		return echo{fieldReasoningContent, m.Thinking}
	}
	if to.placeholder {
		return echo{fieldReasoningContent, ""}
	}
	return echo{}
}

// echoSpans marks the messages whose reasoning is sent back: the assistant
// messages of each span between two user messages in which the model
// called a tool (DeepSeek's rule; a turn without tools needs none, and
// servers drop it).
func echoSpans(msgs []llm.Message) []bool {
	out := make([]bool, len(msgs))
	start := 0
	mark := func(end int) {
		tools := false
		for _, m := range msgs[start:end] {
			if m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0 {
				tools = true
				break
			}
		}
		for i := start; i < end && tools; i++ {
			out[i] = msgs[i].Role == llm.RoleAssistant
		}
	}
	for i, m := range msgs {
		if m.Role == llm.RoleUser {
			mark(i)
			start = i + 1
		}
	}
	mark(len(msgs))
	return out
}
