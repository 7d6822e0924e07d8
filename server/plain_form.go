package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
)

// plainForm is a pending question batch a plain editor (no agent/askUser)
// is asked one question at a time: questions with choices through
// window/showMessageRequest, the others shown alone and answered by the
// next agentls.prompt. Once every question has its answer, the batch is
// answered (agent/answer) and the conversation goes on.
type plainForm struct {
	questionID string
	questions  []questions.Question
	answers    map[string]any
	// next is the question asked now; waitingText: it waits for the next
	// prompt (a free-text question, or a choice whose message was
	// dismissed).
	next        int
	waitingText bool
}

// skipAnswer skips an optional question answered by a prompt.
const skipAnswer = "-"

// startForm begins asking the pending batch u one question at a time.
func (s *Server) startForm(sessionID string, u agent.UpdateQuestion) {
	if len(u.Questions) == 0 {
		return
	}
	f := &plainForm{questionID: u.QuestionID, questions: u.Questions, answers: map[string]any{}}
	p := &s.plain
	p.mu.Lock()
	if p.forms == nil {
		p.forms = map[string]*plainForm{}
	}
	p.forms[sessionID] = f
	p.mu.Unlock()
	s.advanceFormLater(sessionID, f)
}

// advanceFormLater asks the form's next questions on a goroutine of the
// server's (a message request waits for the user; the caller must not).
func (s *Server) advanceFormLater(sessionID string, f *plainForm) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.advanceForm(s.ctx, sessionID, f)
	}()
}

// formCurrent tells whether f is still the session's form and its question
// still pending (agentls.cancel or another prompt withdraws it).
func (s *Server) formCurrent(sessionID string, f *plainForm) bool {
	s.plain.mu.Lock()
	same := s.plain.forms[sessionID] == f
	s.plain.mu.Unlock()
	if !same {
		return false
	}
	qid, err := s.manager().PendingQuestionID(sessionID)
	if err != nil || qid != f.questionID {
		s.dropForm(sessionID, f)
		return false
	}
	return true
}

// dropForm forgets f when it is still the session's form.
func (s *Server) dropForm(sessionID string, f *plainForm) {
	s.plain.mu.Lock()
	if s.plain.forms[sessionID] == f {
		delete(s.plain.forms, sessionID)
	}
	s.plain.mu.Unlock()
}

// advanceForm asks f's questions from f.next on: choices as message
// requests, until a question needs the next prompt or all are answered.
func (s *Server) advanceForm(ctx context.Context, sessionID string, f *plainForm) {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	for {
		if ctx.Err() != nil || !s.formCurrent(sessionID, f) {
			return
		}
		s.plain.mu.Lock()
		i := f.next
		s.plain.mu.Unlock()
		if i >= len(f.questions) {
			s.finishForm(ctx, sessionID, f)
			return
		}
		q := f.questions[i]
		actions, choice := questions.MessageActions(q)
		if !choice {
			s.askByPrompt(ctx, sessionID, f, i)
			return
		}
		v, dismissed, err := s.showMessage(ctx, s.formHeading(f, i)+q.Question, questions.MessageType(q.Severity), actions, caps, withdrawal{})
		if err != nil || dismissed {
			if err != nil {
				slog.Warn("form question not shown; it waits for the next prompt", "session", sessionID, "err", err)
			}
			s.askByPrompt(ctx, sessionID, f, i)
			return
		}
		s.plain.mu.Lock()
		if f.next == i {
			f.answers[q.Name] = v
			f.next++
		}
		s.plain.mu.Unlock()
	}
}

// formHeading is "(2/4) " in a batch of several questions.
func (s *Server) formHeading(f *plainForm, i int) string {
	if len(f.questions) == 1 {
		return ""
	}
	return fmt.Sprintf("(%d/%d) ", i+1, len(f.questions))
}

// askByPrompt shows question i alone and waits for the next prompt.
func (s *Server) askByPrompt(ctx context.Context, sessionID string, f *plainForm, i int) {
	q := f.questions[i]
	s.plain.mu.Lock()
	f.waitingText = true
	s.plain.mu.Unlock()
	var b strings.Builder
	b.WriteString(s.plain.prefix(sessionID))
	b.WriteString(" The agent asks " + s.formHeading(f, i) + q.Question)
	if c := questions.Constraints(q); c != "" {
		b.WriteString(" (" + c + ")")
	}
	b.WriteString("\nTo answer, send your answer as the next prompt (agentls.prompt {\"text\": \"…\"})")
	if q.Optional {
		b.WriteString(", or " + skipAnswer + " to skip this optional question")
	}
	b.WriteString(". agentls.cancel drops the question.")
	s.showLine(ctx, msgInfo, b.String())
}

// finishForm answers the batch with the answers gathered.
func (s *Server) finishForm(ctx context.Context, sessionID string, f *plainForm) {
	s.dropForm(sessionID, f)
	s.plain.mu.Lock()
	answers := make(map[string]any, len(f.answers))
	for k, v := range f.answers {
		answers[k] = v
	}
	s.plain.mu.Unlock()
	if err := s.manager().Answer(sessionID, f.questionID, answers); err != nil {
		s.showLine(ctx, msgError, fmt.Sprintf("%s the answers were not taken: %v", s.plain.prefix(sessionID), err))
	}
}

// formPrompt takes a prompt as the answer to the form question waiting for
// it. handled is false when no question waits for the session's next
// prompt, or the text answers the whole batch at once (JSON or name=value
// lines, which the agent reads); the prompt then goes on as usual. An
// answer that does not fit its question is -32602 and the question still
// waits.
func (s *Server) formPrompt(sessionID, text string) (agentproto.PromptStarted, bool, error) {
	s.plain.mu.Lock()
	f := s.plain.forms[sessionID]
	waiting := f != nil && f.waitingText
	var i int
	if waiting {
		i = f.next
	}
	s.plain.mu.Unlock()
	if !waiting || !s.formCurrent(sessionID, f) {
		return agentproto.PromptStarted{}, false, nil
	}
	if set, err := questions.New(f.questions); err == nil && len(f.questions) > 1 {
		if _, whole := questions.AnswersFromText(set, text); whole {
			// The agent reads it; the form goes on if it refuses.
			return agentproto.PromptStarted{}, false, nil
		}
	}
	q := f.questions[i]
	text = strings.TrimSpace(text)
	skip := q.Optional && text == skipAnswer
	var v any
	if !skip {
		v = formValue(q, text)
		one, err := questions.New([]questions.Question{q})
		if err != nil {
			return agentproto.PromptStarted{}, true, fmt.Errorf("form question %s: %w", q.Name, err)
		}
		if errs := one.Validate(map[string]any{q.Name: v}); errs != nil {
			return agentproto.PromptStarted{}, true, invalidParams("your reply does not answer the question %q: %s. The question is still pending: answer again with the next prompt, or cancel it (agentls.cancel)",
				q.Question, questions.ValidationError(errs))
		}
	}
	s.plain.mu.Lock()
	if s.plain.forms[sessionID] != f || f.next != i || !f.waitingText {
		s.plain.mu.Unlock()
		return agentproto.PromptStarted{}, true, invalidParams("the question %q was answered already", q.Question)
	}
	if !skip {
		f.answers[q.Name] = v
	}
	f.next++
	f.waitingText = false
	s.plain.mu.Unlock()
	s.advanceFormLater(sessionID, f)
	return agentproto.PromptStarted{SessionID: sessionID, Started: true}, true, nil // taken: the next question, or the turn, follows
}

// formValue reads a prompt's text as the answer to q: the text for a
// string question, a choice's value by its title (any case), else the
// text as JSON (a number, true, a list), else the text.
func formValue(q questions.Question, text string) any {
	if actions, ok := questions.MessageActions(q); ok {
		if v, ok := choiceOf(actions, text); ok {
			return v
		}
	}
	var schema struct {
		Type  any `json:"type"`
		Items struct {
			Enum []any `json:"enum"`
		} `json:"items"`
	}
	_ = json.Unmarshal(q.Schema, &schema)
	if schema.Type == "string" {
		return text
	}
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		return v
	}
	if schema.Type == "array" {
		return listOf(text, schema.Items.Enum)
	}
	return text
}

// choiceOf is the value of the action titled text: the one typed exactly,
// else the first whose title matches in any case.
func choiceOf(actions []questions.Action, text string) (any, bool) {
	for _, a := range actions {
		if a.Title == text {
			return a.Value, true
		}
	}
	for _, a := range actions {
		if strings.EqualFold(a.Title, text) {
			return a.Value, true
		}
	}
	return nil, false
}

// listOf reads a list typed as a person writes it, "go, rust": its items
// separated by commas, each the choice of enum it names (exactly, else in
// any case), a JSON value, or the text itself.
func listOf(text string, enum []any) []any {
	out := []any{}
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		out = append(out, listItem(part, enum))
	}
	return out
}

func listItem(part string, enum []any) any {
	actions := make([]questions.Action, 0, len(enum))
	for _, e := range enum {
		actions = append(actions, questions.Action{Title: fmt.Sprint(e), Value: e})
	}
	if v, ok := choiceOf(actions, part); ok {
		return v
	}
	var v any
	if json.Unmarshal([]byte(part), &v) == nil {
		return v
	}
	return part
}
