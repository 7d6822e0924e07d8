package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/questions"
)

// badReplyError is an editor's answer to a question that agentls cannot
// use: not the shape asked for, an action that was not offered, answers
// that failed their schemas on every ask. It decides nothing (the question
// fails as unanswered) and the user is told (warnBadReply).
type badReplyError struct{ err error }

func (e *badReplyError) Error() string { return e.err.Error() }
func (e *badReplyError) Unwrap() error { return e.err }

// badReply wraps err, an unusable answer, as a badReplyError.
func badReply(format string, args ...any) error {
	return &badReplyError{err: fmt.Errorf(format, args...)}
}

// warnBadReply tells the user that the editor's answer to req could not be
// used, what became of the question, and (a plan approval) how to decide
// it instead: the editor showed the question and the user answered it, so
// nothing happening without a word would look like agentls ignoring them.
func (s *Server) warnBadReply(ctx context.Context, req agent.AskRequest, err error) {
	var bad *badReplyError
	if !errors.As(err, &bad) {
		return
	}
	what := "The question was not answered."
	switch req.Purpose {
	case "plan_approval":
		what = "The plan still awaits approval: approve or reject it with the plan's code lenses, " +
			"agentls.approvePlan / agentls.rejectPlan, or a new prompt."
	case "permission":
		what = "Nothing was allowed."
	}
	s.notifyClient(ctx, "window/showMessage", map[string]any{
		"type":    questions.MessageError,
		"message": questions.Escape(fmt.Sprintf("agentls could not use the editor's answer (%v). %s", bad.err, what)),
	})
}
