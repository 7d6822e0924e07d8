package agent

import (
	"context"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tooloutcome"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// noteAsked records a question put to the user within the tool call of
// ctx and its reply (tooloutcome: nothing outside a tool call).
func noteAsked(ctx context.Context, set *questions.Set, reply AskReply) {
	tooloutcome.NoteAsked(ctx, set, reply.Answers, reply.Dismissed)
}

// withCallViews returns the assistant message msg with each tool call's
// title and kind filled in as the editor shows them.
func (s *Session) withCallViews(msg llm.Message) llm.Message {
	if len(msg.ToolCalls) == 0 {
		return msg
	}
	calls := make([]agentproto.ToolCall, len(msg.ToolCalls))
	for i, c := range msg.ToolCalls {
		c.Title, c.Kind = s.title(c), s.kind(c)
		calls[i] = c
	}
	msg.ToolCalls = calls
	return msg
}

// Transcript is a history as the editors show it: every tool call with its
// title and kind, and every tool message with its outcome. Sessions saved
// before these were kept get them derived from the calls and results (a
// tool gone since shows its name). msgs is not changed.
func (m *Manager) Transcript(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, len(msgs))
	s := &Session{m: m}
	for i, msg := range msgs {
		if len(msg.ToolCalls) > 0 {
			calls := make([]agentproto.ToolCall, len(msg.ToolCalls))
			for j, c := range msg.ToolCalls {
				if c.Title == "" {
					c.Title = s.title(c)
				}
				if c.Kind == "" {
					c.Kind = s.kind(c)
				}
				calls[j] = c
			}
			msg.ToolCalls = calls
		}
		if msg.Role == llm.RoleTool && msg.Outcome == nil {
			msg.Outcome = tooloutcome.Derived(msg.Content)
		}
		out[i] = msg
	}
	return out
}

// notePermit records a permission question asked within the tool call of
// ctx and the decision (its one question "decision" answered by the option
// chosen).
func notePermit(ctx context.Context, req permission.Request, d permission.Decision) {
	set, err := req.Question()
	if err != nil {
		return
	}
	reply := AskReply{Dismissed: d.Dismissed}
	if !d.Dismissed {
		reply.Answers = map[string]any{permission.QuestionName: string(d.Option)}
	}
	noteAsked(ctx, set, reply)
}
