package agent

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/udiff"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/workspace"
)

// The review modes (config `review`, agent/setReview; docs/review.md).
const (
	ReviewOff   = "off"
	ReviewEdits = "edits"
)

// EditReviewer is an Applier that shows changes for review itself: the LSP
// server with change annotations (the editor's preview, a checkbox per
// change), an ACP client with its own review of diffs. ReviewsEdits tells
// whether it would for these changes; when it does not, review mode asks
// one permission question per edit call first.
type EditReviewer interface {
	ReviewsEdits(changes []workspace.Change) bool
}

// EditConfirmer is an EditReviewer whose review holds every change until
// the user confirms it (LSP change annotations with needsConfirmation): a
// change to a file the editor runs by itself may go to it instead of a
// question. An ACP client's review of diffs is not one (the change is
// written first).
type EditConfirmer interface {
	ConfirmsEdits(changes []workspace.Change) bool
}

// ReviewInfo is agent/setReview's result.
type ReviewInfo struct {
	SessionID string `json:"sessionId"`
	Review    string `json:"review"`
}

// SetReview switches the session's review mode ("off" or "edits") and
// persists it with the session.
func (m *Manager) SetReview(id, review string) (ReviewInfo, error) {
	if review != ReviewOff && review != ReviewEdits {
		return ReviewInfo{}, invalidf("review must be %q or %q, not %q", ReviewOff, ReviewEdits, review)
	}
	s, err := m.session(id)
	if err != nil {
		return ReviewInfo{}, err
	}
	s.mu.Lock()
	s.meta.Review = review
	save := s.saveMetaLocked()
	s.mu.Unlock()
	save()
	return ReviewInfo{SessionID: id, Review: review}, nil
}

// Review is the session's review mode: its own, else the configuration's;
// a sub-agent's is its root's, read now.
func (s *Session) Review() string {
	if s.sub != nil {
		return s.sub.root.Review()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reviewLocked()
}

func (s *Session) reviewLocked() string {
	if s.meta.Review != "" {
		return s.meta.Review
	}
	if r := s.m.config().Review; r != "" {
		return r
	}
	return ReviewOff
}

// reviews tells whether changes made by a tool under st go to review: in
// review mode, in build mode, and not the plan's own files (the builder's
// checkbox ticks are not the user's code).
func (s *Session) reviews(st guard.State, changes []workspace.Change) bool {
	if s.Review() != ReviewEdits || st.Mode != agentproto.ModeBuild {
		return false
	}
	for _, c := range changes {
		for _, p := range c.Targets() {
			if path.Ext(p.Rel) != ".plan" {
				return true
			}
		}
	}
	return false
}

// reviewedApply is guardedApply for a tool's changes: in review mode, and
// in BUILD mode for a change to a file the editor or shell runs by itself
// (autorun_edits.go) in any review mode, they go to the editor marked for
// review when it can show them so, else after a permission question
// (Apply / Reject, with the diff). A rejection is a
// *workspace.DeclinedError.
func (e *env) reviewedApply(ctx context.Context, tool, label string, changes []workspace.Change) error {
	s, m := e.s, e.s.m
	if e.system {
		return m.guardedApply(ctx, s.faceID(), tool, label, e.State, changes)
	}
	st := e.State()
	var autoRun map[string]string
	if st.Mode == agentproto.ModeBuild {
		autoRun = s.autoRunChanges(ctx, changes)
	}
	if len(autoRun) == 0 && !s.reviews(st, changes) {
		return m.guardedApply(ctx, s.faceID(), tool, label, e.State, changes)
	}
	if r := m.Guard().CheckChanges(st, tool, changes); r != nil {
		return r
	}
	if reviewsThem(m.applier, changes, len(autoRun) > 0) {
		req := m.guardedRequest(s.faceID(), tool, label, e.State, changes)
		req.Review = true
		for _, c := range changes {
			if name, ok := autoRun[c.Path.Rel]; ok {
				if req.Why == nil {
					req.Why = map[string]string{}
				}
				req.Why[c.Path.Rel] = autoRunWhy(c, name, plainName)
			}
		}
		err := m.applier.Apply(ctx, req)
		var declined *workspace.DeclinedError
		if errors.As(err, &declined) {
			s.knowReviewed(changes, declined)
			for _, d := range declined.Declined {
				if name, ok := autoRun[d.Path]; ok {
					declined.Reason += autoRunNote(name)
					break
				}
			}
		}
		return err
	}
	if err := s.askToApply(ctx, tool, changes, autoRun); err != nil {
		return err
	}
	return m.guardedApply(ctx, s.faceID(), tool, label, e.State, changes)
}

// reviewsThem tells whether the applier shows changes for review itself:
// any EditReviewer in review mode; for a file the editor runs by itself
// only one that holds them until the user confirms (EditConfirmer).
func reviewsThem(applier Applier, changes []workspace.Change, autoRun bool) bool {
	if autoRun {
		c, ok := applier.(EditConfirmer)
		return ok && c.ConfirmsEdits(changes)
	}
	rv, ok := applier.(EditReviewer)
	return ok && rv.ReviewsEdits(changes)
}

// askToApply asks the user whether to apply changes (an editor without
// change annotations in review mode, or a file the editor runs by itself:
// autoRun maps those changes to the file, and the question and the model's
// answer say why). A rejection, a dismissal, a timeout or an editor that
// cannot ask declines them all: nothing is applied unreviewed.
func (s *Session) askToApply(ctx context.Context, tool string, changes []workspace.Change, autoRun map[string]string) error {
	targets := make([]string, 0, len(changes))
	var diff strings.Builder
	runs := ""
	for _, c := range changes {
		t := describeChange(c, codeSpan) // every file name a code span: the question is Markdown
		if name, ok := autoRun[c.Path.Rel]; ok {
			t += " — " + autoRunWhy(c, name, codeSpan)
			if runs == "" {
				runs = name
			}
		}
		targets = append(targets, t)
		if c.Kind == workspace.ChangeEdit || c.Kind == workspace.ChangeCreate {
			diff.WriteString(udiff.Unified(c.Path.Rel, c.Before, c.After))
		}
	}
	req := permission.Request{
		SessionID: s.faceID(), ToolCallID: ToolCallID(ctx), Requester: s.requester(tool), Kind: agentproto.PermissionEdit,
		What: strings.Join(targets, ", "), Reach: agentproto.ReachWorkspace, Diff: diff.String(),
		Options: []agentproto.PermissionOption{permission.Opt(agentproto.RejectOnce, "Reject"), permission.Opt(agentproto.AllowOnce, "Apply")},
	}
	d, err := s.m.Permit(ctx, req)
	reason := "rejected when asked"
	switch {
	case errors.Is(err, permission.ErrNoSurface) && runs != "":
		reason = "the editor cannot ask"
	case errors.Is(err, permission.ErrNoSurface):
		reason = "review mode is on and the editor cannot ask"
	case err != nil:
		if ctx.Err() != nil {
			return err
		}
		reason = "not applied: " + err.Error() // a timeout, an editor that failed to ask
	case d.Allowed():
		return nil
	case d.Dismissed:
		reason = "dismissed when asked"
	}
	if runs != "" {
		reason += autoRunNote(runs)
	}
	return declinedAll(changes, reason)
}

// declinedAll is the DeclinedError of every change.
func declinedAll(changes []workspace.Change, reason string) *workspace.DeclinedError {
	out := &workspace.DeclinedError{All: true, Reason: reason}
	for _, c := range changes {
		d := workspace.DeclinedChange{Path: c.Path.Rel, Change: c.Kind}
		if c.Kind == workspace.ChangeRename {
			d.From = c.From.Rel
		}
		out.Declined = append(out.Declined, d)
	}
	return out
}

// describeChange is a change in a few words, each file name shown by
// quote: "edit `a.go`", "rename `a` → `b`" (codeSpan).
func describeChange(c workspace.Change, quote func(string) string) string {
	if c.Kind == workspace.ChangeRename {
		return fmt.Sprintf("rename %s → %s", quote(c.From.Rel), quote(c.Path.Rel))
	}
	return string(c.Kind) + " " + quote(c.Path.Rel)
}

// appliedOf lists the changes d does not name as declined.
func appliedOf(changes []workspace.Change, d *workspace.DeclinedError) []workspace.Change {
	out := make([]workspace.Change, 0, len(changes))
	for _, c := range changes {
		declined := false
		for _, x := range d.Declined {
			declined = declined || x.Path == c.Path.Rel
		}
		if !declined {
			out = append(out, c)
		}
	}
	return out
}

// knowReviewed records what a review left of the changes as agentls's own
// (the caller records only a wholly applied edit): the changes applied,
// and a partly applied file as it is now — the user's choice among the
// agent's edits is not someone else's change for a later rewind.
func (s *Session) knowReviewed(changes []workspace.Change, d *workspace.DeclinedError) {
	if !d.All {
		s.knowWrites(appliedOf(changes, d))
	}
	for _, x := range d.Declined {
		if !x.Partly {
			continue
		}
		for _, c := range changes {
			if c.Path.Rel == x.Path {
				s.knowCurrent(c.Path.Abs)
			}
		}
	}
}
