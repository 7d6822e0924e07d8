package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sessionstore"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tokens"
)

// PromptRequest is one user message.
type PromptRequest struct {
	SessionID string
	Text      string
	// Context is an editor selection or file the user attached.
	Context *PromptContext
	// QuestionAnswer answers a pending question in the same message.
	QuestionAnswer *QuestionAnswer
	// OnStart, if set, is called once the turn has begun (the session was
	// free and the message valid), right before the first model request.
	OnStart func()
	// NoNewSession: the face does not offer /new (ACP: the client starts
	// sessions).
	NoNewSession bool
	// RetryOf names the user message of a failed prompt to send again
	// (retry.go): its text is re-sent, the message is not added again.
	RetryOf string
	// Resources are MCP resource URIs the user attached (ACP resource_link
	// of no workspace file): read from the session's MCP servers as
	// context, like @server:uri in Text.
	Resources []string
	// Typed, when set, is the part of Text the user typed; the rest is
	// content the face attached (ACP embedded resources and links), whose
	// @server:uri mentions are never read. Nil: all of Text was typed.
	Typed *string
}

// PromptContext is a file (and optionally a range in it) the user attached.
type PromptContext struct {
	Path      string // absolute path or file URI
	StartLine int    // 0-based, inclusive; -1 when there is no range
	EndLine   int    // 0-based, inclusive
}

// TurnResult is how a turn ended.
type TurnResult struct {
	StopReason agentproto.StopReason
	// Err is set when StopReason is StopError.
	Err error
	// Text is the turn's last assistant text ("" when it had none).
	Text string
	// SessionID is the session a /new command started ("" otherwise).
	SessionID string
}

// Prompt runs one turn: the user's message, then model steps and tool calls
// until the model ends its turn. A second prompt on a busy session is ErrBusy.
func (m *Manager) Prompt(ctx context.Context, req PromptRequest) (TurnResult, error) {
	s, err := m.session(req.SessionID)
	if err != nil {
		return TurnResult{}, err
	}
	if err := s.driveable(); err != nil {
		return TurnResult{}, err
	}
	if req.RetryOf != "" {
		return s.retry(ctx, req) // retry.go
	}
	if s.sub == nil {
		m.titleFirstPrompt(ctx, req.SessionID, req.Text) // session_title.go: a new chat is named by its first prompt
	}
	// mentions is the text whose @server:uri mentions are read: the user's
	// own words, never a command's expansion (an MCP server's prompt, a
	// command file) nor an attached file's content (mcpResourceNotes).
	mentions := req.Text
	if req.Typed != nil {
		mentions = *req.Typed
	}
	if req.QuestionAnswer == nil {
		// A slash command (commands.go): done here, or a prompt that goes on.
		text, res, handled, err := s.runCommand(ctx, req)
		if handled {
			return res, err
		}
		if typed, _ := req.typedAndAttached(); isCommand(typed) {
			mentions = ""
		} else if req.Typed == nil {
			mentions = text
		}
		req.Text = text
	}
	if res, joined, err := s.joinApprovalTurn(ctx, req.Text, req.OnStart); joined {
		return res, err
	}
	if req.QuestionAnswer == nil {
		qa, err := s.textAnswer(req.Text)
		if err != nil {
			return TurnResult{}, err
		}
		if qa != nil {
			req.QuestionAnswer, req.Text = qa, ""
		}
	}
	var release func()
	var answerNote string
	if qa := req.QuestionAnswer; qa != nil {
		ctx, release, answerNote, err = s.beginAnswer(ctx, qa.QuestionID, qa.Answers)
	} else {
		ctx, release, err = s.begin(ctx)
	}
	if err != nil {
		return TurnResult{}, err
	}
	var res TurnResult
	ran := false
	defer func() {
		release()
		var pe *PersistError
		if errors.As(res.Err, &pe) {
			// The turn said the session cannot be saved: the turn-end save
			// failing again is not news for the next turn.
			s.takePersistErr()
		}
		if ran {
			s.reportTurn(res) // once the session is free for the next prompt
		}
	}()
	s.withdrawQuestion()
	text := req.Text
	if answerNote != "" {
		text = strings.TrimSpace(answerNote + "\n" + text)
	}
	if req.Context != nil {
		text += m.contextNote(req.Context)
	}
	text += s.mcpResourceNotes(ctx, mentions, req.Resources) // mcp_prompts.go
	if strings.TrimSpace(text) == "" {
		return TurnResult{}, invalidf("text is empty")
	}
	user := llm.Message{ID: newMessageID(), Role: llm.RoleUser, Content: text}
	s.append(user)
	if req.OnStart != nil {
		req.OnStart()
	}
	if err := s.takePersistErr(); err != nil {
		// The prompt (or a change since the last turn) is not on disk.
		res, ran = s.endTurn(TurnResult{StopReason: agentproto.StopError, Err: err}), true
		return res, nil
	}
	s.checkpoint(ctx, user.ID) // the workspace before the turn, named by its message (checkpoints.go)
	res, ran = s.endTurn(s.runPersisted(ctx)), true
	s.noteTurnError(user.ID, res) // retry.go
	return res, nil
}

// begin marks the session busy and returns the turn's context. A turn that
// was cancelled but is still winding down is waited for (the user may prompt
// again right after agent/cancel); any other running turn is ErrBusy.
//
// Manager.Close waits for the turn (startTurn) and ends it (its context
// ends with the manager's base); once Close has begun, begin fails with
// sessionstore.ErrReleased.
func (s *Session) begin(ctx context.Context) (context.Context, func(), error) {
	if !s.m.startTurn() {
		return nil, nil, fmt.Errorf("session %s: %w", s.ID(), sessionstore.ErrReleased)
	}
	ctx, release, err := s.beginCounted(ctx)
	if err != nil {
		s.m.turns.Done()
		return nil, nil, err
	}
	return ctx, func() {
		release()
		s.m.turns.Done()
	}, nil
}

// beginCounted is begin once the turn is counted.
func (s *Session) beginCounted(ctx context.Context) (context.Context, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.busy {
		if s.turnCtx == nil || s.turnCtx.Err() == nil {
			return nil, nil, ErrBusy
		}
		ended := s.turnEnded
		s.mu.Unlock()
		select {
		case <-ended:
		case <-ctx.Done():
			s.mu.Lock()
			return nil, nil, ctx.Err()
		}
		s.mu.Lock()
	}
	s.busy = true
	ctx, cancel := context.WithCancel(ctx)
	// Close ends the turn even if it began after Close's CancelAll looked.
	unhook := context.AfterFunc(s.m.base, cancel)
	s.cancel, s.turnCtx = cancel, ctx
	ended := make(chan struct{})
	s.turnEnded = ended
	return ctx, func() {
		unhook()
		cancel()
		s.mu.Lock()
		s.busy = false
		s.cancel, s.turnCtx = nil, nil
		save := s.touchMetaLocked() // meta_touch.go
		s.mu.Unlock()
		save()
		close(ended)
	}, nil
}

// turnContext is the running turn's context (Background between turns), for
// a send deep in a call chain that carries none.
func (s *Session) turnContext() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turnCtx == nil {
		return context.Background()
	}
	return s.turnCtx
}

// runTurn is the loop: model step, tool calls, again, until the model stops.
// Before each request the history is compacted when it would pass the
// budget; a request the endpoint refuses as too long for the context window
// is compacted harder and retried once.
func (s *Session) runTurn(ctx context.Context) TurnResult {
	m := s.m
	limit := m.config().MaxTurnRequests
	if limit <= 0 {
		limit = 50
	}
	if s.sub != nil {
		limit = s.sub.maxTurns
	}
	s.mu.Lock()
	turnStart := max(len(s.messages)-1, 0) // the user message that began the turn
	s.mu.Unlock()
	if s.sub == nil {
		progress := m.progress.StartProgress(ctx, s.meta.ID)
		defer progress.End(ctx)
		ctx = withProgress(ctx, progress)
	} // a sub-agent reports through its parent's progress, in ctx
	progress := progressOf(ctx)
	for step := 0; step < limit; step++ {
		if ctx.Err() != nil {
			return TurnResult{StopReason: agentproto.StopCancelled}
		}
		if s.sub != nil && s.sub.exhausted() != "" {
			return TurnResult{StopReason: agentproto.StopMaxTurnRequests}
		}
		progress.Report(ctx, upper(s.State().Mode)+": thinking…")
		msgID := newMessageID() // the chunks streamed carry the id the message is saved with
		resp, sentTokens, err := s.complete(ctx, msgID)
		if ctx.Err() != nil {
			return TurnResult{StopReason: agentproto.StopCancelled}
		}
		if errors.Is(err, llm.ErrContextExceeded) {
			return TurnResult{StopReason: agentproto.StopError, Err: s.setAsideTurn(ctx, turnStart, err)}
		}
		if err != nil {
			slog.Error("model request failed", "session", s.meta.ID, "err", err)
			return TurnResult{StopReason: agentproto.StopError, Err: err}
		}
		if s.sub != nil {
			s.sub.turns.Add(1)
			s.sub.tokens.Add(int64(resp.Usage.InputTokens + resp.Usage.OutputTokens))
		}
		msg := resp.Message
		msg.Role, msg.ID = llm.RoleAssistant, msgID
		s.giveCallIDs(msgID, msg.ToolCalls) // tool_call_ids.go
		for i := range msg.ToolCalls {
			msg.ToolCalls[i].Arguments = capArguments(msg.ToolCalls[i].Arguments)
		}
		s.append(s.withCallViews(historyMessage(msg)))
		if err := s.takePersistErr(); err != nil {
			return TurnResult{StopReason: agentproto.StopError, Err: err}
		}
		m.notes.Update(ctx, s.meta.ID, agentproto.UsageUpdate{
			SessionUpdate: "usage_update", InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens,
			ContextTokens: s.calibrated(sentTokens + tokens.EstimateMessage(msg)), ContextWindow: s.budget().Window,
		})
		if len(msg.ToolCalls) == 0 {
			if strings.TrimSpace(msg.Content) == "" {
				// Kept in the session, left out of later requests (wireSafe);
				// the person would otherwise see the turn end on nothing.
				m.notify(ctx, fmt.Sprintf("[model] session=%s the model answered with nothing (no text, no tool call; finish_reason %q)", s.meta.ID, resp.FinishReason))
			}
			switch resp.FinishReason {
			case "content_filter":
				return TurnResult{StopReason: agentproto.StopRefusal}
			case "length":
				return TurnResult{StopReason: agentproto.StopMaxTokens}
			}
			return TurnResult{StopReason: agentproto.StopEndTurn}
		}
		stop, err := s.runCalls(ctx, msg.ToolCalls, resp.FinishReason == "length")
		if ctx.Err() != nil {
			return TurnResult{StopReason: agentproto.StopCancelled}
		}
		if err != nil {
			return TurnResult{StopReason: agentproto.StopError, Err: err}
		}
		if err := s.takePersistErr(); err != nil {
			return TurnResult{StopReason: agentproto.StopError, Err: err}
		}
		if stop != "" {
			return TurnResult{StopReason: stop}
		}
	}
	return TurnResult{StopReason: agentproto.StopMaxTurnRequests}
}

// complete makes one model request with the streamed text forwarded to the
// editor: compacted first when over the budget (and not sent when it stays
// over), and when the endpoint says it is too long anyway, compacted to
// 90 %, then 75 %, then 60 % of the refused size and sent again before the
// error ends the turn (retryShares). It returns the answer and the raw
// estimate (tokens.EstimateRequest) of the request that got it: each
// request is estimated once, here, not again for the calibration and the
// usage update. The streamed chunks carry msgID, the answer's message id.
func (s *Session) complete(ctx context.Context, msgID string) (llm.Response, float64, error) {
	m := s.m
	s.loadTools(ctx)
	s.askWindow(ctx)
	req, notice := s.buildRequest()
	req, notice, raw, err := s.compactIfNeeded(ctx, req, notice)
	if err != nil {
		return llm.Response{}, raw, err
	}
	s.mu.Lock()
	instr := s.lastInstructions
	s.mu.Unlock()
	s.showInstructions(ctx, instr)
	onEvent := func(ev llm.Event) {
		kind := "agent_message_chunk"
		if ev.Kind == llm.EventThought {
			kind = "agent_thought_chunk"
		}
		m.notes.Update(ctx, s.meta.ID, agentproto.MessageChunk{SessionUpdate: kind, Content: agentproto.TextContent{Type: "text", Text: ev.Text}, MessageID: msgID})
	}
	refused, last := 0, 0 // the sizes of the first and the last request refused as too long
	for attempt := 0; ; attempt++ {
		resp, err := m.Provider().Complete(ctx, req, onEvent)
		if err == nil {
			s.clearNotice(notice)
			s.clearRewindNote(req.System)
			if w := cutWindow(resp.Usage.InputTokens, raw); w > 0 {
				// Not a count of this request: no calibration from it.
				s.noteCut(ctx, s.requestModel(s.State().Mode), s.calibrated(raw), w)
			} else {
				s.calibrate(req, raw, resp.Usage.InputTokens)
			}
			return resp, raw, nil
		}
		if !errors.Is(err, llm.ErrContextExceeded) || ctx.Err() != nil || attempt >= len(retryShares) {
			return resp, raw, err
		}
		size := s.calibrated(raw)
		if refused == 0 {
			refused = size
		}
		counts := llm.CountsOf(err)
		stated := statedWindow(counts, size)
		if s.noteOverflow(s.requestModel(s.State().Mode), size, stated) {
			slog.Warn("the endpoint refused two requests of one size or stating one window: its context window is smaller than assumed", "session", s.meta.ID, "window", s.budget().Window)
		}
		target := int(retryShares[attempt] * float64(refused))
		if t := s.statedTarget(counts, stated); t > 0 && t < target {
			// The endpoint said how large its window is: one retry
			// compacted to fit it, not three toward it.
			target = t
		}
		slog.Warn("the model's context window was exceeded; compacting and retrying", "session", s.meta.ID,
			"attempt", attempt+1, "target_tokens", target, "err", err)
		c, cerr := s.compact(ctx, keepRecentShareHard, false, target)
		if cerr != nil {
			return resp, raw, err
		}
		if c.done() {
			req, notice = s.buildRequest()
			raw = tokens.EstimateRequest(req)
		}
		if s.calibrated(raw) > target && size == last {
			// Refused twice at this size and nothing more to compact: the
			// turn's own messages are too long. (Once, the same request is
			// sent again: the refusal may have been spurious.)
			return resp, raw, err
		}
		last = size
	}
}

// setAsideTurn ends a turn whose request stayed too long for the context
// window after compaction: its messages (from the user message that began
// it) are left out of the model's view from now on, so the session is no
// worse than before the prompt, and a shorter prompt works. They stay in
// the session file.
func (s *Session) setAsideTurn(ctx context.Context, from int, cause error) error {
	s.mu.Lock()
	to := len(s.messages)
	s.mu.Unlock()
	s.record(chatRecord{Record: recordSetAside, From: from, To: to, Reason: "context_length_exceeded"})
	b := s.budget()
	window := b.Window
	s.m.notify(ctx, fmt.Sprintf("[compaction] session=%s the request did not fit the model's context window (%d tokens) even after compaction: the prompt was set aside", s.meta.ID, window))
	remedy := "send a shorter message, or set model.context_window to the server's real window"
	switch c := llm.CountsOf(cause); {
	case c.Window > 0:
		// The endpoint said its window: name it, and what to do.
		said := fmt.Sprintf("the endpoint says the model's context window is %d tokens", c.Window)
		if c.Prompt > 0 {
			said += fmt.Sprintf(" and the request was %d", c.Prompt)
		}
		remedy = fmt.Sprintf("%s: start the model's server with a larger context (llama.cpp -c, LM Studio's context length, Ollama num_ctx), or set model.context_window to %d and send a shorter message", said, c.Window)
	case s.learnedByCut():
		remedy = cutRemedy(window) + "; or send a shorter message"
	case b.Reported != "":
		remedy = reportedRemedy(b) + "; or send a shorter message"
	}
	return fmt.Errorf("the conversation did not fit the model's context window (%d tokens) even after compaction, so this prompt was set aside: it stays in the history but is not sent again; %s: %w", window, remedy, cause)
}

// historyMessage is the assistant message as kept in the conversation: tool
// call arguments that are not valid JSON are wrapped in a JSON string, since
// some OpenAI-compatible servers reject a history holding invalid JSON.
func historyMessage(msg llm.Message) llm.Message {
	calls := make([]agentproto.ToolCall, len(msg.ToolCalls))
	for i, c := range msg.ToolCalls {
		if strings.TrimSpace(c.Arguments) != "" && !json.Valid([]byte(c.Arguments)) {
			b, _ := json.Marshal(map[string]string{"invalid_json_arguments": c.Arguments})
			c.Arguments = string(b)
		}
		calls[i] = c
	}
	msg.ToolCalls = calls
	return msg
}

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
