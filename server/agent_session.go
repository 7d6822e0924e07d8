package server

import (
	"context"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/host/agentapi"
	"github.com/agentls/agentls/internal/protoconv"
	"github.com/agentls/agentls/questions"
)

// agentHandlers are the agent/* client→server methods of agentproto's
// table (PROTOCOL.md §2), each with its typed handler: the LSP face's own
// below, and the face-neutral ones of host/agentapi (shared_handlers.go);
// TestHandlersFromTable checks that every LSP row has one.
var agentHandlers = withShared(handlers(
	handle(agentproto.NewSession, (*Server).newSession),
	handle(agentproto.LoadSession, (*Server).loadSession),
	handle(agentproto.Prompt, (*Server).prompt),
	handle(agentproto.SetMode, (*Server).setMode),
	handle(agentproto.Answer, (*Server).answer),
	handle(agentproto.ResolvePlan, (*Server).resolvePlan),
	handle(agentproto.CheckModel, (*Server).checkModel),
	handle(agentproto.Status, (*Server).status), // status.go
))

// registration is a method of the table with its handler.
type registration struct {
	method string
	run    handlerFunc
}

// handle registers fn for the request r: fn gets r's params decoded (by
// decodeParams: a malformed payload is -32602 before fn runs) and returns
// r's result type, so a handler cannot answer another shape than the table
// declares.
func handle[P, R any](r agentproto.Request[P, R], fn func(s *Server, ctx context.Context, p P) (R, error)) registration {
	return registration{method: r.Name(), run: func(s *Server, ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			return nil, err
		}
		res, err := fn(s, ctx, p)
		if err != nil {
			return nil, err
		}
		return res, nil
	}}
}

// handlers indexes registrations by method.
func handlers(regs ...registration) map[string]handlerFunc {
	out := make(map[string]handlerFunc, len(regs))
	for _, r := range regs {
		out[r.method] = r.run
	}
	return out
}

// decodeParams decodes params into v; a malformed payload is -32602.
func decodeParams(raw jsonrpc2.RawMessage, v any) error {
	if err := agentapi.DecodeParams(raw, v); err != nil {
		return invalidPayload(err.Error())
	}
	return nil
}

// invalidPayload is the -32602 of params that do not decode; reason says
// what is wrong in the user's terms.
func invalidPayload(reason string) error {
	return invalidParams("invalid params: %s", reason)
}

func (s *Server) newSession(ctx context.Context, p agentproto.NewSessionParams) (agentproto.Session, error) {
	info, err := s.manager().NewSession(ctx, string(p.Mode), p.Title)
	if err != nil {
		return agentproto.Session{}, rpcError(err)
	}
	s.setCurrent(info.SessionID)
	return info, nil
}

func (s *Server) loadSession(ctx context.Context, p agentproto.SessionParams) (agentproto.LoadedSession, error) {
	info, msgs, err := s.manager().LoadSession(ctx, p.SessionID)
	if err != nil {
		return agentproto.LoadedSession{}, rpcError(err)
	}
	s.setCurrent(info.SessionID)
	return agentproto.LoadedSession{Session: info, Messages: protoconv.Messages(msgs)}, nil
}

func (s *Server) prompt(ctx context.Context, p agentproto.PromptParams) (agentproto.PromptResult, error) {
	req, err := promptRequest(p)
	if err != nil {
		return agentproto.PromptResult{}, err
	}
	if req.SessionID != "" {
		s.setCurrent(req.SessionID)
	}
	res, err := s.manager().Prompt(ctx, req)
	if err != nil {
		return agentproto.PromptResult{}, rpcError(err)
	}
	out := agentproto.PromptResult{StopReason: agentproto.StopReason(res.StopReason), Text: res.Text, SessionID: res.SessionID}
	if res.SessionID != "" {
		s.setCurrent(res.SessionID) // /new
	}
	if res.Err != nil {
		out.Error = &agentproto.PromptError{Message: res.Err.Error()}
	}
	return out, nil
}

// promptRequest is the agent's request of agent/prompt's params
// (agentls.prompt's argument).
func promptRequest(p agentproto.PromptParams) (agent.PromptRequest, error) {
	req := agent.PromptRequest{SessionID: p.SessionID, Text: p.Text, RetryOf: p.RetryOf}
	if p.Context != nil {
		path, err := host.PathOfURI(p.Context.URI)
		if err != nil {
			return agent.PromptRequest{}, invalidParams("context.uri: %v", err)
		}
		req.Context = &agent.PromptContext{Path: path, StartLine: -1}
		if r := p.Context.Range; r != nil {
			req.Context.StartLine, req.Context.EndLine = r.Start.Line, r.End.Line
		}
	}
	if qa := p.QuestionAnswer; qa != nil {
		answers, err := questions.DecodeAnswers(qa.Answers)
		if err != nil {
			return agent.PromptRequest{}, invalidParams("questionAnswer.answers: %v", err)
		}
		req.QuestionAnswer = &agent.QuestionAnswer{QuestionID: qa.QuestionID, Answers: answers}
	}
	return req, nil
}

// checkModel is agent/checkModel: one cheap request to the model's
// endpoint, or the reason none can be made.
func (s *Server) checkModel(ctx context.Context, _ agentproto.Empty) (agentproto.ModelCheck, error) {
	return s.manager().CheckModel(ctx), nil
}

func (s *Server) setMode(ctx context.Context, p agentproto.SetModeParams) (agentproto.Session, error) {
	info, err := s.manager().SetMode(jsonrpc2.DetachContext(ctx), p.SessionID, string(p.Mode))
	return info, rpcError(err)
}

func (s *Server) answer(_ context.Context, p agentproto.AnswerParams) (agentproto.Accepted, error) {
	answers, err := questions.DecodeAnswers(p.Answers)
	if err != nil {
		return agentproto.Accepted{}, invalidParams("answers: %v", err)
	}
	if err := s.manager().Answer(p.SessionID, p.QuestionID, answers); err != nil {
		return agentproto.Accepted{}, rpcError(err)
	}
	return agentproto.Accepted{Accepted: true}, nil
}

// resolvePlan is agent/resolvePlan. A planFile binds the decision to the
// plan the client showed, as agentls.approvePlan's does.
func (s *Server) resolvePlan(ctx context.Context, p agentproto.ResolvePlanParams) (agentproto.Session, error) {
	if err := s.decidesTheAwaitedPlan(agentproto.PlanDecisionParams{SessionID: p.SessionID, PlanFile: p.PlanFile}); err != nil {
		return agentproto.Session{}, err
	}
	info, err := s.manager().ResolvePlan(ctx, p.SessionID, strings.TrimSpace(string(p.Decision)), p.Reason)
	return info, rpcError(err)
}
