package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/workspace"
)

// pendingApproval is a plan waiting for the user's decision. Whoever decides
// first (the dialog, agent/resolvePlan) wins, and only while the tool still
// waits: once it stopped waiting (timeout, cancellation) every offer fails.
// done closes once the outcome is settled; applied then says whether the
// accepted decision was carried out.
type pendingApproval struct {
	plan   string
	decide chan decision // buffered: the one accepted decision
	done   chan struct{}

	mu      sync.Mutex
	grants  []string        // the allowed_commands approving grants
	askCtx  context.Context // the dialog's context; nil before it is shown
	path    workspace.Path
	closed  bool      // a decision was accepted or the tool stopped waiting
	applied bool      // the accepted decision was carried out (read after done)
	since   time.Time // when it became pending: agent/resolvePlan's clock
}

// decision is the user's verdict on a plan. source is the agent/modeChanged
// source of an approval: "tool" for the dialog, "user" for agent/resolvePlan
// and agent/setMode.
type decision struct {
	approve bool
	reason  string
	source  string
	// failed is why the face could not ask (ErrAskFailed): no decision,
	// and none will come.
	failed error
	// caller is the context of the request that decided and waits while
	// the decision is carried out (nil for the dialog's answer).
	caller context.Context
}

// offer hands d to the waiting tool. It reports false when a decision was
// already accepted or the tool no longer waits.
func (a *pendingApproval) offer(d decision) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.closed = true
	a.decide <- d // never blocks: only the first offer gets here
	return true
}

// stop ends the offers. It returns a decision accepted just before, if any.
func (a *pendingApproval) stop() (decision, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	select {
	case d := <-a.decide:
		return d, true
	default:
		return decision{}, false
	}
}

// stopWith ends the offers as the tool stops waiting for why (the
// timeout, the cancel): a decision accepted at the last moment is
// honoured, else why is the outcome.
func (a *pendingApproval) stopWith(why error) (decision, error) {
	if d, ok := a.stop(); ok {
		return d, nil
	}
	return decision{}, why
}

// settle records whether the accepted decision was carried out and releases
// a waiting agent/resolvePlan.
func (a *pendingApproval) settle(applied bool) {
	a.mu.Lock()
	a.applied = applied
	a.mu.Unlock()
	close(a.done)
}

// resolve offers d and waits until the outcome is settled. offered is false
// when a decision was already taken or the tool no longer waits; applied
// says whether d was carried out.
func (a *pendingApproval) resolve(ctx context.Context, d decision) (offered, applied bool, err error) {
	if !a.offer(d) {
		return false, false, nil
	}
	select {
	case <-a.done:
	case <-ctx.Done():
		return true, false, ctx.Err()
	}
	return true, a.wasApplied(), nil
}

// open reports whether the approval still takes a decision.
func (a *pendingApproval) open() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return !a.closed
}

func (a *pendingApproval) wasApplied() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.applied
}

// awaitApproval shows the plan and waits for the first decision: the
// approval dialog, agent/resolvePlan, the timeout, or cancellation.
func (s *Session) awaitApproval(ctx context.Context, ap *pendingApproval, p workspace.Path, allowed []string) (decision, error) {
	m := s.m
	m.notify(ctx, fmt.Sprintf("[plan-mode] awaiting approval plan=%s (resolve via %s)", textline.Path(p.Rel), m.approvalResolvedVia()))
	askCtx, cancelAsk := context.WithCancel(ctx)
	defer cancelAsk()             // withdraws the dialog when another UI decided first
	ap.asking(askCtx, p, allowed) // approval_grants.go: the lens can ask again
	// The dialog runs on its own: a slow editor delays neither the timeout
	// nor agent/resolvePlan. Close waits for it (it ends with askCtx).
	if m.startBackground() {
		go func() {
			defer m.wg.Done()
			s.showApproval(ctx, askCtx, ap, p, allowed)
		}()
	}
	timer := time.NewTimer(m.approvalTimeout())
	defer timer.Stop()
	select {
	case d := <-ap.decide:
		return d, nil
	case <-timer.C:
		d, err := ap.stopWith(errApprovalTimeout)
		if err != nil {
			m.notify(ctx, fmt.Sprintf("[plan-mode] approval timed out plan=%s", textline.Path(p.Rel)))
		}
		return d, err
	case <-ctx.Done():
		// A client may answer and cancel back to back (agent-shell's Keep
		// Planning sends reject_once, then session/cancel): an answer already
		// on its way wins over the cancel that followed it.
		grace := time.NewTimer(CancelAnswerGrace)
		defer grace.Stop()
		select {
		case d := <-ap.decide:
			return d, nil
		case <-grace.C:
		}
		return ap.stopWith(ctx.Err()) // a decision offered from now on is not carried out
	}
}

// CancelAnswerGrace is how long a question outlives the cancel of its turn
// for an answer the client sent before cancelling: it is taken, not lost to
// the cancel (the faces keep their request to the client open as long).
const CancelAnswerGrace = 400 * time.Millisecond

// fastApproval refuses an approval of ap decided now by
// agent/resolvePlan or agent/setMode sooner than a person reads the plan
// (permission.HumanFloor since it became pending): the client's, not the
// person's (a client that dismisses the question at once and approves on
// its own). The plan stays awaiting approval; the error says how the
// person approves it. nil when a person had the time.
func (s *Session) fastApproval(ap *pendingApproval) error {
	ap.mu.Lock()
	grants, since := slices.Clone(ap.grants), ap.since
	ap.mu.Unlock()
	perm := approvalPermission(s.meta.ID, ap.plan, grants)
	if d := permission.Mark(perm, permission.Approval(true), time.Since(since)); d.Fast > 0 {
		return invalidf("%s", s.m.fastApprovalText(d))
	}
	return nil
}

// fastApprovalText is what the person reads when the client approved a
// plan by itself (d.Fast): the plan still awaits approval, and how they
// approve it themselves.
func (m *Manager) fastApprovalText(d permission.Decision) string {
	return d.FastNote() + "; approve it yourself: " + m.selfApproval()
}

// currentApproval is the approval the session's turn waits for, nil when
// none is pending.
func (s *Session) currentApproval() *pendingApproval {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.approval
}

// startApproval registers a pending approval for agent/resolvePlan.
func (s *Session) startApproval(rel string) *pendingApproval {
	ap := &pendingApproval{plan: rel, decide: make(chan decision, 1), done: make(chan struct{}), since: time.Now()}
	s.mu.Lock()
	s.approval = ap
	s.mu.Unlock()
	s.reportApproval(rel)
	return ap
}

// finishApproval withdraws the pending approval once its outcome is settled
// (applied: the accepted decision was carried out), releasing a waiting
// agent/resolvePlan.
func (s *Session) finishApproval(ap *pendingApproval, applied bool) {
	ap.stop()
	s.mu.Lock()
	if s.approval == ap {
		s.approval = nil
	}
	s.mu.Unlock()
	ap.settle(applied)
	s.reportApproval(ap.plan)
}

// ResolvePlan decides the pending approval from any UI (agent/resolvePlan).
func (m *Manager) ResolvePlan(ctx context.Context, id, decisionName, reason string) (agentproto.Session, error) {
	s, err := m.session(id)
	if err != nil {
		return agentproto.Session{}, err
	}
	d := decision{source: "user", caller: ctx}
	switch decisionName {
	case "approve":
		if err := m.buildRefused(); err != nil {
			return agentproto.Session{}, err
		}
		d.approve = true
	case "reject":
		if strings.TrimSpace(reason) == "" {
			return agentproto.Session{}, invalidf("a rejection needs a non-empty reason")
		}
		d.reason = strings.TrimSpace(reason)
	default:
		return agentproto.Session{}, invalidf("decision must be \"approve\" or \"reject\", not %q", decisionName)
	}
	ap := s.currentApproval()
	if ap == nil {
		return agentproto.Session{}, invalidf("no plan is awaiting approval in session %s", id)
	}
	if d.approve {
		if err := m.commentsRefusal(ap.plan); err != nil { // plan_comments.go
			return agentproto.Session{}, err
		}
		if err := s.fastApproval(ap); err != nil {
			return agentproto.Session{}, err
		}
	}
	offered, applied, err := ap.resolve(ctx, d)
	switch {
	case !offered:
		return agentproto.Session{}, invalidf("the plan approval in session %s was already decided", id)
	case err != nil:
		return agentproto.Session{}, err
	case !applied:
		return agentproto.Session{}, invalidf("the plan approval in session %s was withdrawn (the turn was cancelled) before the decision took effect", id)
	}
	return s.Info(), nil
}

// approvePending approves the plan awaiting approval, if any, as the user's
// explicit switch to build mode (agent/setMode): the approval's own path
// then switches the mode, marks the plan approved and withdraws the dialog.
// It reports whether an approval was pending and is now carried out.
func (s *Session) approvePending(ctx context.Context) (bool, error) {
	ap := s.currentApproval()
	if ap == nil {
		return false, nil
	}
	if err := s.fastApproval(ap); err != nil {
		return false, err
	}
	offered, applied, err := ap.resolve(ctx, decision{approve: true, source: "user", caller: ctx})
	if !offered {
		return false, nil
	}
	return applied || err != nil, err
}

// AwaitingApproval returns the session whose approval of the plan at rel
// (workspace-relative) is pending and still takes a decision, if any: once
// a decision was accepted (its carrying out may still be under way) or the
// tool stopped waiting, the plan awaits nothing.
func (m *Manager) AwaitingApproval(rel string) (string, bool) {
	for _, s := range m.loaded() {
		ap := s.currentApproval()
		if ap != nil && ap.plan == rel && ap.open() {
			return s.meta.ID, true
		}
	}
	return "", false
}

// errApprovalTimeout ends a turn whose plan approval got no answer in time.
var errApprovalTimeout = errors.New("approval timed out")

// joinApprovalTurn handles a prompt that arrives while the session's turn
// waits for a plan approval: the prompt rejects the plan with its text as
// the reason, and its result is that of the turn that goes on. ok is false
// when no approval is pending (the prompt proceeds as usual). A turn that
// was cancelled is not joined even while its approval still takes answers
// already on their way (CancelAnswerGrace): a prompt sent after the cancel
// is a turn of its own, begun once the cancelled one has ended.
func (s *Session) joinApprovalTurn(ctx context.Context, text string, onStart func()) (res TurnResult, ok bool, err error) {
	s.mu.Lock()
	ap, ended, busy := s.approval, s.turnEnded, s.busy
	cancelled := s.turnCtx != nil && s.turnCtx.Err() != nil
	s.mu.Unlock()
	if ap == nil || !busy || cancelled {
		return TurnResult{}, false, nil
	}
	reason := strings.TrimSpace(text)
	if reason == "" {
		return TurnResult{}, true, invalidf("text is empty")
	}
	offered, _, err := ap.resolve(ctx, decision{reason: reason, source: "user", caller: ctx})
	if !offered {
		return TurnResult{}, false, nil // decided meanwhile: an ordinary (busy) prompt
	}
	if err != nil {
		return TurnResult{}, true, err
	}
	if onStart != nil {
		onStart()
	}
	select {
	case <-ended:
	case <-ctx.Done():
		return TurnResult{}, true, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastResult, true, nil
}
