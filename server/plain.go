package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/instructions"
	"github.com/agentls/agentls/agent/problemtext"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/questions"
)

// Editors that declared no `experimental.agent` get no agent/update
// (PROTOCOL.md §7): the agent's words reach them as window/logMessage lines
// (each model step's text, one line per tool call) and the turn's final text
// as a window/showMessage, which is what Neovim and eglot users see.

// Cuts of long texts, in characters.
const (
	maxLogText  = 4000
	maxShowText = 1200
)

// maxTokensNote follows an answer the model's output token limit cut off
// (stopReason max_tokens), on every face that shows it as text.
const maxTokensNote = "(cut off: the model reached its output token limit — model.max_tokens, or the endpoint's own; ask it to continue)"

// LSP message types.
const (
	msgError   = 1
	msgWarning = 2
	msgInfo    = 3
)

// plainNotes is the state of the plain-client messages: the step text being
// collected per session, tool call titles until their end, each session's
// mode for the line prefix.
type plainNotes struct {
	mu     sync.Mutex
	text   map[string]*strings.Builder // sessionId → this step's text so far
	titles map[string]string           // sessionId + "\x00" + toolCallId → title
	modes  map[string]string           // sessionId → "PLAN" | "BUILD"
	forms  map[string]*plainForm       // sessionId → the form asked one question at a time (plain_form.go)
	// noKeyShown: the missing API key was told to an agent client once.
	noKeyShown bool
}

// plainClient tells whether the editor declared no experimental.agent.
func (s *Server) plainClient() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.caps.agentClient
}

// shortID is the last 6 hex digits of a session's UUID v7 (its first ones
// are a timestamp, shared by sessions made close together).
func shortID(id string) string {
	hex := strings.ReplaceAll(id, "-", "")
	if len(hex) <= 6 {
		return hex
	}
	return hex[len(hex)-6:]
}

// prefix is "[PLAN 01a2f3]" for the session.
func (p *plainNotes) prefix(sessionID string) string {
	p.mu.Lock()
	mode := p.modes[sessionID]
	p.mu.Unlock()
	if mode == "" {
		mode = "PLAN"
	}
	return fmt.Sprintf("[%s %s]", mode, shortID(sessionID))
}

func (p *plainNotes) setMode(sessionID, mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.modes == nil {
		p.modes = map[string]string{}
	}
	p.modes[sessionID] = strings.ToUpper(mode)
}

// cut shortens text to about n characters, at a line or word end when one
// is near, pointing at where the whole text is.
func cut(text string, n int, sessionID string) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	r := []rune(text)[:n]
	s := string(r)
	if i := strings.LastIndexAny(s, "\n "); i > n/2 {
		s = s[:i]
	}
	return strings.TrimRight(s, " \n") + "…\n(full text: `agentls` log / `.agentls/chats/" + sessionID + ".chat`)"
}

// plainUpdate turns one agent/update into the plain client's messages.
func (s *Server) plainUpdate(ctx context.Context, sessionID string, update agent.Update) {
	p := &s.plain
	switch u := update.(type) {
	case agentproto.MessageChunk:
		if u.SessionUpdate != "agent_message_chunk" {
			return // thoughts stay in the log
		}
		p.mu.Lock()
		if p.text == nil {
			p.text = map[string]*strings.Builder{}
		}
		b := p.text[sessionID]
		if b == nil {
			b = &strings.Builder{}
			p.text[sessionID] = b
		}
		b.WriteString(u.Content.Text)
		p.mu.Unlock()
	case agentproto.UsageUpdate:
		s.flushStepText(ctx, sessionID) // a model step ended
	case agentproto.ToolCallStarted:
		s.flushStepText(ctx, sessionID)
		p.mu.Lock()
		if p.titles == nil {
			p.titles = map[string]string{}
		}
		if u.Title != "" {
			p.titles[sessionID+"\x00"+u.ToolCallID] = u.Title
		}
		p.mu.Unlock()
	case agent.UpdateToolCallDone:
		key := sessionID + "\x00" + u.ToolCallID
		p.mu.Lock()
		title := p.titles[key]
		delete(p.titles, key)
		p.mu.Unlock()
		line := toolLine(title, u)
		if u.ChildSessionID != "" {
			line = "[" + agent.ShortID(u.ChildSessionID) + "] " + line // a sub-agent's call
		}
		s.logLine(ctx, sessionID, line)
	case agent.UpdateQuestion:
		s.showPending(ctx, sessionID, u)
	case agentproto.InstructionsLoaded:
		s.logLine(ctx, sessionID, instructions.Summary(u.Files, nil))
	case agentproto.PlanUpdate:
		if u.TickRefused != nil { // why the builder's tick was refused: the step, then a line a problem
			for _, line := range problemtext.TickRefusalLines(*u.TickRefused) {
				s.logLine(ctx, sessionID, line)
			}
		}
	}
}

// toolLine is a tool call's one log line: "→ read `main.go`", "✗ refused
// edit `main.go`: plan mode", "✗ grep `x`: <error>" (the title as the tools
// give it: a path, a pattern or a command is a code span).
func toolLine(title string, u agent.UpdateToolCallDone) string {
	if title == "" {
		title = u.ToolCallID
	}
	switch {
	case u.Refusal != nil && u.Refusal.Reason == guard.ReasonNotGranted:
		return fmt.Sprintf("✗ refused %s: not given to this sub-agent", title)
	case u.Refusal != nil:
		return fmt.Sprintf("✗ refused %s: plan mode", title)
	case u.Status == "failed":
		var out struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(u.RawOutput, &out)
		if out.Error == "" {
			return "✗ " + title
		}
		return fmt.Sprintf("✗ %s: %s", title, firstLine(out.Error, 160))
	}
	return "→ " + title
}

// firstLine is s's first line, at most n characters.
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return s
}

// flushStepText logs the text a model step produced so far, if any.
func (s *Server) flushStepText(ctx context.Context, sessionID string) {
	p := &s.plain
	p.mu.Lock()
	b := p.text[sessionID]
	delete(p.text, sessionID)
	p.mu.Unlock()
	if b == nil || strings.TrimSpace(b.String()) == "" {
		return
	}
	text := strings.TrimSpace(b.String())
	slog.Info("agent text", "session", sessionID, "text", text)
	s.logLine(ctx, sessionID, cut(text, maxLogText, sessionID))
}

// logLine sends a session's line as window/logMessage, under ctx (the
// turn's).
func (s *Server) logLine(ctx context.Context, sessionID, text string) {
	s.notifyClient(ctx, "window/logMessage", map[string]any{"type": msgInfo, "message": s.plain.prefix(sessionID) + " " + questions.Escape(text)})
}

// showLine sends window/showMessage, under ctx (the turn's or the
// request's).
func (s *Server) showLine(ctx context.Context, typ int, text string) {
	s.notifyClient(ctx, "window/showMessage", map[string]any{"type": typ, "message": questions.Escape(text)})
}

// TurnEnded shows a plain client the turn's final text (Warning when the
// turn stopped on an error), and any client a missing API key (Error).
// The turn is over: its messages go under the connection's context (and
// notifyWriteBound).
func (s *Server) TurnEnded(sessionID string, res agent.TurnResult) {
	ctx := s.ctx
	s.refreshLenses()
	plain := s.plainClient()
	if le := new(config.LoadError); errors.As(res.Err, &le) {
		// Each prompt says it (an error, not a warning: nothing else will
		// happen until the file is fixed); agent/prompt's result carries it
		// for the other clients.
		if plain {
			s.showLine(ctx, msgError, "agentls: "+le.Error())
		}
		return
	}
	if errors.Is(res.Err, host.ErrNoAPIKey) {
		s.plain.mu.Lock()
		shown := s.plain.noKeyShown && !plain
		s.plain.noKeyShown = true
		s.plain.mu.Unlock()
		if !shown {
			s.showLine(ctx, msgError, "agentls: "+noKeyMessage(res.Err))
		}
		return
	}
	if !plain {
		return
	}
	s.flushStepText(ctx, sessionID)
	prefix := s.plain.prefix(sessionID)
	text := cut(res.Text, maxShowText, sessionID)
	switch res.StopReason {
	case agentproto.StopEndTurn:
		if text == "" {
			text = "(the agent ended its turn without a message)"
		}
		s.showLine(ctx, msgInfo, prefix+" "+text)
	case agentproto.StopQuestionPending:
		if text != "" {
			s.showLine(ctx, msgInfo, prefix+" "+text)
		}
	case agentproto.StopError:
		msg := "the turn stopped on an error"
		if res.Err != nil {
			msg += ": " + res.Err.Error()
		}
		if text != "" {
			msg = text + "\n" + msg
		}
		s.showLine(ctx, msgWarning, prefix+" "+msg)
	case agentproto.StopMaxTokens:
		s.showLine(ctx, msgWarning, prefix+" "+text+"\n"+maxTokensNote)
	default:
		msg := "the turn stopped: " + string(res.StopReason)
		if text != "" {
			msg = text + "\n" + msg
		}
		s.showLine(ctx, msgWarning, prefix+" "+msg)
	}
}

// noKeyMessage is the missing-key error from "no API key" on.
func noKeyMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, host.ErrNoAPIKey.Error()); i >= 0 {
		return msg[i:]
	}
	return msg
}

// showPending asks a question the editor has no form for one question at
// a time (plain_form.go).
func (s *Server) showPending(_ context.Context, sessionID string, u agent.UpdateQuestion) {
	s.startForm(sessionID, u)
}
