package agent

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// The review comments of a plan (`> review:` / `> resolved:` under a step,
// docs/review.md): the approval is refused while one is open, "Request
// changes" rejects with them as the reason, and the approval question says
// how many were resolved.

// planComments reads the comments of the plan rel (none when it cannot be
// read: the approval's own checks report that).
func (m *Manager) planComments(rel string) []workspace.PlanComment {
	if rel == "" {
		return nil
	}
	text, err := m.readPlanText(rel)
	if err != nil {
		return nil
	}
	return workspace.PlanComments(text)
}

// commentsRefusal is the error of an approval of rel while it has open
// review comments; nil when it has none.
func (m *Manager) commentsRefusal(rel string) error {
	open := workspace.OpenComments(m.planComments(rel))
	if len(open) == 0 {
		return nil
	}
	return invalidf("%s", openCommentsText(rel, open))
}

// openCommentsText says why the plan cannot be approved yet.
func openCommentsText(rel string, open []workspace.PlanComment) string {
	first := open[0]
	return fmt.Sprintf("the plan %s cannot be approved while it has %d open review comment(s) (first: %s: %q): "+
		"use \"Request changes\" to send them to the planner, or resolve them ('> resolved: …')", rel, len(open), first.Where(), first.Text)
}

// RequestChanges rejects the plan awaiting approval in session id with its
// open review comments as the reason ("Request changes"). A plan without
// open comments is refused: there is nothing to send.
func (m *Manager) RequestChanges(ctx context.Context, id string) (agentproto.Session, error) {
	s, err := m.session(id)
	if err != nil {
		return agentproto.Session{}, err
	}
	ap := s.currentApproval()
	if ap == nil {
		return agentproto.Session{}, invalidf("no plan is awaiting approval in session %s", id)
	}
	open := workspace.OpenComments(m.planComments(ap.plan))
	if len(open) == 0 {
		return agentproto.Session{}, invalidf("the plan %s has no open review comment: write '> review: <what should change>' under a step, then request changes", ap.plan)
	}
	info, err := m.ResolvePlan(ctx, id, "reject", workspace.CommentsReason(open))
	if err == nil {
		s.mu.Lock()
		if s.requestedComments == nil {
			s.requestedComments = map[string]int{}
		}
		s.requestedComments[ap.plan] += len(open)
		s.mu.Unlock()
	}
	return info, err
}

// droppedComments is exit_plan_mode's refusal of a revision that resolves
// fewer comments than "Request changes" sent: the planner must answer each
// ('> resolved: …'), not delete it. "" when it does.
func (s *Session) droppedComments(rel string, comments []workspace.PlanComment) string {
	s.mu.Lock()
	want := s.requestedComments[rel]
	s.mu.Unlock()
	if got := workspace.ResolvedCount(comments); got < want {
		return fmt.Sprintf("the user requested changes with %d review comment(s), but the plan resolves only %d: keep each comment "+
			"under its step and turn its '> review:' line into '> resolved: <what you changed>' (do not delete it), then call exit_plan_mode again", want, got)
	}
	return ""
}

// commentsApproved forgets the requested comments of an approved plan.
func (s *Session) commentsApproved(rel string) {
	s.mu.Lock()
	delete(s.requestedComments, rel)
	s.mu.Unlock()
}

// resolvedNote is the approval question's line on the comments the
// planner resolved ("" for none).
func (m *Manager) resolvedNote(rel string) string {
	n := workspace.ResolvedCount(m.planComments(rel))
	switch n {
	case 0:
		return ""
	case 1:
		return "1 review comment was resolved."
	}
	return fmt.Sprintf("%d review comments were resolved.", n)
}

// pendingOrAttachedPlan is the plan a switch to build would approve: the
// one awaiting approval, else the attached one.
func (s *Session) pendingOrAttachedPlan() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.approval != nil {
		return s.approval.plan
	}
	return s.meta.PlanFile
}
