// Package tooloutcome is the persisted outcome of a tool call: its status,
// its refusal, and the last question it put to the user with the reply, so
// that a reloaded chat shows them as they were (llm.ToolOutcome in the
// .chat file). A Record rides on the call's context while it runs.
package tooloutcome

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/questions"
)

// recordKey is the context key of the running tool call's Record.
type recordKey struct{}

// Record keeps the last question a tool call put to the user and the
// reply, for the call's persisted outcome. Its zero value is ready; it is
// safe for concurrent use.
type Record struct {
	mu        sync.Mutex
	questions []questions.Question
	answers   map[string]any
	dismissed bool
	notes     []string
}

// WithRecord marks ctx as the context of a tool call whose questions rec
// keeps.
func WithRecord(ctx context.Context, rec *Record) context.Context {
	return context.WithValue(ctx, recordKey{}, rec)
}

// NoteAsked records a question put to the user within the tool call of ctx
// and its reply, the answers or a dismissal (nothing outside a tool call).
func NoteAsked(ctx context.Context, set *questions.Set, answers map[string]any, dismissed bool) {
	rec, _ := ctx.Value(recordKey{}).(*Record)
	if rec == nil || set == nil {
		return
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.questions, rec.answers, rec.dismissed = set.Questions, answers, dismissed
}

// Note adds a line for the person to the result of the tool call of ctx
// (nothing outside a tool call): the face shows it after the result, and
// the model does not read it. A permission answered faster than a person
// decides says so here (permission.Decision.FastNote).
func Note(ctx context.Context, text string) {
	rec, _ := ctx.Value(recordKey{}).(*Record)
	if rec == nil || text == "" {
		return
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.notes = append(rec.notes, text)
}

// Notes are the lines Note added, in order (nil for a nil record).
func (rec *Record) Notes() []string {
	if rec == nil {
		return nil
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.notes...)
}

// Of is the persisted outcome of a call that gave res, having asked what
// rec holds (nil for nothing).
func Of(res tools.Result, rec *Record) *llm.ToolOutcome {
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

// Derived is the outcome of a tool result saved without one: its success
// and refusal as the result JSON says; anything unreadable is failed.
func Derived(content string) *llm.ToolOutcome {
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
