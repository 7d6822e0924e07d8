package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/sourcegraph/conc/iter"
	"github.com/sourcegraph/conc/panics"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// StopReason says why a turn ended (PROTOCOL.md §2).
type StopReason string

// The stop reasons of a turn.
const (
	StopEndTurn         StopReason = "end_turn"
	StopCancelled       StopReason = "cancelled"
	StopQuestionPending StopReason = "question_pending"
	StopMaxTurnRequests StopReason = "max_turn_requests"
	StopRefusal         StopReason = "refusal"
	StopError           StopReason = "error"
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
}

// PromptContext is a file (and optionally a range in it) the user attached.
type PromptContext struct {
	Path      string // absolute path or file URI
	StartLine int    // 0-based, inclusive; -1 when there is no range
	EndLine   int    // 0-based, inclusive
}

// QuestionAnswer answers a pending question.
type QuestionAnswer struct {
	QuestionID string
	Answers    map[string]any
}

// TurnResult is how a turn ended.
type TurnResult struct {
	StopReason StopReason
	// Err is set when StopReason is StopError.
	Err error
	// Text is the turn's last assistant text ("" when it had none).
	Text string
}

// errApprovalTimeout ends a turn whose plan approval got no answer in time.
var errApprovalTimeout = errors.New("approval timed out")

// Prompt runs one turn: the user's message, then model steps and tool calls
// until the model ends its turn. A second prompt on a busy session is ErrBusy.
func (m *Manager) Prompt(ctx context.Context, req PromptRequest) (TurnResult, error) {
	s, err := m.session(req.SessionID)
	if err != nil {
		return TurnResult{}, err
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
	if strings.TrimSpace(text) == "" {
		return TurnResult{}, invalidf("text is empty")
	}
	s.append(llm.Message{Role: llm.RoleUser, Content: text})
	if req.OnStart != nil {
		req.OnStart()
	}
	res, ran = s.endTurn(s.runTurn(ctx)), true
	return res, nil
}

// begin marks the session busy and returns the turn's context. A turn that
// was cancelled but is still winding down is waited for (the user may prompt
// again right after agent/cancel); any other running turn is ErrBusy.
func (s *Session) begin(ctx context.Context) (context.Context, func(), error) {
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
	s.cancel, s.turnCtx = cancel, ctx
	ended := make(chan struct{})
	s.turnEnded = ended
	return ctx, func() {
		cancel()
		s.mu.Lock()
		s.busy = false
		s.cancel, s.turnCtx = nil, nil
		save := s.saveMetaLocked()
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

// beginAnswer validates an answer to the pending question qid, begins the
// turn that carries it (see beginAnswering) and takes the answer, returning
// the summary line for the conversation. Invalid answers, or a busy session,
// change nothing.
func (s *Session) beginAnswer(ctx context.Context, qid string, answers map[string]any) (context.Context, func(), string, error) {
	if err := s.checkAnswer(qid, answers); err != nil {
		return nil, nil, "", err
	}
	ctx, release, err := s.beginAnswering(ctx, qid)
	if err != nil {
		return nil, nil, "", err
	}
	note, err := s.takeAnswer(qid, answers)
	if err != nil {
		release()
		return nil, nil, "", err
	}
	return ctx, release, note, nil
}

// beginAnswering is begin for an answer to question qid: while the turn that
// asked it is still ending (the editor may answer as soon as it sees the
// question), it waits for that turn instead of failing with ErrBusy.
func (s *Session) beginAnswering(ctx context.Context, qid string) (context.Context, func(), error) {
	for {
		s.mu.Lock()
		ended := s.turnEnded
		asking := s.busy && s.pending != nil && s.pending.id == qid
		s.mu.Unlock()
		if !asking {
			return s.begin(ctx)
		}
		select {
		case <-ended:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
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
	s.mu.Lock()
	turnStart := max(len(s.messages)-1, 0) // the user message that began the turn
	s.mu.Unlock()
	progress := m.editor.StartProgress(s.meta.ID)
	defer progress.End(ctx)
	ctx = withProgress(ctx, progress)
	for step := 0; step < limit; step++ {
		if ctx.Err() != nil {
			return TurnResult{StopReason: StopCancelled}
		}
		progress.Report(ctx, upper(s.State().Mode)+": thinking…")
		resp, sent, err := s.complete(ctx)
		if ctx.Err() != nil {
			return TurnResult{StopReason: StopCancelled}
		}
		if errors.Is(err, llm.ErrContextExceeded) {
			return TurnResult{StopReason: StopError, Err: s.setAsideTurn(ctx, turnStart, err)}
		}
		if err != nil {
			slog.Error("model request failed", "session", s.meta.ID, "err", err)
			return TurnResult{StopReason: StopError, Err: err}
		}
		msg := resp.Message
		msg.Role = llm.RoleAssistant
		for i := range msg.ToolCalls {
			if msg.ToolCalls[i].ID == "" {
				msg.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", step, i)
			}
			msg.ToolCalls[i].Arguments = capArguments(msg.ToolCalls[i].Arguments)
		}
		s.append(historyMessage(msg))
		m.editor.Update(ctx, s.meta.ID, UpdateUsage{
			SessionUpdate: "usage_update", InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens,
			ContextTokens: s.calibrated(estimateRequest(sent) + estimateMessage(msg)), ContextWindow: s.budget().window,
		})
		if len(msg.ToolCalls) == 0 {
			if resp.FinishReason == "content_filter" {
				return TurnResult{StopReason: StopRefusal}
			}
			return TurnResult{StopReason: StopEndTurn}
		}
		stop, err := s.runCalls(ctx, msg.ToolCalls)
		if ctx.Err() != nil {
			return TurnResult{StopReason: StopCancelled}
		}
		if err != nil {
			return TurnResult{StopReason: StopError, Err: err}
		}
		if stop != "" {
			return TurnResult{StopReason: stop}
		}
	}
	return TurnResult{StopReason: StopMaxTurnRequests}
}

// complete makes one model request with the streamed text forwarded to the
// editor: compacted first when over the budget, and when the endpoint says
// it is too long anyway, compacted harder and sent once more. It returns
// the answer and the request that got it.
func (s *Session) complete(ctx context.Context) (llm.Response, llm.Request, error) {
	m := s.m
	req, notice := s.buildRequest()
	req, notice = s.compactIfNeeded(ctx, req, notice)
	onEvent := func(ev llm.Event) {
		kind := "agent_message_chunk"
		if ev.Kind == llm.EventThought {
			kind = "agent_thought_chunk"
		}
		m.editor.Update(ctx, s.meta.ID, UpdateChunk{SessionUpdate: kind, Content: TextContent{Type: "text", Text: ev.Text}})
	}
	for attempt := 0; ; attempt++ {
		resp, err := m.Provider().Complete(ctx, req, onEvent)
		if err == nil {
			s.clearNotice(notice)
			s.calibrate(req, resp.Usage.InputTokens)
			return resp, req, nil
		}
		if attempt > 0 || !errors.Is(err, llm.ErrContextExceeded) || ctx.Err() != nil {
			return resp, req, err
		}
		slog.Warn("the model's context window was exceeded; compacting and retrying once", "session", s.meta.ID, "err", err)
		s.learnWindow(req)
		c, cerr := s.compact(ctx, keepRecentShareHard, false)
		if cerr != nil || !c.done() {
			return resp, req, err
		}
		req, notice = s.buildRequest()
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
	window := s.budget().window
	s.m.notify(ctx, fmt.Sprintf("[compaction] session=%s the request did not fit the model's context window (%d tokens) even after compaction: the prompt was set aside", s.meta.ID, window))
	return fmt.Errorf("the conversation did not fit the model's context window (%d tokens) even after compaction, so this prompt was set aside: it stays in the history but is not sent again; send a shorter message, or set model.context_window to the server's real window: %w", window, cause)
}

// historyMessage is the assistant message as kept in the conversation: tool
// call arguments that are not valid JSON are wrapped in a JSON string, since
// some OpenAI-compatible servers reject a history holding invalid JSON.
func historyMessage(msg llm.Message) llm.Message {
	calls := make([]llm.ToolCall, len(msg.ToolCalls))
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

// MaxToolArgBytes caps a tool call's arguments: larger ones are refused and
// stored as a short stub, not kept and re-sent with every request.
const MaxToolArgBytes = 1 << 20

// refusedArgsKey marks the stub that replaces refused arguments.
const refusedArgsKey = "agentls_arguments_refused"

// capArguments returns args, or the stub of arguments over MaxToolArgBytes.
func capArguments(args string) string {
	if len(args) <= MaxToolArgBytes {
		return args
	}
	b, _ := json.Marshal(map[string]string{refusedArgsKey: fmt.Sprintf("arguments refused: %s over the 1 MB cap", byteSize(len(args)))})
	return string(b)
}

// refusedArguments returns the reason stored in a refused call's stub.
func refusedArguments(args string) (string, bool) {
	if !strings.Contains(args, refusedArgsKey) {
		return "", false
	}
	var stub map[string]string
	if json.Unmarshal([]byte(args), &stub) != nil || len(stub) != 1 || stub[refusedArgsKey] == "" {
		return "", false
	}
	return stub[refusedArgsKey], true
}

// callOutcome is one executed tool call.
type callOutcome struct {
	result tools.Result
	err    error // ends the turn (approval timeout)
}

// runCalls runs one step's tool calls: consecutive read-only calls in
// parallel, mutating calls one at a time, results appended in call order.
func (s *Session) runCalls(ctx context.Context, calls []llm.ToolCall) (StopReason, error) {
	for _, c := range calls {
		s.m.editor.Update(ctx, s.meta.ID, UpdateToolCall{
			SessionUpdate: "tool_call", ToolCallID: c.ID, Title: s.title(c), Kind: s.kind(c),
			Status: "pending", RawInput: rawInput(c.Arguments),
		})
	}
	outcomes := make([]callOutcome, len(calls))
	for i := 0; i < len(calls); {
		j := i + 1
		if s.readOnly(calls[i].Name) {
			for j < len(calls) && s.readOnly(calls[j].Name) {
				j++
			}
		}
		batch := calls[i:j]
		res := iter.Map(batch, func(c *llm.ToolCall) callOutcome { return s.runCall(ctx, *c) })
		copy(outcomes[i:j], res)
		i = j
	}
	var stop StopReason
	var turnErr error
	for i, c := range calls {
		out := outcomes[i]
		if out.err != nil && turnErr == nil {
			turnErr = out.err
		}
		s.append(llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: out.result.JSON()})
		if out.result.Stop != "" && stop == "" {
			stop = StopReason(out.result.Stop)
		}
	}
	return stop, turnErr
}

// runCall runs one call: lookup, JSON check, the guard's first check (mode
// read now), the tool, and its tool_call_update.
func (s *Session) runCall(ctx context.Context, c llm.ToolCall) (out callOutcome) {
	m := s.m
	s.m.editor.Update(ctx, s.meta.ID, UpdateToolCall{
		SessionUpdate: "tool_call", ToolCallID: c.ID, Title: s.title(c), Kind: s.kind(c), Status: "in_progress",
	})
	defer func() {
		status := "completed"
		if !out.result.Success {
			status = "failed"
		}
		text := out.result.JSON()
		// The call's end is shown also when the turn was cancelled.
		ctx, cancel := finalSendContext(ctx)
		defer cancel()
		m.editor.Update(ctx, s.meta.ID, UpdateToolCallDone{
			SessionUpdate: "tool_call_update", ToolCallID: c.ID, Status: status,
			Content:   []ToolContent{{Type: "content", Content: TextContent{Type: "text", Text: text}}},
			RawOutput: json.RawMessage(text), Refusal: out.result.Refusal,
		})
	}()
	progressOf(ctx).Report(ctx, fmt.Sprintf("%s: running %s…", upper(s.State().Mode), c.Name))
	tool, ok := m.tools.Lookup(c.Name)
	if !ok {
		return callOutcome{result: tools.Failf("unknown tool %q; the tools are: %s", c.Name, strings.Join(m.tools.Names(), ", "))}
	}
	if why, ok := refusedArguments(c.Arguments); ok {
		return callOutcome{result: tools.Failf("the arguments of %s were not run: %s. Send large content in pieces of under 1 MB (e.g. write a first part, then add the rest with edit)", c.Name, why)}
	}
	args := json.RawMessage(c.Arguments)
	if strings.TrimSpace(c.Arguments) == "" {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return callOutcome{result: tools.Failf("the arguments of %s are not valid JSON (%s); call it again with a JSON object", c.Name, excerpt(c.Arguments, 120))}
	}
	if r := m.Guard().CheckCall(s.State(), c.Name, args); r != nil {
		m.notify(ctx, guard.NotifyRefused(r))
		return callOutcome{result: tools.Refused(r)}
	}
	var res tools.Result
	var err error
	var catcher panics.Catcher
	catcher.Try(func() { res, err = tool.Run(ctx, &env{s: s, ctx: ctx}, args) })
	if rec := catcher.Recovered(); rec != nil {
		slog.Error("tool panicked", "tool", c.Name, "panic", rec.String())
		return callOutcome{result: tools.Failf("internal error in %s: %v", c.Name, rec.Value)}
	}
	if err != nil {
		if errors.Is(err, errApprovalTimeout) {
			return callOutcome{result: tools.Failf("%v", err), err: err}
		}
		var r *guard.Refusal
		if errors.As(err, &r) {
			m.notify(ctx, guard.NotifyRefused(r))
			return callOutcome{result: tools.Refused(r)}
		}
		if ctx.Err() != nil {
			return callOutcome{result: tools.Failf("cancelled by the user")}
		}
		slog.Error("tool failed", "tool", c.Name, "err", err)
		return callOutcome{result: tools.Failf("%s failed: %v", c.Name, err)}
	}
	if res.Refusal != nil {
		m.notify(ctx, guard.NotifyRefused(res.Refusal))
	}
	return callOutcome{result: res}
}

// readOnly reports whether a call may run in parallel with its neighbours:
// a declared read-only tool that runs unattended. Questions and approvals
// wait for the user and mode switches change how later calls are judged:
// they run alone, in order.
func (s *Session) readOnly(name string) bool {
	d, ok := s.m.tools.Declarations().Lookup(name)
	return ok && d.Class == guard.ClassReadOnly && d.Interaction == guard.Unattended
}

func (s *Session) title(c llm.ToolCall) string {
	if t, ok := s.m.tools.Lookup(c.Name); ok && json.Valid([]byte(c.Arguments)) {
		return t.Title(json.RawMessage(c.Arguments))
	}
	return c.Name
}

func (s *Session) kind(c llm.ToolCall) string {
	if t, ok := s.m.tools.Lookup(c.Name); ok {
		return t.Kind()
	}
	return "other"
}

// rawInput is the call's arguments as JSON, or a JSON string when invalid.
func rawInput(args string) json.RawMessage {
	if json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// checkAnswer validates an answer to the pending question without taking it.
func (s *Session) checkAnswer(questionID string, answers map[string]any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.checkAnswerLocked(questionID, answers)
}

func (s *Session) checkAnswerLocked(questionID string, answers map[string]any) error {
	if s.pending == nil || s.pending.id != questionID {
		return invalidf("question %q is not pending", questionID)
	}
	if errs := s.pending.set.Validate(answers); errs != nil {
		return invalidf("invalid answers: %s", questions.ValidationError(errs))
	}
	return nil
}

// takeAnswer validates an answer to the pending question, takes it and
// returns the summary line for the conversation. Nothing changes when it is
// invalid.
func (s *Session) takeAnswer(questionID string, answers map[string]any) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkAnswerLocked(questionID, answers); err != nil {
		return "", err
	}
	note := answerNote(s.pending.set, questionID, answers)
	s.pending = nil
	return note, nil
}

// withdrawQuestion drops a pending question: a newer user message replaces it.
func (s *Session) withdrawQuestion() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending != nil {
		slog.Info("pending question withdrawn by a newer message", "session", s.meta.ID, "question", s.pending.id)
		s.pending = nil
	}
}

func answerNote(set *questions.Set, id string, answers map[string]any) string {
	b, _ := json.Marshal(answers)
	return fmt.Sprintf("%s\n(answers to question %s: %s)", questions.Summary(set.Questions, answers), id, b)
}

// Answer answers a pending question (agent/answer) and resumes the
// conversation in the background, as a new turn. Invalid answers, or a busy
// session, change nothing.
func (m *Manager) Answer(id, questionID string, answers map[string]any) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	if !m.startBackground() {
		return errors.New("the server is shutting down: the answer was not taken")
	}
	ctx, release, note, err := s.beginAnswer(m.base, questionID, answers)
	if err != nil {
		m.wg.Done()
		return err
	}
	s.append(llm.Message{Role: llm.RoleUser, Content: note})
	go func() {
		defer m.wg.Done()
		res := s.endTurn(s.runTurn(ctx))
		release()
		s.reportTurn(res)
		slog.Info("resumed turn ended", "session", id, "stopReason", res.StopReason, "err", res.Err)
	}()
	return nil
}

// progressKey is the context key of a turn's progress handle.
type progressKey struct{}

func withProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// progressOf is the turn's progress handle (one that shows nothing outside
// a turn).
func progressOf(ctx context.Context) Progress {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok {
		return p
	}
	return noProgress{}
}

// noProgress shows nothing.
type noProgress struct{}

func (noProgress) Report(context.Context, string) {}
func (noProgress) End(context.Context)            {}

// finalSendGrace bounds a send that reports how something ended after its
// turn was cancelled (a tool call's end, the progress's end): the editor
// must hear it, but a client that stops reading holds the turn no longer.
const finalSendGrace = 5 * time.Second

// finalSendContext is ctx without its cancellation, bounded by finalSendGrace.
func finalSendContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), finalSendGrace)
}
