package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent/tooloutcome"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/sandbox"
)

// AskPermitter is the permission service on a face that asks through
// questions: the request becomes one AskRequest with purpose "permission",
// the request itself (the face's `permission` payload) and its one
// question "decision", whose values are the option ids.
type AskPermitter struct {
	Asker Asker
	// Holder, when set, keeps the question pending while the Asker shows
	// it, so that agent/answer (agentls.answer) answers it as well: a
	// plain editor's prompt a person can put aside without a reply.
	Holder QuestionHolder
}

// Permit asks req through the Asker and maps the answer to a decision.
func (p AskPermitter) Permit(ctx context.Context, req permission.Request) (permission.Decision, error) {
	set, err := req.Question()
	if err != nil {
		return permission.Decision{}, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return permission.Decision{}, fmt.Errorf("permission question id: %w", err)
	}
	reply, err := p.ask(ctx, AskRequest{
		SessionID: req.SessionID, QuestionID: id.String(), Set: set, Purpose: "permission",
		CreatedAt: time.Now(), Actions: req.Actions(), Permission: &req,
	})
	switch {
	case errors.Is(err, ErrNoSurface):
		return permission.Decision{}, permission.ErrNoSurface
	case err != nil:
		return permission.Decision{}, err
	case reply.Dismissed:
		return permission.Decision{Dismissed: true}, nil
	}
	return req.DecisionOf(reply.Answers[permission.QuestionName])
}

// ask asks req through the Asker. With a Holder the question is pending
// meanwhile (HoldQuestion) and the first answer decides: the editor's
// reply, or agent/answer's, which withdraws the editor's question (the
// Asker's request ends with its context). Either way the answer comes back
// here, so it is read (DecisionOf) and timed (permission.Ask) alike.
func (p AskPermitter) ask(ctx context.Context, req AskRequest) (AskReply, error) {
	var h *HeldQuestion
	if p.Holder != nil {
		h = p.Holder.HoldQuestion(req.SessionID, req.QuestionID, req.Set, req.CreatedAt)
	}
	if h == nil {
		return p.Asker.Ask(ctx, req)
	}
	askCtx, withdraw := context.WithCancel(ctx)
	defer withdraw()
	type asked struct {
		reply AskReply
		err   error
	}
	done := make(chan asked, 1)
	go func() { // owned: every path below receives from done
		reply, err := p.Asker.Ask(askCtx, req)
		done <- asked{reply, err}
	}()
	select {
	case r := <-done:
		if answers, ok := h.Release(); ok {
			return AskReply{Answers: answers}, nil // agent/answer's came first
		}
		return r.reply, r.err
	case answers := <-h.Answered():
		h.Release()
		withdraw()
		<-done // the Asker's request ends with askCtx
		return AskReply{Answers: answers}, nil
	}
}

// Permit is the one permission service (DESIGN.md): every question that
// asks a person to allow something goes through it, bounded by
// plan_mode.approval_timeout_secs like every question. The editor renders
// the request itself when it is a permission.Permitter (ACP), else through
// its questions (AskPermitter). permission.Ask times the answer: one that
// allowed faster than a person decides is named in the asking tool call's
// result and the editor's log (noteFast).
func (m *Manager) Permit(ctx context.Context, req permission.Request) (permission.Decision, error) {
	timeout := m.approvalTimeout()
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	d, err := permission.Ask(pctx, m.permitter(), req) // timed: permission/fast.go
	if err == nil {
		notePermit(ctx, req, d) // tool_outcome.go
		m.noteFast(ctx, d.FastNote())
	}
	if err != nil && ctx.Err() == nil && pctx.Err() != nil {
		slog.Warn("permission timed out", "session", req.SessionID, "kind", req.Kind, "timeout", timeout)
		return permission.Decision{}, fmt.Errorf("the user did not answer within %s (plan_mode.approval_timeout_secs); the question was withdrawn", timeout)
	}
	return d, err
}

// noteFast tells the user that the client, not a person, answered (note
// is a Decision.FastNote; "" says nothing): in the asking tool call's
// result, which every face shows, and on the LSP face also as a log
// message (window/logMessage). permission.Mark has logged it.
func (m *Manager) noteFast(ctx context.Context, note string) {
	if note == "" {
		return
	}
	tooloutcome.Note(ctx, note)
	m.notes.Notify(ctx, note)
}

// permitter is the editor's own permission rendering, or its questions.
func (m *Manager) permitter() permission.Permitter {
	if p, ok := m.editor.(permission.Permitter); ok {
		return p
	}
	return AskPermitter{Asker: m.asker}
}

// commandPlace is how command would run, as the run question shows it
// (RunPlace under this machine's sandbox and the configuration).
func (m *Manager) commandPlace(command string) (network, sandboxState string) {
	return RunPlace(m.SandboxStatus(), m.config().Run.Network, command)
}

// RunPlace is how command would run under the sandbox st: its network
// ("yes" when a run.network rule matches, "no", or "not isolated" when no
// layer can switch it off) and whether a sandbox confines it ("on
// (<layers>)" or "off").
func RunPlace(st sandbox.Status, networkRules []string, command string) (network, sandboxState string) {
	return localPlace(st, tools.NetworkAllowed(networkRules, command)) // mcp_place.go
}
