package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// command is one workspace/executeCommand command (PROTOCOL.md §6). Its
// single argument object is what the matching agent/* method takes; shape
// says it in the user's terms for error messages.
type command struct {
	run   handlerFunc
	shape string
	// session: the argument's sessionId defaults to the current session.
	session bool
}

// commandHandlers are the commands that do more than, or other than, the
// agent/* method they are named for; the other commands of agentproto's
// table run their method's handler (agentHandlers).
var commandHandlers = handlers(
	handle(agentproto.NewSession, (*Server).newSessionCommand),
	handle(agentproto.PromptCommand, (*Server).promptCommand),
	handle(agentproto.AnswerCommand, (*Server).answerCommand),
	handle(agentproto.ApprovePlan, (*Server).approvePlanCommand),
	handle(agentproto.RejectPlan, (*Server).rejectPlanCommand),
	handle(agentproto.CheckModel, (*Server).checkModelCommand),
	handle(agentproto.Status, (*Server).statusCommand), // status.go
	handle(agentproto.ShowPlan, (*Server).showPlanCommand),
	handle(agentproto.BuildPlan, (*Server).buildPlanCommand),
	handle(agentproto.ArchivePlan, (*Server).archivePlanCommand),
	handle(agentproto.RequestChanges, (*Server).requestChanges),
)

// commands are the workspace/executeCommand commands: the rows of
// agentproto's table with a command, each with its handler, argument shape
// and session default (TestHandlersFromTable checks none is missing).
var commands = commandsFromTable()

func commandsFromTable() map[string]command {
	out := map[string]command{}
	for _, m := range agentproto.Table() {
		if m.Command == "" {
			continue
		}
		run, ok := commandHandlers[m.Name]
		if !ok {
			run, ok = agentHandlers[m.Name]
		}
		if ok {
			out[m.Command] = command{run: run, shape: m.CommandShape, session: m.CommandSession}
		}
	}
	return out
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (s *Server) executeCommand(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p struct {
		Command   string          `json:"command"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	cmd, ok := commands[p.Command]
	if !ok {
		return nil, invalidParams("unknown command %q; the commands are: %s", p.Command, strings.Join(commandNames(), ", "))
	}
	if !s.isInitialized() {
		return nil, jsonrpc2.NewError(serverNotInitialized, "server not initialized")
	}
	arg, err := commandArg(p.Arguments)
	if err != nil {
		return nil, invalidParams("%s expects %s; got %s", p.Command, cmd.shape, err)
	}
	if cmd.session {
		if arg, err = s.withSession(arg); err != nil {
			return nil, invalidParams("%s: %v", p.Command, err)
		}
	}
	res, err := cmd.run(s, ctx, jsonrpc2.RawMessage(arg))
	if je, ok := err.(*jsonrpc2.Error); ok && je.Code == jsonrpc2.InvalidParams && !strings.HasPrefix(je.Message, p.Command) {
		je.Message = fmt.Sprintf("%s: %s (it expects %s)", p.Command, je.Message, cmd.shape)
	}
	return res, err
}

// commandArg is the single argument object of a command: arguments may be
// [], [{}], [null], [object] or the object itself. err describes what came
// instead, in the user's terms.
func commandArg(raw json.RawMessage) (json.RawMessage, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}"), nil
	}
	if raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("arguments that are not valid JSON")
		}
		if len(list) == 0 {
			return json.RawMessage("{}"), nil
		}
		raw = json.RawMessage(strings.TrimSpace(string(list[0])))
		if string(raw) == "null" {
			return json.RawMessage("{}"), nil
		}
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("%s", describeJSON(raw))
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("an object that is not valid JSON")
	}
	return raw, nil
}

// describeJSON names a JSON value's kind as a person would.
func describeJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "arguments that are not valid JSON"
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return "an empty list"
		}
		return "a list"
	case string:
		return fmt.Sprintf("the text %q", firstLine(x, 40))
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case map[string]any:
		return "an object"
	}
	return "nothing"
}

// withSession fills in a missing sessionId with the current session.
func (s *Server) withSession(arg json.RawMessage) (json.RawMessage, error) {
	if argString(arg, "sessionId") != "" {
		return arg, nil
	}
	id := s.currentSession()
	if id == "" {
		return nil, fmt.Errorf("no session yet: start one with agentls.prompt or agentls.newSession, or pass \"sessionId\"")
	}
	return withArg(arg, "sessionId", id)
}

// argString is the text at key in a command's argument object ("" when it
// is missing or not text).
func argString(arg json.RawMessage, key string) string {
	var m map[string]any
	_ = json.Unmarshal(arg, &m)
	s, _ := m[key].(string)
	return s
}

// withArg is a command's argument object with key set to value.
func withArg(arg json.RawMessage, key string, value any) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(arg, &m); err != nil {
		return nil, err
	}
	m[key] = value
	return json.Marshal(m)
}

func (s *Server) currentSession() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

func (s *Server) setCurrent(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.current = id
}

// rejectPlanCommand is agentls.rejectPlan: agent/resolvePlan with
// "reject".
func (s *Server) rejectPlanCommand(ctx context.Context, p agentproto.PlanDecisionParams) (agentproto.Session, error) {
	return s.resolvePlan(ctx, agentproto.ResolvePlanParams{SessionID: p.SessionID, Decision: agentproto.DecisionReject, Reason: p.Reason, PlanFile: p.PlanFile})
}

// newSessionCommand is agent/newSession that also says the new session's id
// in a message (a plain editor shows nothing else).
func (s *Server) newSessionCommand(ctx context.Context, p agentproto.NewSessionParams) (agentproto.Session, error) {
	info, err := s.newSession(ctx, p)
	if err == nil {
		s.showLine(ctx, msgInfo, fmt.Sprintf("agentls: new %s session %s (%s)", info.Mode, info.SessionID, shortID(info.SessionID)))
	}
	return info, err
}

// promptCommand is agentls.prompt: the turn starts and the command returns
// at once with {sessionId, started: true} (editors wait on executeCommand
// with a short timeout); the turn reports through agent/update or, for a
// plain editor, log lines and a final message. Without a sessionId it uses
// the current session, creating a plan session if there is none.
func (s *Server) promptCommand(_ context.Context, p agentproto.PromptParams) (agentproto.PromptStarted, error) {
	req, err := promptRequest(p)
	if err != nil {
		return agentproto.PromptStarted{}, err
	}
	if strings.TrimSpace(req.Text) == "" && req.QuestionAnswer == nil && req.RetryOf == "" {
		return agentproto.PromptStarted{}, invalidParams(`agentls.prompt expects {"text": "…"}; got no text`)
	}
	mgr := s.manager()
	if req.SessionID == "" {
		req.SessionID = s.currentSession()
	}
	if req.SessionID == "" {
		info, err := mgr.NewSession(s.ctx, "plan", "")
		if err != nil {
			return agentproto.PromptStarted{}, rpcError(err)
		}
		req.SessionID = info.SessionID
	}
	s.setCurrent(req.SessionID)
	if req.QuestionAnswer == nil && req.RetryOf == "" {
		// A form question waiting for this prompt takes it (plain_form.go).
		if res, handled, err := s.formPrompt(req.SessionID, req.Text); handled {
			return res, err
		}
	}
	started := make(chan struct{})
	ended := make(chan promptEnd, 1)
	req.OnStart = func() { close(started) }
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		res, err := mgr.Prompt(s.ctx, req)
		if err == nil {
			slog.Info("prompt command: turn ended", "session", req.SessionID, "stopReason", res.StopReason)
		}
		ended <- promptEnd{res, err}
	}()
	select {
	case <-started:
	case e := <-ended:
		if e.err != nil {
			return agentproto.PromptStarted{}, rpcError(e.err)
		}
		if e.res.SessionID != "" { // a slash command (/new) started a session
			s.setCurrent(e.res.SessionID)
			req.SessionID = e.res.SessionID
		}
	}
	return agentproto.PromptStarted{SessionID: req.SessionID, Started: true}, nil
}

// promptEnd is how agentls.prompt's turn (or slash command) ended.
type promptEnd struct {
	res agent.TurnResult
	err error
}

// answerCommand is agentls.answer: agent/answer whose questionId defaults
// to the session's pending question.
func (s *Server) answerCommand(ctx context.Context, p agentproto.AnswerCommandParams) (agentproto.Accepted, error) {
	if p.QuestionID == "" {
		qid, err := s.manager().PendingQuestionID(p.SessionID)
		if err != nil {
			return agentproto.Accepted{}, rpcError(err)
		}
		p.QuestionID = qid
	}
	return s.answer(ctx, agentproto.AnswerParams(p))
}

func (s *Server) checkModelCommand(ctx context.Context, p agentproto.Empty) (agentproto.ModelCheck, error) {
	c, err := s.checkModel(ctx, p)
	if err == nil {
		typ, text := msgInfo, fmt.Sprintf("agentls: model %s at %s answers", c.Model, c.BaseURL)
		if c.ContextWindow > 0 {
			text += fmt.Sprintf("; context window %d tokens (%s)", c.ContextWindow, c.ContextWindowSource)
		}
		if !c.OK {
			typ, text = msgError, fmt.Sprintf("agentls: model %s: %s", c.Model, c.Message)
		}
		s.showLine(ctx, typ, text)
		s.showMCPStatus(ctx, c.MCPServers)
	}
	return c, err
}

// buildPlanCommand is agentls.buildPlan {path}: a new build session with the
// plan attached (and approved). Its result is the Session.
func (s *Server) buildPlanCommand(ctx context.Context, p agentproto.PlanPathParams) (agentproto.Session, error) {
	info, err := s.manager().BuildPlan(jsonrpc2.DetachContext(ctx), p.Path)
	if err != nil {
		return agentproto.Session{}, rpcError(err)
	}
	s.setCurrent(info.SessionID)
	return info, nil
}

// archivePlanCommand is agentls.archivePlan {path}: the plan's status
// becomes archived. Its result is {path, status}.
func (s *Server) archivePlanCommand(ctx context.Context, p agentproto.PlanPathParams) (agentproto.ArchivedPlan, error) {
	rel, err := s.manager().ArchivePlan(jsonrpc2.DetachContext(ctx), p.Path)
	if err != nil {
		return agentproto.ArchivedPlan{}, rpcError(err)
	}
	s.refreshLenses()
	return agentproto.ArchivedPlan{Path: rel, Status: agentproto.PlanArchived}, nil
}

// showPlanCommand is agentls.showPlan {path}: the plan's title, status and
// steps, as the result and in a message (the progress lens runs it).
func (s *Server) showPlanCommand(ctx context.Context, p agentproto.PlanPathParams) (agentproto.ShownPlan, error) {
	if strings.TrimSpace(p.Path) == "" {
		return agentproto.ShownPlan{}, invalidParams(`agentls.showPlan expects {"path": "plans/….plan"}; the path is empty`)
	}
	ws := s.workspace()
	wp, err := ws.Resolve(p.Path)
	if err != nil || !wp.Exists || !isPlanDoc(wp.Abs) {
		return agentproto.ShownPlan{}, invalidParams("agentls.showPlan: %s is not a .plan file in the workspace", p.Path)
	}
	text, err := ws.ReadFile(wp)
	if err != nil {
		return agentproto.ShownPlan{}, invalidParams("agentls.showPlan: read %s: %v", wp.Rel, err)
	}
	plan, _ := workspace.ParsePlan(text)
	res := agentproto.ShownPlan{Path: wp.Rel, Title: planTitle(plan, wp.Rel), Status: planStatus(plan), Steps: make([]agentproto.PlanStep, 0, len(plan.Steps))}
	for _, st := range plan.Steps {
		res.Steps = append(res.Steps, agentproto.PlanStep{Text: st.Text, Done: st.Done})
	}
	s.showLine(ctx, msgInfo, fmt.Sprintf("%s (%s, %s): %d/%d steps done\n%s", res.Title, wp.Rel, res.Status, plan.StepsDone(), len(plan.Steps), stepList(plan, 0, 0)))
	return res, nil
}

// planTitle is the plan's title, or its file name without one.
func planTitle(plan workspace.Plan, rel string) string {
	if plan.Meta != nil && strings.TrimSpace(plan.Meta.Title) != "" {
		return strings.TrimSpace(plan.Meta.Title)
	}
	return rel
}

func planStatus(plan workspace.Plan) agentproto.PlanStatus {
	if plan.Meta == nil || plan.Meta.Status == "" {
		return agentproto.PlanDraft
	}
	return plan.Meta.Status
}

// stepList numbers the plan's steps, one per line, each cut to width
// characters and at most max of them (0: no limit).
func stepList(plan workspace.Plan, max, width int) string {
	var b strings.Builder
	for i, st := range plan.Steps {
		if max > 0 && i == max {
			fmt.Fprintf(&b, "… and %d more steps\n", len(plan.Steps)-max)
			break
		}
		box := "[ ]"
		if st.Done {
			box = "[x]"
		}
		text := st.Text
		if width > 0 {
			text = firstLine(text, width)
		}
		fmt.Fprintf(&b, "%d. %s %s\n", i+1, box, text)
	}
	if len(plan.Steps) == 0 {
		b.WriteString("(no steps)\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
