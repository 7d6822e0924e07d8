package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// askedKey is the context key of the running tool call's askedRecord.
type askedKey struct{}

// askedRecord keeps the last question a tool call put to the user and the
// reply, for the call's persisted outcome (a reloaded chat shows them).
type askedRecord struct {
	mu        sync.Mutex
	questions []questions.Question
	answers   map[string]any
	dismissed bool
}

// withAsked marks ctx as the context of a tool call whose questions rec
// keeps.
func withAsked(ctx context.Context, rec *askedRecord) context.Context {
	return context.WithValue(ctx, askedKey{}, rec)
}

// noteAsked records a question put to the user within the tool call of ctx
// and its reply (nothing outside a tool call).
func noteAsked(ctx context.Context, set *questions.Set, reply AskReply) {
	rec, _ := ctx.Value(askedKey{}).(*askedRecord)
	if rec == nil || set == nil {
		return
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.questions, rec.answers, rec.dismissed = set.Questions, reply.Answers, reply.Dismissed
}

// toolOutcome is the persisted outcome of a call that gave res, having
// asked what rec holds.
func toolOutcome(res tools.Result, rec *askedRecord) *llm.ToolOutcome {
	out := &llm.ToolOutcome{Status: "completed"}
	if !res.Success {
		out.Status = "failed"
	}
	if res.Refusal != nil {
		out.Refusal, _ = json.Marshal(res.Refusal)
	}
	if rec != nil {
		rec.mu.Lock()
		if len(rec.questions) > 0 {
			out.Questions, _ = json.Marshal(rec.questions)
			if rec.answers != nil {
				out.Answers, _ = json.Marshal(rec.answers)
			}
			out.Dismissed = rec.dismissed
		}
		rec.mu.Unlock()
	}
	return out
}

// withCallViews returns the assistant message msg with each tool call's
// title and kind filled in as the editor shows them.
func (s *Session) withCallViews(msg llm.Message) llm.Message {
	if len(msg.ToolCalls) == 0 {
		return msg
	}
	calls := make([]llm.ToolCall, len(msg.ToolCalls))
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
			calls := make([]llm.ToolCall, len(msg.ToolCalls))
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
			msg.Outcome = derivedOutcome(msg.Content)
		}
		out[i] = msg
	}
	return out
}

// derivedOutcome is the outcome of a tool result saved without one: its
// success and refusal as the result JSON says.
func derivedOutcome(content string) *llm.ToolOutcome {
	var r struct {
		Success bool            `json:"success"`
		Refusal json.RawMessage `json:"refusal"`
	}
	out := &llm.ToolOutcome{Status: "failed"}
	if json.Unmarshal([]byte(content), &r) != nil {
		return out
	}
	if r.Success {
		out.Status = "completed"
	}
	if len(r.Refusal) > 0 && strings.TrimSpace(string(r.Refusal)) != "null" {
		out.Refusal = r.Refusal
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
