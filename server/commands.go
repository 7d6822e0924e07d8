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

// commands are the workspace/executeCommand commands.
var commands = map[string]command{
	"agentls.newSession":     {run: withParams((*Server).newSessionCommand), shape: `{"mode": "plan" or "build", "title": "…"} (both optional)`},
	"agentls.prompt":         {run: (*Server).promptCommand, shape: `{"text": "…"} (and optionally "sessionId")`},
	"agentls.setMode":        {run: withParams((*Server).setMode), shape: `{"mode": "plan" or "build"} (and optionally "sessionId")`, session: true},
	"agentls.approvePlan":    {run: approvePlanCommand, shape: `{"sessionId": "…"} (optional: the current session)`, session: true},
	"agentls.rejectPlan":     {run: decided("reject"), shape: `{"reason": "…"} (and optionally "sessionId")`, session: true},
	"agentls.cancel":         {run: withParams((*Server).cancel), shape: `{"sessionId": "…"} (optional: the current session)`, session: true},
	"agentls.compact":        {run: withParams((*Server).compact), shape: `{"sessionId": "…"} (optional: the current session)`, session: true},
	"agentls.answer":         {run: (*Server).answerCommand, shape: `{"answers": {"name": value}} (and optionally "sessionId", "questionId")`, session: true},
	"agentls.checkModel":     {run: (*Server).checkModelCommand, shape: `{}`},
	"agentls.showPlan":       {run: withParams((*Server).showPlanCommand), shape: `{"path": "plans/….plan"}`},
	"agentls.buildPlan":      {run: withParams((*Server).buildPlanCommand), shape: `{"path": "plans/….plan"}`},
	"agentls.archivePlan":    {run: withParams((*Server).archivePlanCommand), shape: `{"path": "plans/….plan"}`},
	"agentls.requestChanges": {run: withParams((*Server).requestChanges), shape: `{"sessionId": "…"} (optional: the current session)`, session: true},
	"agentls.setReview":      {run: withParams((*Server).setReview), shape: `{"review": "off" or "edits"} (and optionally "sessionId")`, session: true},
	"agentls.rewind":         {run: withParams((*Server).rewind), shape: `{"toMessageId": "…", "what": "code" | "conversation" | "both"} (and optionally "sessionId")`, session: true},
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

// decided is agentls.approvePlan / agentls.rejectPlan: agent/resolvePlan
// with the decision filled in.
func decided(decision string) handlerFunc {
	return func(s *Server, ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
		arg, err := withArg(json.RawMessage(raw), "decision", decision)
		if err != nil {
			return nil, invalidParams("%v", err)
		}
		return withParams((*Server).resolvePlan)(s, ctx, jsonrpc2.RawMessage(arg))
	}
}

// newSessionCommand is agent/newSession that also says the new session's id
// in a message (a plain editor shows nothing else).
func (s *Server) newSessionCommand(ctx context.Context, p newSessionParams) (any, error) {
	res, err := s.newSession(ctx, p)
	if info, ok := res.(agent.Info); ok && err == nil {
		s.showLine(ctx, msgInfo, fmt.Sprintf("agentls: new %s session %s (%s)", info.Mode, info.SessionID, shortID(info.SessionID)))
	}
	return res, err
}

// promptCommand is agentls.prompt: the turn starts and the command returns
// at once with {sessionId, started: true} (editors wait on executeCommand
// with a short timeout); the turn reports through agent/update or, for a
// plain editor, log lines and a final message. Without a sessionId it uses
// the current session, creating a plan session if there is none.
func (s *Server) promptCommand(_ context.Context, raw jsonrpc2.RawMessage) (any, error) {
	req, err := s.promptRequest(raw)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Text) == "" && req.QuestionAnswer == nil {
		return nil, invalidParams(`agentls.prompt expects {"text": "…"}; got no text`)
	}
	mgr := s.manager()
	if req.SessionID == "" {
		req.SessionID = s.currentSession()
	}
	if req.SessionID == "" {
		info, err := mgr.NewSession(s.ctx, "plan", "")
		if err != nil {
			return nil, rpcError(err)
		}
		req.SessionID = info.SessionID
	}
	s.setCurrent(req.SessionID)
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
			return nil, rpcError(e.err)
		}
		if e.res.SessionID != "" { // a slash command (/new) started a session
			s.setCurrent(e.res.SessionID)
			req.SessionID = e.res.SessionID
		}
	}
	return map[string]any{"sessionId": req.SessionID, "started": true}, nil
}

// promptEnd is how agentls.prompt's turn (or slash command) ended.
type promptEnd struct {
	res agent.TurnResult
	err error
}

// answerCommand is agentls.answer: agent/answer whose questionId defaults
// to the session's pending question.
func (s *Server) answerCommand(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	arg := json.RawMessage(raw)
	if argString(arg, "questionId") == "" {
		qid, err := s.manager().PendingQuestionID(argString(arg, "sessionId"))
		if err != nil {
			return nil, rpcError(err)
		}
		if arg, err = withArg(arg, "questionId", qid); err != nil {
			return nil, invalidParams("%v", err)
		}
	}
	return withParams((*Server).answer)(s, ctx, jsonrpc2.RawMessage(arg))
}

func (s *Server) checkModelCommand(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	res, err := s.checkModel(ctx, raw)
	if c, ok := res.(agent.ModelCheck); ok && err == nil {
		typ, text := msgInfo, fmt.Sprintf("agentls: model %s at %s answers", c.Model, c.BaseURL)
		if !c.OK {
			typ, text = msgError, fmt.Sprintf("agentls: model %s: %s", c.Model, c.Message)
		}
		s.showLine(ctx, typ, text)
	}
	return res, err
}

type planPathParams struct {
	Path string `json:"path"`
}

// buildPlanCommand is agentls.buildPlan {path}: a new build session with the
// plan attached (and approved). Its result is the Session.
func (s *Server) buildPlanCommand(ctx context.Context, p planPathParams) (any, error) {
	info, err := s.manager().BuildPlan(jsonrpc2.DetachContext(ctx), p.Path)
	if err != nil {
		return nil, rpcError(err)
	}
	s.setCurrent(info.SessionID)
	return info, nil
}

// archivePlanCommand is agentls.archivePlan {path}: the plan's status
// becomes archived. Its result is {path, status}.
func (s *Server) archivePlanCommand(ctx context.Context, p planPathParams) (any, error) {
	rel, err := s.manager().ArchivePlan(jsonrpc2.DetachContext(ctx), p.Path)
	if err != nil {
		return nil, rpcError(err)
	}
	s.refreshLenses()
	return map[string]string{"path": rel, "status": "archived"}, nil
}

// planStep is one step in agentls.showPlan's result.
type planStep struct {
	Text string `json:"text"`
	Done bool   `json:"done"`
}

// showPlanCommand is agentls.showPlan {path}: the plan's title, status and
// steps, as the result and in a message (the progress lens runs it).
func (s *Server) showPlanCommand(ctx context.Context, p planPathParams) (any, error) {
	if strings.TrimSpace(p.Path) == "" {
		return nil, invalidParams(`agentls.showPlan expects {"path": "plans/….plan"}; the path is empty`)
	}
	ws := s.workspace()
	wp, err := ws.Resolve(p.Path)
	if err != nil || !wp.Exists || !isPlanDoc(wp.Abs) {
		return nil, invalidParams("agentls.showPlan: %s is not a .plan file in the workspace", p.Path)
	}
	text, err := ws.ReadFile(wp)
	if err != nil {
		return nil, invalidParams("agentls.showPlan: read %s: %v", wp.Rel, err)
	}
	plan, _ := workspace.ParsePlan(text)
	res := map[string]any{"path": wp.Rel, "title": planTitle(plan, wp.Rel), "status": planStatus(plan)}
	steps := make([]planStep, 0, len(plan.Steps))
	for _, st := range plan.Steps {
		steps = append(steps, planStep{Text: st.Text, Done: st.Done})
	}
	res["steps"] = steps
	s.showLine(ctx, msgInfo, fmt.Sprintf("%s (%s, %s): %d/%d steps done\n%s", res["title"], wp.Rel, res["status"], plan.StepsDone(), len(plan.Steps), stepList(plan, 0, 0)))
	return res, nil
}

// planTitle is the plan's title, or its file name without one.
func planTitle(plan workspace.Plan, rel string) string {
	if plan.Meta != nil && strings.TrimSpace(plan.Meta.Title) != "" {
		return strings.TrimSpace(plan.Meta.Title)
	}
	return rel
}

func planStatus(plan workspace.Plan) workspace.PlanStatus {
	if plan.Meta == nil || plan.Meta.Status == "" {
		return workspace.PlanDraft
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
