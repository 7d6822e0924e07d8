package openai

import (
	"encoding/json"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
)

// emptyParameters is the schema sent for a tool that declares none.
var emptyParameters = json.RawMessage(`{"type":"object","properties":{}}`)

// chatRequest maps an llm.Request to a go-openai request without messages
// or tools (not yet marked as streaming or not) and the request's messages
// and tools, encoded (see encode.go).
func (p *Provider) chatRequest(req llm.Request) (goopenai.ChatCompletionRequest, encoded, error) {
	model := req.Model
	if model == "" {
		model = p.cfg.Model
	}
	out := goopenai.ChatCompletionRequest{Model: model}
	if maxTokens := p.cfg.MaxTokens; maxTokens > 0 {
		if req.MaxTokens > 0 {
			maxTokens = min(maxTokens, req.MaxTokens)
		}
		if usesCompletionTokens(model) {
			out.MaxCompletionTokens = maxTokens
		} else {
			// Local servers (Ollama, vLLM, llama.cpp) read max_tokens and
			// ignore the newer max_completion_tokens.
			//lint:ignore SA1019 deprecated for OpenAI's reasoning models only, which take the branch above
			out.MaxTokens = maxTokens
		}
	}
	enc, err := p.enc.request(req, model, p.echoMode())
	return out, enc, err
}

// chatMessage maps one conversation message. A tool message carries its
// content and tool_call_id; llm.Message.Name is not sent (the tool role has no
// name field).
func chatMessage(m llm.Message) goopenai.ChatCompletionMessage {
	out := goopenai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content}
	switch m.Role {
	case llm.RoleTool:
		out.ToolCallID = m.ToolCallID
	case llm.RoleAssistant:
		for _, c := range m.ToolCalls {
			out.ToolCalls = append(out.ToolCalls, goopenai.ToolCall{
				ID:   c.ID,
				Type: goopenai.ToolTypeFunction,
				Function: goopenai.FunctionCall{
					Name:      c.Name,
					Arguments: c.Arguments,
				},
			})
		}
	}
	return out
}

// usesCompletionTokens reports whether a model rejects max_tokens and wants
// max_completion_tokens: the o1/o3/o4 reasoning models and gpt-5/gpt-6. A
// routing prefix ("openai/o3-mini" on OpenRouter) is ignored.
func usesCompletionTokens(model string) bool {
	if i := strings.LastIndexByte(model, '/'); i >= 0 {
		model = model[i+1:]
	}
	for _, prefix := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, prefix) {
			return true
		}
	}
	return false
}
