package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/questions"
)

// agentHandlers are the agent/* client→server methods (PROTOCOL.md §2).
var agentHandlers = map[string]handlerFunc{
	"agent/newSession":     withParams((*Server).newSession),
	"agent/listSessions":   (*Server).listSessions,
	"agent/loadSession":    withParams((*Server).loadSession),
	"agent/prompt":         (*Server).prompt,
	"agent/cancel":         withParams((*Server).cancel),
	"agent/closeSession":   withParams((*Server).closeSession),
	"agent/setMode":        withParams((*Server).setMode),
	"agent/answer":         withParams((*Server).answer),
	"agent/resolvePlan":    withParams((*Server).resolvePlan),
	"agent/listPlans":      withParams((*Server).listPlans),
	"agent/compact":        withParams((*Server).compact),
	"agent/checkModel":     (*Server).checkModel,
	"agent/rewind":         withParams((*Server).rewind),
	"agent/setReview":      withParams((*Server).setReview),
	"agent/changedFiles":   withParams((*Server).changedFiles),
	"agent/checkpointFile": withParams((*Server).checkpointFile),
	"agent/listCommands":   withParams((*Server).listCommands),
}

// withParams makes a handler of fn, which gets the request's params decoded
// into a P (by decodeParams: a malformed payload is -32602 before fn runs).
func withParams[P any](fn func(s *Server, ctx context.Context, p P) (any, error)) handlerFunc {
	return func(s *Server, ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			return nil, err
		}
		return fn(s, ctx, p)
	}
}

// decodeParams decodes params into v; a malformed payload is -32602.
func decodeParams(raw jsonrpc2.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = jsonrpc2.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalidParams("invalid params: %s", describeDecodeError(err))
	}
	return nil
}

// describeDecodeError says what is wrong with a payload in the user's terms
// (never Go type names).
func describeDecodeError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		want := map[reflect.Kind]string{
			reflect.String: "text", reflect.Bool: "true or false", reflect.Struct: "an object", reflect.Map: "an object",
			reflect.Slice: "a list", reflect.Array: "a list", reflect.Int: "a whole number", reflect.Int32: "a whole number",
			reflect.Int64: "a whole number", reflect.Float64: "a number",
		}[te.Type.Kind()]
		if want == "" {
			want = "something else"
		}
		got := map[string]string{"string": "text", "number": "a number", "bool": "true or false", "array": "a list", "object": "an object"}[te.Value]
		if got == "" {
			got = te.Value
		}
		if te.Field == "" {
			return fmt.Sprintf("expected %s, got %s", want, got)
		}
		return fmt.Sprintf("%s should be %s, not %s", te.Field, want, got)
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON (at byte %d)", se.Offset)
	}
	return "not valid JSON"
}

type sessionParams struct {
	SessionID string `json:"sessionId"`
}

// newSessionParams are agent/newSession's params.
type newSessionParams struct {
	Mode  string `json:"mode"`
	Title string `json:"title"`
}

func (s *Server) newSession(ctx context.Context, p newSessionParams) (any, error) {
	info, err := s.manager().NewSession(ctx, p.Mode, p.Title)
	if err != nil {
		return nil, rpcError(err)
	}
	s.setCurrent(info.SessionID)
	return info, nil
}

func (s *Server) listSessions(context.Context, jsonrpc2.RawMessage) (any, error) {
	list, err := s.manager().ListSessions()
	if err != nil {
		return nil, rpcError(err)
	}
	if list == nil {
		list = []agent.Info{}
	}
	return map[string]any{"sessions": list}, nil
}

// LoadedSession is agent/loadSession's result: Session & {messages}.
type LoadedSession struct {
	agent.Info
	Messages []llm.Message `json:"messages"`
}

func (s *Server) loadSession(ctx context.Context, p sessionParams) (any, error) {
	info, msgs, err := s.manager().LoadSession(ctx, p.SessionID)
	if err != nil {
		return nil, rpcError(err)
	}
	s.setCurrent(info.SessionID)
	if msgs == nil {
		msgs = []llm.Message{}
	}
	return LoadedSession{Info: info, Messages: msgs}, nil
}

// PromptResult is agent/prompt's result: how the turn ended, its last
// text, and its error when it ended with one.
type PromptResult struct {
	StopReason agent.StopReason `json:"stopReason"`
	Text       string           `json:"text,omitempty"`
	Error      *PromptError     `json:"error,omitempty"`
	// SessionID is the session a /new prompt started (the current session
	// from now on); "" otherwise.
	SessionID string `json:"sessionId,omitempty"`
}

// PromptError is the error of a turn that ended with stopReason "error".
type PromptError struct {
	Message string `json:"message"`
}

func (s *Server) prompt(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	req, err := s.promptRequest(raw)
	if err != nil {
		return nil, err
	}
	if req.SessionID != "" {
		s.setCurrent(req.SessionID)
	}
	res, err := s.manager().Prompt(ctx, req)
	if err != nil {
		return nil, rpcError(err)
	}
	out := PromptResult{StopReason: res.StopReason, Text: res.Text, SessionID: res.SessionID}
	if res.SessionID != "" {
		s.setCurrent(res.SessionID) // /new
	}
	if res.Err != nil {
		out.Error = &PromptError{Message: res.Err.Error()}
	}
	return out, nil
}

// promptRequest decodes agent/prompt's params (agentls.prompt's argument).
func (s *Server) promptRequest(raw jsonrpc2.RawMessage) (agent.PromptRequest, error) {
	var p struct {
		SessionID string `json:"sessionId"`
		Text      string `json:"text"`
		Context   *struct {
			URI   string `json:"uri"`
			Range *struct {
				Start struct {
					Line int `json:"line"`
				} `json:"start"`
				End struct {
					Line int `json:"line"`
				} `json:"end"`
			} `json:"range"`
		} `json:"context"`
		QuestionAnswer *struct {
			QuestionID string          `json:"questionId"`
			Answers    json.RawMessage `json:"answers"`
		} `json:"questionAnswer"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return agent.PromptRequest{}, err
	}
	req := agent.PromptRequest{SessionID: p.SessionID, Text: p.Text}
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
func (s *Server) checkModel(ctx context.Context, _ jsonrpc2.RawMessage) (any, error) {
	return s.manager().CheckModel(ctx), nil
}

func (s *Server) cancel(_ context.Context, p sessionParams) (any, error) {
	return nil, rpcError(s.manager().Cancel(p.SessionID))
}

// closeSession is agent/closeSession: the session's turn ends, this
// process forgets it and releases its lock (another window may load it).
func (s *Server) closeSession(ctx context.Context, p sessionParams) (any, error) {
	return nil, rpcError(s.manager().CloseSession(ctx, p.SessionID))
}

// setModeParams are agent/setMode's params.
type setModeParams struct {
	SessionID string `json:"sessionId"`
	Mode      string `json:"mode"`
}

func (s *Server) setMode(ctx context.Context, p setModeParams) (any, error) {
	info, err := s.manager().SetMode(jsonrpc2.DetachContext(ctx), p.SessionID, p.Mode)
	return info, rpcError(err)
}

// answerParams are agent/answer's params.
type answerParams struct {
	SessionID  string          `json:"sessionId"`
	QuestionID string          `json:"questionId"`
	Answers    json.RawMessage `json:"answers"`
}

func (s *Server) answer(_ context.Context, p answerParams) (any, error) {
	answers, err := questions.DecodeAnswers(p.Answers)
	if err != nil {
		return nil, invalidParams("answers: %v", err)
	}
	if err := s.manager().Answer(p.SessionID, p.QuestionID, answers); err != nil {
		return nil, rpcError(err)
	}
	return map[string]bool{"accepted": true}, nil
}

// resolvePlanParams are agent/resolvePlan's params.
type resolvePlanParams struct {
	SessionID string `json:"sessionId"`
	Decision  string `json:"decision"`
	Reason    string `json:"reason"`
}

func (s *Server) resolvePlan(ctx context.Context, p resolvePlanParams) (any, error) {
	info, err := s.manager().ResolvePlan(ctx, p.SessionID, strings.TrimSpace(p.Decision), p.Reason)
	return info, rpcError(err)
}

// listPlansParams are agent/listPlans's params.
type listPlansParams struct {
	Status string `json:"status"`
	Limit  int    `json:"limit"`
}

func (s *Server) listPlans(_ context.Context, p listPlansParams) (any, error) {
	plans, total, err := s.manager().ListPlans(p.Status, p.Limit)
	if err != nil {
		return nil, rpcError(err)
	}
	if plans == nil {
		plans = []agent.PlanInfo{}
	}
	return map[string]any{"plans": plans, "total": total}, nil
}

func (s *Server) compact(ctx context.Context, p sessionParams) (any, error) {
	res, err := s.manager().Compact(ctx, p.SessionID)
	if errors.Is(err, agent.ErrBusy) {
		return nil, jsonrpc2.NewError(codeRequestFailed, "session busy: its turn is running")
	}
	if err != nil {
		return nil, rpcError(err)
	}
	return res, nil
}
