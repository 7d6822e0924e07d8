package agent

import (
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// unnamedTool is the name a tool call the model sent without one goes out
// under: endpoints refuse a history holding an empty function name, and
// the call's result already says no tool has that name.
const unnamedTool = "unnamed_tool"

// wireSafe is the conversation as every endpoint takes it, whatever a
// model or a cancel left in it (the session keeps what happened; only the
// request changes):
//   - a tool call without a name goes out as unnamedTool (OpenAI refuses
//     an empty function name, for the rest of the session);
//   - a call's empty arguments go out as {} (OpenAI requires them; the
//     call ran as {});
//   - an answer with neither text nor tool calls is left out (Mistral and
//     OpenAI refuse an assistant message with neither);
//   - user messages in a row (a prompt cancelled before its answer, or one
//     whose empty answer was left out) go out as one, in order (chat
//     templates that require alternation refuse two: Mistral v0.3, Gemma).
func wireSafe(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case m.Role == llm.RoleAssistant && len(m.ToolCalls) == 0 && strings.TrimSpace(m.Content) == "":
			continue
		case m.Role == llm.RoleAssistant:
			m.ToolCalls = wireCalls(m.ToolCalls)
		case m.Role == llm.RoleTool && m.Name == "" && m.ToolCallID != "":
			m.Name = unnamedTool
		case m.Role == llm.RoleUser && len(out) > 0 && out[len(out)-1].Role == llm.RoleUser:
			prev := &out[len(out)-1]
			prev.Content = strings.TrimRight(prev.Content, "\n") + "\n\n" + m.Content
			continue
		}
		out = append(out, m)
	}
	return out
}

// wireCalls are calls with a name and JSON arguments each (a copy when one
// changes).
func wireCalls(calls []agentproto.ToolCall) []agentproto.ToolCall {
	var out []agentproto.ToolCall
	for i, c := range calls {
		if strings.TrimSpace(c.Name) != "" && strings.TrimSpace(c.Arguments) != "" {
			continue
		}
		if out == nil {
			out = append([]agentproto.ToolCall(nil), calls...)
		}
		if strings.TrimSpace(c.Name) == "" {
			out[i].Name = unnamedTool
		}
		if strings.TrimSpace(c.Arguments) == "" {
			out[i].Arguments = "{}"
		}
	}
	if out == nil {
		return calls
	}
	return out
}
