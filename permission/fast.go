package permission

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// HumanFloor is the quickest a person can read a permission question and
// decide. An allowing answer that comes sooner was given by the client
// itself — an auto-approve setting (avante.nvim's default
// auto_approve_tool_permissions answers in about 40 ms), a client that
// remembers an earlier "always" and answers every later question with it
// (avante.nvim after one "Always allow" click), a plug-in, a script — on
// any face. It is the client's answer, not a person's: it may allow the
// one call it was asked about (a user who turned on auto-approve chose
// that), marked (Fast), but what outlasts the call is never granted by it
// (Mark): no "always" rule, no trust, no plan approval. It is a constant,
// not a configuration key: a workspace file must not be able to lower it,
// and a person never answers sooner.
const HumanFloor = 300 * time.Millisecond

// sentKey is the context key of a question's clock.
type sentKey struct{}

// clock is when the face sent the question of a context (zero until then).
type clock struct {
	mu   sync.Mutex
	sent time.Time
}

// Timed returns ctx carrying a clock for one question and took, which
// reports how long ago the face sent the question (Sent), or how long ago
// Timed was called when the face never said. Each call to Sent moves the
// clock: a face that asks again (answers that failed validation) is timed
// from its last send.
func Timed(ctx context.Context) (tctx context.Context, took func() time.Duration) {
	c := &clock{sent: time.Now()}
	return context.WithValue(ctx, sentKey{}, c), func() time.Duration {
		c.mu.Lock()
		defer c.mu.Unlock()
		return time.Since(c.sent)
	}
}

// Sent marks the moment a face puts the question of ctx on the wire: it
// calls it right before the request that shows the question, after its
// own queueing and whatever it shows first, so that only the client's
// answer is timed. Outside Timed it does nothing.
func Sent(ctx context.Context) {
	if c, ok := ctx.Value(sentKey{}).(*clock); ok {
		c.mu.Lock()
		c.sent = time.Now()
		c.mu.Unlock()
	}
}

// Ask is the permission service: it asks req through the face p and times
// the answer from the moment p sent the question. An allowing decision
// that came within HumanFloor is the client's (Mark): an "always" is
// narrowed to allow_once, and a trust is no trust. The caller adds
// Decision.FastNote to the asking tool call's result. A fast rejection or
// dismissal is not marked: refusing grants nothing.
func Ask(ctx context.Context, p Permitter, req Request) (Decision, error) {
	tctx, took := Timed(ctx)
	d, err := p.Permit(tctx, req)
	if err != nil {
		return d, err
	}
	return Mark(req, d, took()), nil
}

// Mark is d as the client's own answer when it allows and took (from the
// question's send to its answer) is under HumanFloor: Fast, Chose and Kind
// set, an allow_always narrowed to allow_once (the call runs, no rule is
// saved; a trust question's "Trust" is allow_always, so it trusts
// nothing), with a warning in the log. The plan approval, asked as a
// question of its own, is marked through it too: a Fast approval does not
// approve (the caller keeps the plan awaiting approval).
func Mark(req Request, d Decision, took time.Duration) Decision {
	if !d.Allowed() || d.Dismissed || took >= HumanFloor {
		return d
	}
	d.Fast = max(took, time.Nanosecond) // a zero duration would read as "not fast"
	d.Chose, d.Kind = d.Option, req.Kind
	if d.Option == agentproto.AllowAlways {
		d.Option = agentproto.AllowOnce
	}
	slog.Warn(d.FastNote(), "session", req.SessionID, "toolCall", req.ToolCallID, "kind", req.Kind, "what", req.What)
	return d
}

// clientByItself says who answered a fast question, without claiming the
// user turned anything on.
const clientByItself = `the client answered by itself (an auto-approve setting, or a client that remembers an earlier "always")`

// FastNote is the text that says the client, not a person, chose the
// decision's option, and what it was taken for ("" unless Fast): the
// asking tool call's result and the log carry it, on every face. A plan
// approval's note says the plan still awaits approval; the caller adds how
// the person approves it.
func (d Decision) FastNote() string {
	if d.Fast <= 0 {
		return ""
	}
	var outcome string
	switch {
	case d.Kind == agentproto.PermissionTrust:
		outcome = "not trusted this time (the question comes again)"
	case d.Kind == agentproto.PermissionPlan:
		outcome = "the plan is not approved and still awaits approval"
	case d.Chose == agentproto.AllowAlways:
		outcome = "allowed once, not always (no rule is saved)"
	default:
		outcome = "allowed for this call only"
	}
	return fmt.Sprintf("answered by the client in %d ms (%s), faster than a person decides: %s; %s",
		d.Fast.Milliseconds(), d.Chose, outcome, clientByItself)
}

// Approval is a plan approval's answer as a decision: allow_once to
// approve, reject_once to keep planning.
func Approval(approve bool) Decision {
	if approve {
		return Decision{Option: agentproto.AllowOnce}
	}
	return Decision{Option: agentproto.RejectOnce}
}
