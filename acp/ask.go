package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// errCancelledByClient is a permission request the client answered with
// the `cancelled` outcome: the turn was cancelled.
var errCancelledByClient = errors.New("the client cancelled the permission request: the turn is cancelled")

// Ask puts questions to the user: a plan approval or a run permission as
// session/request_permission; other questions as an elicitation form when
// the client takes one, else one yes/no question as request_permission,
// else none (agent.ErrNoSurface: the turn ends with the question as text).
func (e *editor) Ask(ctx context.Context, req agent.AskRequest) (agent.AskReply, error) {
	switch {
	case req.Purpose == "plan_approval":
		return e.askApproval(ctx, req)
	case req.Permission != nil:
		d, err := e.Permit(ctx, *req.Permission)
		if err != nil || d.Dismissed {
			return agent.AskReply{Dismissed: d.Dismissed}, err
		}
		return agent.AskReply{Answers: map[string]any{permission.QuestionName: string(d.Option)}}, nil
	case elicitsForms(e.a.clientCaps()):
		if reply, ok, err := e.elicit(ctx, req); ok || err != nil { // unstable.go
			return reply, err
		}
	}
	if len(req.Set.Questions) == 1 {
		if yes, no, ok := yesNo(req.Set.Questions[0]); ok {
			return e.askYesNo(ctx, req, yes, no)
		}
	}
	return agent.AskReply{}, agent.ErrNoSurface
}

// askApproval shows the plan's full text in its exit_plan_mode tool call
// (kind switch_mode), with the commands approving grants, and asks "Keep
// Planning" (reject_once) / "Accept & Build" (allow_once).
func (e *editor) askApproval(ctx context.Context, req agent.AskRequest) (agent.AskReply, error) {
	planText := ""
	if p, err := e.h.ws.Resolve(req.PlanFile); err == nil {
		planText, _ = e.h.ws.ReadFile(p)
	}
	planText = questions.Escape(planText)
	callID := e.callID(ctx, req)
	perm := permission.Request{Kind: agentproto.PermissionPlan, What: req.PlanFile}
	if req.Permission != nil {
		perm = *req.Permission
	}
	shown := fencedPlan(planText) // question_shown.go
	blocks := []toolContent{textContent(shown)}
	content := []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(shown))}
	if g := grantsText(perm); g != "" {
		blocks = append(blocks, textContent(g))
		content = append(content, sdk.ToolContent(sdk.TextBlock(g)))
	}
	if note := perm.Escaped().Note; note != "" { // how many review comments were resolved
		blocks = append(blocks, textContent(note))
		content = append(content, sdk.ToolContent(sdk.TextBlock(note)))
	}
	e.send(ctx, req.SessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: callID, Kind: "switch_mode", Content: blocks})
	e.showApproval(ctx, req.SessionID, questions.EscapeLine(req.PlanFile), planText, grantsText(perm)) // question_shown.go
	optionID, err := e.requestPermission(ctx, req.SessionID, sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(callID), Title: sdk.Ptr(perm.Title()),
		Kind: sdk.Ptr(sdk.ToolKindSwitchMode), Content: content,
	}, []sdk.PermissionOption{
		{OptionId: sdk.PermissionOptionId(agentproto.RejectOnce), Name: "Keep Planning", Kind: sdk.PermissionOptionKindRejectOnce},
		{OptionId: sdk.PermissionOptionId(agentproto.AllowOnce), Name: "Accept & Build", Kind: sdk.PermissionOptionKindAllowOnce},
	})
	if err == nil && optionID != string(agentproto.AllowOnce) && optionID != string(agentproto.RejectOnce) {
		err = notOffered(optionID)
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, errCancelledByClient) {
		// The request is the only way to ask on ACP: the turn ends saying
		// why (agent.ErrAskFailed) instead of waiting for a decision.
		err = fmt.Errorf("%w: %w", agent.ErrAskFailed, err)
	}
	if err != nil {
		return agent.AskReply{}, err
	}
	return agent.AskReply{Answers: map[string]any{"approve": optionID == string(agentproto.AllowOnce)}}, nil
}

// notOffered is the error of an answer naming an option that was not offered.
func notOffered(optionID string) error {
	return fmt.Errorf("the client chose %q, which is not one of the options offered", optionID)
}

// grantsText is the text block that lists what approving grants, or "".
func grantsText(r permission.Request) string {
	if len(r.Grants) == 0 {
		return ""
	}
	return permission.GrantsList(permission.GrantsIntro, r.Escaped().Grants) // each whole: a backtick in one cannot end it
}

// Permit is the permission service's ACP rendering: one
// session/request_permission on the asking tool call, its title the
// request in one line, its content the whole question (the command, its
// folder, network and sandbox, what it grants, every change a command
// made, even when a generated document holds them on the LSP face), its
// options' ids equal to their kinds.
func (e *editor) Permit(ctx context.Context, req permission.Request) (permission.Decision, error) {
	callID := req.ToolCallID
	if callID == "" {
		callID = agent.ToolCallID(ctx)
	}
	if callID == "" {
		callID = "permission-" + string(req.Kind)
	}
	kind := sdk.ToolKindOther
	switch req.Kind {
	case agentproto.PermissionRun:
		kind = sdk.ToolKindExecute
	case agentproto.PermissionNetwork:
		kind = sdk.ToolKindFetch
	}
	options := make([]sdk.PermissionOption, 0, len(req.Options))
	for _, o := range req.Escaped().Options {
		options = append(options, sdk.PermissionOption{OptionId: sdk.PermissionOptionId(o.ID), Name: o.Label, Kind: sdk.PermissionOptionKind(o.Kind)})
	}
	// ACP cannot open a document (editor.ShowDocument) and its clients
	// scroll: the question holds every line itself, never a reference to
	// a generated document the user does not see.
	req.Document = ""
	text := req.Text()
	if by := req.AskedBy(); by != "" { // a sub-agent asks
		text += "\n\n" + by
	}
	e.showPermission(ctx, req, text) // question_shown.go
	optionID, err := e.requestPermission(ctx, req.SessionID, sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(callID), Title: sdk.Ptr(req.Title()), Kind: sdk.Ptr(kind),
		Content: []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(text))},
		Meta:    e.a.subCalls.of(req.SessionID, callID),
	}, options)
	if err != nil {
		return permission.Decision{}, err
	}
	d, err := req.DecisionOf(optionID)
	if err != nil {
		return permission.Decision{}, notOffered(optionID)
	}
	return d, nil
}

// askYesNo asks one yes/no question as a permission request: yes as
// allow_once, no as reject_once. Only such a question goes this way:
// CodeCompanion.nvim and avante.nvim show and answer a permission request
// by its options' kinds (one key or button per kind, answered with that
// kind's last option), so two choices of one kind — the values of an enum —
// would reach the model as the other one whichever the person picked, and
// their labels ("Accept", "Reject") say nothing of a choice that is not
// yes or no. Other choices go as an elicitation form or as text.
func (e *editor) askYesNo(ctx context.Context, req agent.AskRequest, yes, no questions.Action) (agent.AskReply, error) {
	q := req.Set.Questions[0]
	options := []sdk.PermissionOption{
		{OptionId: sdk.PermissionOptionId(agentproto.AllowOnce), Name: questions.EscapeLine(yes.Title), Kind: sdk.PermissionOptionKindAllowOnce},
		{OptionId: sdk.PermissionOptionId(agentproto.RejectOnce), Name: questions.EscapeLine(no.Title), Kind: sdk.PermissionOptionKindRejectOnce},
	}
	optionID, err := e.requestPermission(ctx, req.SessionID, sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(e.callID(ctx, req)), Title: sdk.Ptr(questions.EscapeLine(q.Question)), Kind: sdk.Ptr(sdk.ToolKindOther),
		Content: []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(questions.Escape(q.Question)))},
	}, options)
	if err != nil {
		return agent.AskReply{}, err
	}
	switch optionID {
	case string(agentproto.AllowOnce):
		return agent.AskReply{Answers: map[string]any{q.Name: yes.Value}}, nil
	case string(agentproto.RejectOnce):
		return agent.AskReply{Answers: map[string]any{q.Name: no.Value}}, nil
	}
	return agent.AskReply{}, notOffered(optionID)
}

// yesNo gives the two choices of a yes/no question — a boolean one, or two
// buttons whose values are true and false — and whether q is one.
func yesNo(q questions.Question) (yes, no questions.Action, ok bool) {
	actions, ok := questions.MessageActions(q)
	if !ok || len(actions) != 2 {
		return yes, no, false
	}
	for _, a := range actions {
		switch a.Value {
		case true:
			yes = a
		case false:
			no = a
		}
	}
	return yes, no, yes.Value != nil && no.Value != nil
}

// callID is the tool call a request belongs to (the one asking), or one
// made up from the question's id.
func (e *editor) callID(ctx context.Context, req agent.AskRequest) string {
	if id := agent.ToolCallID(ctx); id != "" {
		return id
	}
	return "question-" + req.QuestionID
}

// requestPermission sends session/request_permission and returns the chosen
// option. The `cancelled` outcome cancels the session's turn. The request
// outlives the turn's cancel by agent.CancelAnswerGrace (outliveCancel);
// the permission service times the answer from its send (permission.Sent).
func (e *editor) requestPermission(ctx context.Context, sessionID string, call sdk.ToolCallUpdate, options []sdk.PermissionOption) (string, error) {
	rctx, stop := outliveCancel(ctx, agent.CancelAnswerGrace)
	defer stop()
	permission.Sent(ctx)
	res, err := e.askPermission(rctx, sdk.RequestPermissionRequest{SessionId: sdk.SessionId(sessionID), ToolCall: call, Options: options}) // permission_answer.go
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", err // it names session/request_permission and what the client answered
	}
	switch {
	case res.Outcome.Selected != nil:
		return string(res.Outcome.Selected.OptionId), nil
	default:
		slog.Info("acp: permission request cancelled by the client; cancelling the turn", "session", sessionID)
		_ = e.h.mgr.Cancel(sessionID)
		return "", errCancelledByClient
	}
}

// questionText is a pending question as the agent's text: each question
// with its choices or constraints, and how to answer.
func questionText(u agent.UpdateQuestion) string {
	var b strings.Builder
	b.WriteString("\n\n")
	for _, q := range u.Questions {
		fmt.Fprintf(&b, "**%s**", q.Question)
		if actions, ok := questions.MessageActions(q); ok {
			titles := make([]string, 0, len(actions))
			for _, a := range actions {
				titles = append(titles, a.Title)
			}
			fmt.Fprintf(&b, " (%s)", strings.Join(titles, " / "))
		} else if c := questions.Constraints(q); c != "" {
			fmt.Fprintf(&b, " (%s)", c)
		}
		b.WriteString("\n")
	}
	if len(u.Questions) == 1 {
		b.WriteString("\nReply with your answer.")
	} else {
		b.WriteString("\nReply with one `name=value` line per question (")
		names := make([]string, 0, len(u.Questions))
		for _, q := range u.Questions {
			names = append(names, q.Name)
		}
		b.WriteString(strings.Join(names, ", ") + "), or a JSON object.")
	}
	return questions.Escape(b.String())
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
