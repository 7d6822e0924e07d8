package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent/elicit"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/questions"
)

// A server's elicitation (MCP elicitation/create) goes through agentls's
// question surfaces (agent/askUser, showMessageRequest, ACP elicitation),
// as the questions agent/elicit makes of it.

// ElicitMCP implements tools.MCPElicitor: it asks the user, and answers
// "accept" with the fields' values, "decline", or "cancel" (dismissed, or
// no surface can show it now: a server cannot wait for a later prompt).
func (e *env) ElicitMCP(ctx context.Context, req tools.MCPElicitation) (tools.MCPElicitReply, error) {
	sets, names, err := elicit.Questions(req)
	if err != nil {
		return tools.MCPElicitReply{}, fmt.Errorf("the elicitation of MCP server %q cannot be shown: %w", req.Server, err)
	}
	answers := map[string]any{}
	for _, set := range sets {
		reply, action, err := e.askSet(ctx, set)
		if err != nil || action != "" {
			return tools.MCPElicitReply{Action: action}, err
		}
		for k, v := range reply {
			answers[k] = v
		}
	}
	return elicit.Reply(req, answers, names), nil
}

// askSet asks one batch of an elicitation's questions in the session the
// editor knows (a sub-agent's root). action is "cancel" when the user
// dismissed it or no surface can show it now (a server cannot wait for a
// later prompt); the answers are validated.
func (e *env) askSet(ctx context.Context, set *questions.Set) (answers map[string]any, action string, err error) {
	s := e.s
	id, err := uuid.NewV7()
	if err != nil {
		return nil, "", fmt.Errorf("question id: %w", err)
	}
	reply, err := s.m.askUser(ctx, AskRequest{SessionID: s.faceID(), QuestionID: id.String(), Set: set, Purpose: "question", CreatedAt: s.m.now()})
	switch {
	case errors.Is(err, ErrNoSurface):
		return nil, "cancel", nil
	case err != nil:
		return nil, "", err
	case reply.Dismissed:
		return nil, "cancel", nil
	}
	if errs := set.ValidateContext(ctx, reply.Answers); errs != nil {
		return nil, "", fmt.Errorf("the user's answers do not fit the form: %s", questions.ValidationError(errs))
	}
	return reply.Answers, "", nil
}

// MCPScope implements tools.MCPElicitor: the session the editor knows
// asks, a sub-agent's root for it. A root and its sub-agents share one
// user, so their calls of one server may ask; another session's may not.
func (e *env) MCPScope() string { return e.s.faceID() }
