package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/questions"
)

// TurnReporter is an Editor that wants to know when a turn ends (the server
// shows the final text to editors without the agent capability). It is
// told once per turn, whichever request started it.
type TurnReporter interface {
	TurnEnded(sessionID string, res TurnResult)
}

// endTurn fills in the turn's last assistant text and records how the
// session's turn ended (for a prompt that joined it while an approval was
// pending).
func (s *Session) endTurn(res TurnResult) TurnResult {
	res.Text = s.lastAssistantText()
	s.mu.Lock()
	s.lastResult = res
	s.mu.Unlock()
	return res
}

// reportTurn tells the editor how a turn ended.
func (s *Session) reportTurn(res TurnResult) {
	if r, ok := s.m.editor.(TurnReporter); ok {
		r.TurnEnded(s.meta.ID, res)
	}
}

// lastAssistantText is the last non-empty assistant text since the turn's
// user message.
func (s *Session) lastAssistantText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.messages) - 1; i >= 0; i-- {
		msg := s.messages[i]
		if msg.Role == llm.RoleUser {
			break
		}
		if msg.Role == llm.RoleAssistant && strings.TrimSpace(msg.Content) != "" {
			return strings.TrimSpace(msg.Content)
		}
	}
	return ""
}

// joinApprovalTurn handles a prompt that arrives while the session's turn
// waits for a plan approval: the prompt rejects the plan with its text as
// the reason, and its result is that of the turn that goes on. ok is false
// when no approval is pending (the prompt proceeds as usual).
func (s *Session) joinApprovalTurn(ctx context.Context, text string, onStart func()) (res TurnResult, ok bool, err error) {
	s.mu.Lock()
	ap, ended, busy := s.approval, s.turnEnded, s.busy
	s.mu.Unlock()
	if ap == nil || !busy {
		return TurnResult{}, false, nil
	}
	reason := strings.TrimSpace(text)
	if reason == "" {
		return TurnResult{}, true, invalidf("text is empty")
	}
	offered, _, err := ap.resolve(ctx, decision{reason: reason, source: "user"})
	if !offered {
		return TurnResult{}, false, nil // decided meanwhile: an ordinary (busy) prompt
	}
	if err != nil {
		return TurnResult{}, true, err
	}
	if onStart != nil {
		onStart()
	}
	select {
	case <-ended:
	case <-ctx.Done():
		return TurnResult{}, true, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastResult, true, nil
}

// textAnswer reads a prompt's text as the answer to the session's pending
// question (PROTOCOL.md §7): nil when nothing is pending or the text is not
// an answer (the prompt then withdraws the question); an error, leaving the
// question pending, when it is an answer that fails the question's schema.
func (s *Session) textAnswer(text string) (*QuestionAnswer, error) {
	s.mu.Lock()
	p, busy, asking := s.pending, s.busy, s.pending != nil && s.pending.turn == s.turnEnded
	s.mu.Unlock()
	if p == nil || (busy && !asking) {
		// Busy with another turn: the prompt is refused as such. (While the
		// asking turn is still ending, the answer waits for it.)
		return nil, nil
	}
	answers, ok := questions.AnswersFromText(p.set, text)
	if !ok {
		return nil, nil
	}
	if errs := p.set.Validate(answers); errs != nil {
		how := "answer again"
		if !questions.IsSingleText(p.set) {
			how = `answer again as JSON ({"name": value}) or name=value lines`
		}
		return nil, invalidf("your reply does not answer the pending question: %s. The question is still pending: %s, or cancel it (agentls.cancel)",
			questions.ValidationError(errs), how)
	}
	return &QuestionAnswer{QuestionID: p.id, Answers: answers}, nil
}

// ErrNoAPIKey is the reason no request is sent to a model endpoint that
// needs a key when none is configured.
var ErrNoAPIKey = errors.New("no API key")

// checkAPIKey refuses an OpenAI-compatible endpoint that is not on this
// machine when no key is configured (unless model.api_key_env is "", which
// says the endpoint needs none): an unauthenticated request to a public
// endpoint would only fail, after leaking the conversation.
func checkAPIKey(cfg config.Config, getenv func(string) string) error {
	if cfg.APIKey(getenv) != "" || cfg.Model.APIKeyEnv == "" || isLoopbackURL(cfg.Model.BaseURL) {
		return nil
	}
	env := cfg.Model.APIKeyEnv
	return fmt.Errorf("%w: set %s, or model.api_key_env in .agentls.yaml, or point OPENAI_BASE_URL at a local server such as Ollama", ErrNoAPIKey, env)
}

// isLoopbackURL tells whether a base URL names this machine.
func isLoopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ModelCheck is agent/checkModel's result (PROTOCOL.md §2).
type ModelCheck struct {
	OK       bool   `json:"ok"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseUrl"`
	Message  string `json:"message,omitempty"`
}

// modelChecker is a provider that can check its endpoint with one cheap
// request.
type modelChecker interface {
	Check(ctx context.Context) error
}

// CheckModel tells whether the configured model can answer: one cheap
// request to its endpoint, or the reason none can be made.
func (m *Manager) CheckModel(ctx context.Context) ModelCheck {
	cfg := m.config()
	res := ModelCheck{Provider: cfg.Model.Provider, Model: cfg.Model.Name, BaseURL: cfg.Model.BaseURL}
	if res.Provider == "" {
		res.Provider = "openai"
	}
	if res.Provider == "scripted" {
		res.BaseURL = ""
	}
	var err error
	switch p := m.Provider().(type) {
	case BrokenProvider:
		err = p.Err
	case modelChecker:
		err = p.Check(ctx)
	}
	if err != nil {
		res.Message = err.Error()
		slog.Info("model check failed", "provider", res.Provider, "model", res.Model, "err", err)
		return res
	}
	res.OK = true
	return res
}

// PendingQuestionID is the id of the session's pending question.
func (m *Manager) PendingQuestionID(id string) (string, error) {
	s, err := m.session(id)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		return "", invalidf("no question is pending in session %s", id)
	}
	return s.pending.id, nil
}
