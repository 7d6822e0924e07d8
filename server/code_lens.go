package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// codeLens shows, on a `.plan` document: "Approve & Build" on a plan that
// can be approved (the one awaiting approval, beside "Keep Planning"; or a
// draft without lint errors, which starts a build session), else the plan's
// status; "N/M steps done" (agentls.showPlan); and "Archive". Every lens
// runs a real command.
func (s *Server) codeLens(_ context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	ws, mgr := s.workspace(), s.manager()
	lenses := []codeLens{}
	if ws == nil || mgr == nil {
		return lenses, nil
	}
	wp, text, ok := planDoc(ws, p.TextDocument.URI)
	if !ok {
		return lenses, nil
	}
	plan, _ := workspace.ParsePlan(text)
	status := planStatus(plan)
	show := map[string]string{"path": wp.Rel}
	switch id, awaiting := mgr.AwaitingApproval(wp.Rel); {
	case awaiting:
		lenses = append(lenses,
			newLens(approveTitle(mgr, id), "agentls.approvePlan", map[string]string{"sessionId": id, "planFile": wp.Rel}),
			newLens("Keep Planning", "agentls.rejectPlan", map[string]string{"sessionId": id, "reason": agent.KeepPlanningReason, "planFile": wp.Rel}))
		if lens, ok := requestChangesLens(id, text); ok { // review_plan.go
			lenses = append(lenses, lens)
		}
	case status == agentproto.PlanDraft && !hasLintErrors(text):
		lenses = append(lenses, newLens("Approve & Build", "agentls.buildPlan", show))
	default:
		lenses = append(lenses, newLens(statusTitle(status, text), "agentls.showPlan", show))
	}
	lenses = append(lenses, newLens(fmt.Sprintf("%d/%d steps done", plan.StepsDone(), len(plan.Steps)), "agentls.showPlan", show))
	if status != agentproto.PlanArchived {
		lenses = append(lenses, newLens("Archive", "agentls.archivePlan", show))
	}
	return lenses, nil
}

// approveTitle is the "Approve & Build" lens of a plan awaiting approval;
// when approving grants commands it says so (the lens then opens the
// approval question that lists them).
func approveTitle(mgr permissions, id string) string {
	grants, _ := mgr.ApprovalGrants(id)
	switch len(grants) {
	case 0:
		return "Approve & Build"
	case 1:
		return "Approve & Build… (also allows `" + grants[0] + "`)"
	}
	return fmt.Sprintf("Approve & Build… (also allows %d commands)", len(grants))
}

// approvePlanCommand is agentls.approvePlan: agent/resolvePlan with
// "approve", unless approving grants commands (the plan's
// allowed_commands): then it opens the approval question, which lists them,
// and returns {asked: true, grants} — a click never grants commands
// unseen. When the question cannot be shown again the lens's title, which
// names the grants, was what the user saw, and the click approves.
func (s *Server) approvePlanCommand(ctx context.Context, p agentproto.PlanDecisionParams) (agentproto.ApprovePlanResult, error) {
	if err := s.decidesTheAwaitedPlan(p); err != nil {
		return agentproto.ApprovePlanResult{}, err
	}
	if mgr := s.manager(); mgr != nil && p.SessionID != "" {
		if grants, ok := mgr.ApprovalGrants(p.SessionID); ok && len(grants) > 0 && mgr.AskApprovalAgain(p.SessionID) {
			return agentproto.ApprovePlanResult{Asked: true, Grants: grants}, nil
		}
	}
	info, err := s.resolvePlan(ctx, agentproto.ResolvePlanParams{SessionID: p.SessionID, Decision: agentproto.DecisionApprove, Reason: p.Reason})
	if err != nil {
		return agentproto.ApprovePlanResult{}, err
	}
	return agentproto.ApprovePlanResult{Session: &info}, nil
}

// decidesTheAwaitedPlan refuses a decision about a plan (a lens's
// planFile) that the session does not await now: a plain editor keeps
// drawing a lens until it asks again, and a click on the one above the plan
// the user read must not approve the one the session moved on to.
func (s *Server) decidesTheAwaitedPlan(p agentproto.PlanDecisionParams) error {
	mgr := s.manager()
	if p.PlanFile == "" || mgr == nil {
		return nil
	}
	if id, ok := mgr.AwaitingApproval(p.PlanFile); !ok || id != p.SessionID {
		return invalidParams("%s does not await approval in session %s now: nothing was decided (its lenses show what it awaits; approve a plan from its own lens or question)", p.PlanFile, p.SessionID)
	}
	return nil
}

func hasLintErrors(text string) bool {
	for _, d := range workspace.LintPlan(text) {
		if d.Severity == workspace.PlanSeverityError {
			return true
		}
	}
	return false
}

// statusTitle is the status lens of a plan that cannot be approved now.
func statusTitle(status agentproto.PlanStatus, text string) string {
	if status == agentproto.PlanDraft && hasLintErrors(text) {
		return "Draft (fix the plan's errors to approve it)"
	}
	return "Status: " + string(status)
}

// The server wants to know when a plan approval starts or stops taking a
// decision: the plan's lenses change then.
var _ agent.ApprovalReporter = (*Server)(nil)

// ApprovalChanged refreshes the lenses when a plan's approval starts (the
// plan shows "Approve & Build" / "Keep Planning") and once it is withdrawn
// (the plan shows its status again, e.g. "Status: approved"): the refresh
// with the mode change goes out while the approval is still being carried
// out, and a rejection changes neither the mode nor the plan's text, so an
// editor that re-requests lenses only when told would keep the approval
// lenses.
func (s *Server) ApprovalChanged(string, string) { s.refreshLenses() }

// refreshLenses asks the editor to re-request code lenses
// (workspace/codeLens/refresh) when it supports that: a plan changed.
func (s *Server) refreshLenses() {
	s.mu.Lock()
	ok := s.caps.codeLensRefresh && s.ctx != nil
	s.mu.Unlock()
	if !ok {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, lensRefreshBound)
		defer cancel()
		if _, err := s.conn.Call(ctx, "workspace/codeLens/refresh", nil, nil); err != nil {
			slog.Debug("code lens refresh", "err", err)
		}
	}()
}

// codeLens is an LSP CodeLens with its command (always resolved).
type codeLens struct {
	Range   workspace.Range `json:"range"`
	Command lensCommand     `json:"command"`
}

type lensCommand struct {
	Title     string            `json:"title"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// newLens is a lens on the document's first line; arg, if not nil, is the
// command's single argument.
func newLens(title, command string, arg map[string]string) codeLens {
	c := lensCommand{Title: questions.EscapeLine(title), Command: command}
	if arg != nil {
		b, _ := json.Marshal(arg) // a map of strings always encodes
		c.Arguments = []json.RawMessage{b}
	}
	return codeLens{Command: c}
}
