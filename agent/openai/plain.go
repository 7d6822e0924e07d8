package openai

import (
	"context"
	"fmt"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
	"github.com/agentls/agentls/agentproto"
)

// plainAttempt makes one non-streaming request and emits the answer's
// reasoning and text as one event each.
func (p *Provider) plainAttempt(ctx context.Context, creq goopenai.ChatCompletionRequest, enc encoded, onEvent func(llm.Event), ex *exchange) (llm.Response, bool, error) {
	creq.Stream = false
	creq.StreamOptions = nil
	wire := wireRequest(creq, enc)
	var err error
	if ex.body, err = body(wire, enc); err != nil {
		return llm.Response{}, false, err
	}
	ex.captureJSON = true // the body of a 200 that holds an error object instead of choices
	cr, err := p.client.CreateChatCompletion(withExchange(ctx, ex), wire)
	if err != nil {
		return llm.Response{}, false, err
	}
	if len(cr.Choices) == 0 {
		if err := errorObject(ex.jsonBody); err != nil {
			return llm.Response{}, false, err
		}
		return llm.Response{}, false, &kit.Malformed{Err: fmt.Errorf("the answer has no choices: %s", kit.Excerpt(string(ex.jsonBody)))}
	}
	resp, emitted := convertWhole(&cr, onEvent, ex)
	return resp, emitted, nil
}

// completionResponse converts a whole (non-streamed) answer; it must have at
// least one choice.
func completionResponse(cr *goopenai.ChatCompletionResponse) llm.Response {
	choice := cr.Choices[0]
	msg := llm.Message{Role: llm.RoleAssistant, Content: choice.Message.Content}
	if msg.Content == "" {
		msg.Content = choice.Message.Refusal
	}
	for i, c := range choice.Message.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, agentproto.ToolCall{
			ID:        callID(c.ID, i),
			Name:      c.Function.Name,
			Arguments: c.Function.Arguments,
		})
	}
	return llm.Response{
		Message:      msg,
		FinishReason: finishReason(string(choice.FinishReason), len(msg.ToolCalls)),
		Usage:        usage(&cr.Usage),
	}
}

// emitWhole sends a whole message's reasoning and text to onEvent and reports
// whether anything was sent.
func emitWhole(m goopenai.ChatCompletionMessage, onEvent func(llm.Event)) bool {
	text := m.Content
	if text == "" {
		text = m.Refusal
	}
	emitted := false
	for _, ev := range []llm.Event{{Kind: llm.EventThought, Text: m.ReasoningContent}, {Kind: llm.EventText, Text: text}} {
		if ev.Text == "" {
			continue
		}
		emitted = true
		if onEvent != nil {
			onEvent(ev)
		}
	}
	return emitted
}

// usage converts the token counts, with the prompt-cache hits when the
// endpoint reports them.
func usage(u *goopenai.Usage) llm.Usage {
	// A negative count (a broken or hostile endpoint) would lower the
	// session's cost and give a sub-agent's token budget back: none is.
	out := llm.Usage{InputTokens: max(u.PromptTokens, 0), OutputTokens: max(u.CompletionTokens, 0)}
	if d := u.PromptTokensDetails; d != nil {
		out.CachedInputTokens = min(max(d.CachedTokens, 0), out.InputTokens)
	}
	return out
}
