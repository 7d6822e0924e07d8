package agent

import (
	"crypto/sha256"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// ChangedSinceApproval is the one label for an approved plan whose text
// changed by a route other than its build session (the user, a checkout).
const ChangedSinceApproval = "changed since approval"

// maxDiffLines caps the diff the builder's prompt shows.
const maxDiffLines = 60

// planBaseline is the approved text of a build session's plan as the
// session knows it: the text at approval plus the session's own writes.
type planBaseline struct {
	rel  string
	text string
	sum  [32]byte
}

// BuiltPlans lists the plans being built (guard.PlanLocks): every plan
// attached to a session in build mode, from the session files on disk
// overlaid with the sessions in memory, unless the plan's status says it is
// implemented or archived; then the plans other workspaces' sessions build,
// from the state folder's registry (planlocks.go).
func (m *Manager) BuiltPlans() []guard.BuiltPlan {
	byID := m.ownSessionMetas()
	builders := map[string][]string{}
	for id, meta := range byID {
		if agentproto.Mode(meta.Mode) == agentproto.ModeBuild && meta.PlanFile != "" {
			builders[meta.PlanFile] = append(builders[meta.PlanFile], id)
		}
	}
	out := make([]guard.BuiltPlan, 0, len(builders))
	for rel, ids := range builders {
		if m.planFinished(rel) {
			continue
		}
		sort.Strings(ids)
		out = append(out, guard.BuiltPlan{Rel: rel, Builders: ids})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return append(out, m.otherBuiltPlans()...)
}

// planFinished reports whether the plan's frontmatter says implemented or
// archived. A plan that cannot be read or parsed is not finished (its lock
// holds: fail closed).
func (m *Manager) planFinished(rel string) bool {
	text, err := m.readPlanText(rel)
	if err != nil {
		return false
	}
	plan, err := workspace.ParsePlan(text)
	if err != nil || plan.Meta == nil {
		return false
	}
	return plan.Meta.Status == agentproto.PlanImplemented || plan.Meta.Status == agentproto.PlanArchived
}

// setBaseline records text as the approved text of the plan rel, in
// memory and beside the session file (it survives a restart).
func (s *Session) setBaseline(rel, text string) {
	b := &planBaseline{rel: rel, text: text, sum: sha256.Sum256([]byte(text))}
	s.mu.Lock()
	s.baseline, s.baselineLoaded, s.reported = b, true, b.sum
	id := s.meta.ID
	s.mu.Unlock()
	if err := s.m.store.SaveApproved(id, rel, text); err != nil {
		slog.Warn("save approved plan", "session", id, "err", err)
	}
}

// baselineNow records the plan's current text as its approved text.
func (s *Session) baselineNow(rel string) {
	if text, err := s.m.readPlanText(rel); err == nil {
		s.setBaseline(rel, text)
	}
}

// currentBaseline is the session's approved plan text, read from disk the
// first time (a session loaded after a restart); nil when there is none.
func (s *Session) currentBaseline() *planBaseline {
	s.mu.Lock()
	loaded, b, id := s.baselineLoaded, s.baseline, s.meta.ID
	s.mu.Unlock()
	if loaded {
		return b
	}
	rel, text, ok, err := s.m.store.Approved(id)
	if err != nil {
		slog.Warn("read approved plan", "session", id, "err", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.baselineLoaded {
		s.baselineLoaded = true
		if ok {
			s.baseline = &planBaseline{rel: rel, text: text, sum: sha256.Sum256([]byte(text))}
			s.reported = s.baseline.sum
		}
	}
	return s.baseline
}

// ownWrite follows the session's own write to its plan rel: when the text
// before the write was the approved text, the written text becomes it.
// Otherwise someone else changed the plan first, and the baseline stays, so
// that the change still shows (with this write) as changed since approval.
func (s *Session) ownWrite(rel, before, after string) {
	b := s.currentBaseline()
	if b == nil || b.rel != rel || sha256.Sum256([]byte(before)) != b.sum {
		return
	}
	s.setBaseline(rel, after)
}

// checkApproved compares the plan's current text with its approved text
// (by hash, before each model request). It returns the diff to show when
// they differ ("" when they do not), and sends the user a `plan` update the
// first time each new text is seen. A session without an approved text
// (approved before agentls kept one) takes the current text as it.
func (s *Session) checkApproved(rel, text string) string {
	b := s.currentBaseline()
	if b == nil || b.rel != rel {
		s.setBaseline(rel, text)
		return ""
	}
	sum := sha256.Sum256([]byte(text))
	if sum == b.sum {
		return ""
	}
	s.mu.Lock()
	report := s.reported != sum
	s.reported = sum
	s.mu.Unlock()
	if report {
		slog.Info("plan "+ChangedSinceApproval, "plan", rel, "session", s.ID())
		s.sendPlanUpdate(s.turnContext())
	}
	return shortDiff(rel, b.text, text)
}

// shortDiff is a unified diff of the approved and the current text, cut
// after maxDiffLines lines.
func shortDiff(rel, approved, current string) string {
	d := udiff.Unified(rel+" (approved)", rel+" (now)", approved, current)
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > maxDiffLines {
		d = strings.Join(lines[:maxDiffLines], "") + fmt.Sprintf("… (%d more diff lines)\n", len(lines)-maxDiffLines)
	}
	if d != "" && !strings.HasSuffix(d, "\n") {
		d += "\n"
	}
	return d
}

// approvedText is a plan's text as it reads once its status is approved.
func approvedText(text string) string {
	if t, err := workspace.SetPlanStatus(text, agentproto.PlanApproved); err == nil {
		return t
	}
	return text
}
