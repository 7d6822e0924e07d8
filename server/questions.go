package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// maxAsks is how many times agent/askUser is sent for one batch when the
// answers fail their schemas (PROTOCOL.md §3).
const maxAsks = 3

// askUserParams is the payload of `agent/askUser`.
type askUserParams struct {
	SessionID  string               `json:"sessionId"`
	QuestionID string               `json:"questionId"`
	Questions  []questions.Question `json:"questions"`
	CreatedAt  string               `json:"createdAt"`
	Purpose    string               `json:"purpose"`
	Errors     map[string]string    `json:"errors,omitempty"`
	// Permission is the permission request the questions render (purpose
	// "permission"), or what a plan approval grants (kind plan).
	Permission *agentproto.PermissionRequest `json:"permission,omitempty"`
}

// The server is the agent's Asker.
var _ agent.Asker = (*Server)(nil)

// Ask shows questions through the best surface the editor has: the
// agent/askUser form, else one window/showMessageRequest per question, else
// agent.ErrNoSurface (the question stays pending).
func (s *Server) Ask(ctx context.Context, req agent.AskRequest) (agent.AskReply, error) {
	reply, err := s.ask(ctx, req)
	if err != nil {
		s.warnBadReply(ctx, req, err) // questions_bad_reply.go
	}
	return reply, err
}

func (s *Server) ask(ctx context.Context, req agent.AskRequest) (agent.AskReply, error) {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	switch {
	case caps.askUser:
		return s.askWithForm(ctx, req)
	case req.Actions != nil:
		return s.askWithActions(ctx, req, caps)
	case questions.CanShowAsMessages(req.Set):
		return s.askWithMessages(ctx, req, caps)
	}
	return agent.AskReply{}, agent.ErrNoSurface
}

func (s *Server) askWithForm(ctx context.Context, req agent.AskRequest) (agent.AskReply, error) {
	params := askUserParams{
		SessionID: req.SessionID, QuestionID: req.QuestionID, Questions: escapedQuestions(req.Set.Questions),
		CreatedAt: req.CreatedAt.UTC().Format(time.RFC3339), Purpose: req.Purpose,
	}
	if req.Permission != nil {
		w := protoconv.Permission(*req.Permission)
		params.Permission = &w
	}
	var lastErrs map[string]string
	for attempt := 1; attempt <= maxAsks; attempt++ {
		var raw json.RawMessage
		permission.Sent(ctx) // the answer is timed from here (permission/fast.go)
		if err := s.callClient(ctx, agentproto.AskUser.Name(), params, &raw); err != nil {
			return agent.AskReply{}, fmt.Errorf("agent/askUser: %w", err)
		}
		var res struct {
			Answers   json.RawMessage `json:"answers"`
			Dismissed bool            `json:"dismissed"`
		}
		if err := json.Unmarshal(raw, &res); err != nil || string(raw) == "null" {
			return agent.AskReply{Dismissed: true}, nil
		}
		if res.Dismissed {
			return agent.AskReply{Dismissed: true}, nil
		}
		answers, err := questions.DecodeAnswers(res.Answers)
		if err != nil {
			lastErrs = map[string]string{"answers": err.Error()}
		} else if lastErrs = req.Set.ValidateContext(ctx, answers); lastErrs == nil {
			return agent.AskReply{Answers: answers}, nil
		}
		params.Errors = lastErrs
	}
	return agent.AskReply{}, badReply("the answers failed validation %d times: %s", maxAsks, questions.ValidationError(lastErrs))
}

// messageParams is window/showMessageRequest's payload; actions may carry a
// "value" property when the client supports additional properties.
type messageParams struct {
	Type    int              `json:"type"`
	Message string           `json:"message"`
	Actions []map[string]any `json:"actions"`
}

// askWithActions shows one message with fixed actions (the plan approval)
// and answers the batch's first question with the chosen action's value.
func (s *Server) askWithActions(ctx context.Context, req agent.AskRequest, caps clientCaps) (agent.AskReply, error) {
	q := req.Set.Questions[0]
	text := q.Question
	if req.Purpose == "plan_approval" && req.PlanFile != "" {
		text = s.approvalText(req.PlanFile, q.Question) // the lenses were refreshed as the approval started (ApprovalChanged)
	} else if p := plainPermission(req); p != nil {
		text = s.plainRunText(req, *p) // plain_question.go
	}
	v, dismissed, err := s.showMessage(ctx, text, questions.MessageType(q.Severity), req.Actions, caps, permissionWithdrawal(req))
	if err != nil || dismissed {
		return agent.AskReply{Dismissed: dismissed}, err
	}
	return agent.AskReply{Answers: map[string]any{q.Name: v}}, nil
}

// Limits of the plan shown in an approval message.
const (
	approvalSteps     = 12
	approvalStepWidth = 100
)

// askWithMessages asks each question in order as a message request.
func (s *Server) askWithMessages(ctx context.Context, req agent.AskRequest, caps clientCaps) (agent.AskReply, error) {
	answers := map[string]any{}
	for _, q := range req.Set.Questions {
		actions, ok := questions.MessageActions(q)
		if !ok {
			return agent.AskReply{}, agent.ErrNoSurface
		}
		v, dismissed, err := s.showMessage(ctx, q.Question, questions.MessageType(q.Severity), actions, caps, withdrawal{})
		if err != nil || dismissed {
			return agent.AskReply{Dismissed: dismissed}, err
		}
		answers[q.Name] = v
	}
	return agent.AskReply{Answers: answers}, nil
}

// showMessage sends one window/showMessageRequest and maps the reply back to
// its value. A client with additionalPropertiesSupport gets each action's
// value as an extra property and sends it back: that value, which must be one
// of the offered values, decides (the title is only display text then).
// Otherwise, or when the reply has no value, the title decides. A null reply
// is dismissed. A question withdrawn because its time ran out (ctx's
// deadline: plan_mode.approval_timeout_secs) is told to the person as w
// says, as is a reply to it that comes later (withdrawn_question.go): a
// plain editor may keep showing it (eglot ignores $/cancelRequest).
func (s *Server) showMessage(ctx context.Context, text string, typ int, actions []questions.Action, caps clientCaps, w withdrawal) (any, bool, error) {
	params := messageParams{Type: typ, Message: questions.Escape(text)}
	actions = escapedActions(actions)
	for _, a := range actions {
		item := map[string]any{"title": a.Title}
		if caps.messageActionProps {
			item["value"] = a.Value
		}
		params.Actions = append(params.Actions, item)
	}
	var raw json.RawMessage
	s.afterEarlierReplies(ctx) // reply_order.go: the editor's requests are answered first
	permission.Sent(ctx)       // the answer is timed from here (permission/fast.go)
	sent := time.Now()
	id, err := s.callClientID(ctx, "window/showMessageRequest", params, &raw)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			s.questionWithdrawn(ctx, id, w, time.Since(sent))
		}
		return nil, false, fmt.Errorf("window/showMessageRequest: %w", err)
	}
	if len(raw) == 0 || strings.TrimSpace(string(raw)) == "null" {
		return nil, true, nil
	}
	var chosen struct {
		Title string          `json:"title"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &chosen); err != nil {
		return nil, false, badReply("window/showMessageRequest reply: %w", err)
	}
	if caps.messageActionProps && len(chosen.Value) > 0 {
		return actionByValue(actions, chosen.Value)
	}
	for _, a := range actions {
		if a.Title == chosen.Title {
			return a.Value, false, nil
		}
	}
	return nil, false, badReply("window/showMessageRequest reply: unknown action %q", chosen.Title)
}

// actionByValue finds the offered action whose value is raw (compared as
// normalised JSON, so key order and spacing do not matter).
func actionByValue(actions []questions.Action, raw json.RawMessage) (any, bool, error) {
	want, err := normalJSON(raw)
	if err != nil {
		return nil, false, badReply("window/showMessageRequest reply: value: %w", err)
	}
	for _, a := range actions {
		b, err := json.Marshal(a.Value)
		if err != nil {
			continue
		}
		if got, err := normalJSON(b); err == nil && got == want {
			return a.Value, false, nil
		}
	}
	return nil, false, badReply("window/showMessageRequest reply: value %s is not one of the offered actions", want)
}

// normalJSON re-encodes one JSON value (numbers kept as written, object keys
// sorted).
func normalJSON(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("invalid JSON: %w", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("re-encode: %w", err)
	}
	return string(b), nil
}

// The server is the agent's permission service on the LSP face: each
// request is one agent/askUser with purpose "permission" (the request as
// its `permission` payload, one question "decision"), or one
// window/showMessageRequest (Reject first) for plain editors.
var _ permission.Permitter = (*Server)(nil)

// Permit asks req (agent.AskPermitter over Ask). A plain editor's question
// (no agent/askUser form) is also pending for agentls.answer while it is
// shown: a person may put the editor's prompt aside without a reply (eglot's
// C-g sends none) and answer it so.
func (s *Server) Permit(ctx context.Context, req permission.Request) (permission.Decision, error) {
	s.mu.Lock()
	canShow, form := s.caps.showDocument, s.caps.askUser
	s.mu.Unlock()
	if !canShow {
		// An editor that cannot open a generated document (no
		// window/showDocument) gets every line in the question itself,
		// never a reference to a document it does not show.
		req.Document = ""
	}
	p := agent.AskPermitter{Asker: s}
	if m := s.manager(); m != nil && !form {
		p.Holder = m
	}
	return p.Permit(ctx, req)
}

// escapedQuestions are the questions as a client gets them: question text
// and button labels through the one escape (questions.Escape); names,
// schemas and values unchanged.
func escapedQuestions(qs []questions.Question) []questions.Question {
	out := make([]questions.Question, len(qs))
	for i, q := range qs {
		q.Question = questions.Escape(q.Question)
		if q.Buttons != nil {
			bs := make([]questions.Button, len(q.Buttons))
			for j, b := range q.Buttons {
				b.Label = questions.EscapeLine(b.Label)
				bs[j] = b
			}
			q.Buttons = bs
		}
		out[i] = q
	}
	return out
}

// escapedActions are message actions with their titles escaped (the reply
// is matched against these titles).
func escapedActions(actions []questions.Action) []questions.Action {
	out := make([]questions.Action, len(actions))
	for i, a := range actions {
		a.Title = questions.EscapeLine(a.Title)
		out[i] = a
	}
	return out
}
