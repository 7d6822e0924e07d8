package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// The server shows changes for review itself when the editor takes change
// annotations (docs/review.md).
var _ agent.EditReviewer = (*Server)(nil)

// ReviewsEdits tells whether changes can go to the editor as one annotated
// WorkspaceEdit: it declares changeAnnotationSupport and documentChanges,
// and each change would go to it (config `edits`, resource operations).
func (s *Server) ReviewsEdits(changes []workspace.Change) bool {
	s.mu.Lock()
	ok := s.caps.changeAnnotations && s.caps.documentChanges
	s.mu.Unlock()
	if !ok || len(changes) == 0 {
		return false
	}
	for _, c := range changes {
		if s.routeOf(c) != routeClient {
			return false
		}
	}
	return true
}

// The server's review holds each change until the user confirms it
// (needsConfirmation): a change to a file the editor runs by itself goes to
// it instead of a question (docs/review.md).
var _ agent.EditConfirmer = (*Server)(nil)

// ConfirmsEdits is ReviewsEdits: an annotated edit waits for the user.
func (s *Server) ConfirmsEdits(changes []workspace.Change) bool { return s.ReviewsEdits(changes) }

// reviewFile is one file of a reviewed edit: its annotation and changes.
type reviewFile struct {
	id      string
	changes []workspace.Change
}

// applyReviewed sends req's changes as one WorkspaceEdit whose changes
// carry one ChangeAnnotation per file, labelled "agentls: <tool> <path>"
// (and " — <why>" when req.Why says why it is asked), with needsConfirmation: the editor lets the user decline each. The reply
// says what was declined: the VS Code extension's `_agentls.declined`
// annotation ids; `applied: false` without a reason declines everything
// ("Discard"); otherwise each file is compared with what the change would
// make of it. Declined changes are returned as a *workspace.DeclinedError.
// The wait is bounded by plan_mode.approval_timeout_secs: a person reviews.
func (s *Server) applyReviewed(ctx context.Context, req agent.ApplyRequest) error {
	edit := lspwire.WorkspaceEdit{ChangeAnnotations: map[string]lspwire.ChangeAnnotation{}}
	files := map[string]*reviewFile{} // by workspace-relative path
	var order []*reviewFile
	seq := s.reviewSeq.Add(1)
	for _, c := range req.Changes {
		f := files[c.Path.Rel]
		if f == nil {
			f = &reviewFile{id: fmt.Sprintf("agentls-%d-%d", seq, len(order)+1)}
			files[c.Path.Rel] = f
			order = append(order, f)
			// Escaped: a file name cannot disguise itself in the preview (bidi, control characters).
			label := fmt.Sprintf("agentls: %s %s", req.Actor, c.Path.Rel)
			if why := req.Why[c.Path.Rel]; why != "" { // a file the editor runs by itself
				label += " — " + why
			}
			edit.ChangeAnnotations[f.id] = lspwire.ChangeAnnotation{
				Label:             questions.EscapeLine(label),
				NeedsConfirmation: true, Description: questions.EscapeLine(describeReviewed(c)),
			}
		}
		c, err := s.settled(ctx, c) // edits_settle.go
		if err != nil {
			return err
		}
		f.changes = append(f.changes, c)
		for _, dc := range s.workspaceEdit(c).DocumentChanges {
			dc.AnnotationID = f.id
			edit.DocumentChanges = append(edit.DocumentChanges, dc)
		}
	}
	ops, err := opsOfEdit(edit)
	if err != nil {
		return err
	}
	s.afterEarlierReplies(ctx) // reply_order.go; before the last check
	if err := req.Check(ops); err != nil {
		return err
	}
	timeout := s.reviewTimeout()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var res lspwire.ApplyEditResult
	err = s.callClient(callCtx, "workspace/applyEdit", map[string]any{"label": req.Label, "edit": edit}, &res)
	if err != nil {
		if ctx.Err() == nil && callCtx.Err() != nil {
			return fmt.Errorf("the edit was not reviewed within %s (plan_mode.approval_timeout_secs); nothing is known to be applied", timeout)
		}
		return fmt.Errorf("the editor did not apply the edit: %w", err)
	}
	if !res.Applied && res.FailureReason != nil && *res.FailureReason != "" && res.Agentls == nil {
		return fmt.Errorf("the editor refused the edit: %s", *res.FailureReason)
	}
	declined := s.declinedFiles(res, order)
	overlay := s.workspace().Overlay()
	out := &workspace.DeclinedError{All: len(declined) == len(order)}
	for _, f := range order {
		how, ok := declined[f.id]
		for _, c := range f.changes {
			if ok {
				d := workspace.DeclinedChange{Path: c.Path.Rel, Change: c.Kind, Partly: how == declinedPartly}
				if c.Kind == workspace.ChangeRename {
					d.From = c.From.Rel
				}
				out.Declined = append(out.Declined, d)
				continue
			}
			if c.Kind == workspace.ChangeEdit || c.Kind == workspace.ChangeCreate {
				overlay.SetApplied(c.Path.Abs, c.After)
			}
		}
	}
	if len(out.Declined) == 0 {
		return nil
	}
	out.Reason = "declined in the editor's review"
	if res.Agentls == nil && res.Applied {
		out.Reason = "left out in the editor's review"
	}
	slog.Info("review: changes declined", "session", req.SessionID, "tool", req.Actor, "declined", len(out.Declined))
	return out
}

// How a file was declined.
const (
	declinedWhole  = 1
	declinedPartly = 2
)

// declinedFiles maps the annotation ids of the declined files to how they
// were declined, from the editor's reply.
func (s *Server) declinedFiles(res lspwire.ApplyEditResult, files []*reviewFile) map[string]int {
	out := map[string]int{}
	switch {
	case !res.Applied && (res.Agentls == nil || len(res.Agentls.Declined)+len(res.Agentls.Partly) == 0):
		for _, f := range files { // "Discard": nothing was applied
			out[f.id] = declinedWhole
		}
	case res.Agentls != nil:
		known := map[string]bool{}
		for _, f := range files {
			known[f.id] = true
		}
		for _, id := range res.Agentls.Declined {
			if known[id] { // an id of another edit is not this one's
				out[id] = declinedWhole
			}
		}
		for _, id := range res.Agentls.Partly {
			if known[id] && out[id] == 0 {
				out[id] = declinedPartly
			}
		}
	default:
		// Another editor: what each file now is says what it applied.
		for _, f := range files {
			if how := s.inferDeclined(f.changes); how != 0 {
				out[f.id] = how
			}
		}
	}
	return out
}

// inferDeclined compares a file, as the overlay (the editor's buffer) or
// the disk has it now, with what its changes would make of it: 0 when they
// are applied, declinedWhole when it is as before, else declinedPartly.
func (s *Server) inferDeclined(changes []workspace.Change) int {
	ws := s.workspace()
	applied, untouched := true, true
	for _, c := range changes {
		switch c.Kind {
		case workspace.ChangeEdit, workspace.ChangeCreate:
			text, err := ws.ReadFile(c.Path)
			exists := err == nil
			if !exists && errors.Is(err, os.ErrNotExist) || err == nil {
				applied = applied && exists && text == c.After
				before := exists && text == c.Before
				if c.Kind == workspace.ChangeCreate {
					before = !exists || text == ""
				}
				untouched = untouched && before
			}
		case workspace.ChangeDelete:
			_, err := os.Lstat(c.Path.Abs)
			applied = applied && errors.Is(err, os.ErrNotExist)
			untouched = untouched && err == nil
		case workspace.ChangeRename:
			_, errFrom := os.Lstat(c.From.Abs)
			_, errTo := os.Lstat(c.Path.Abs)
			applied = applied && errors.Is(errFrom, os.ErrNotExist) && errTo == nil
			untouched = untouched && errFrom == nil
		}
	}
	switch {
	case applied:
		return 0
	case untouched:
		return declinedWhole
	}
	return declinedPartly
}

// reviewTimeout bounds a reviewed edit's wait: a person answers it, as a
// question (plan_mode.approval_timeout_secs).
func (s *Server) reviewTimeout() time.Duration {
	return secondsOr(s.currentConfig().PlanMode.ApprovalTimeoutSecs, 86400)
}

// describeReviewed is an annotation's description: what the change does.
func describeReviewed(c workspace.Change) string {
	switch c.Kind {
	case workspace.ChangeRename:
		return fmt.Sprintf("rename %s to %s", c.From.Rel, c.Path.Rel)
	case workspace.ChangeCreate:
		return "create " + c.Path.Rel
	case workspace.ChangeDelete:
		return "delete " + c.Path.Rel
	}
	return "edit " + c.Path.Rel
}
