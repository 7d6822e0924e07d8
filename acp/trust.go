package acp

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/permission"
)

// trustAsked remembers the workspace file contents (SHA-256) whose trust
// was asked on this connection, so that each content is asked once.
type trustAsked struct {
	mu   sync.Mutex
	sums map[string]bool
}

// first reports whether sum is asked for the first time (and marks it).
func (t *trustAsked) first(sum string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sums == nil {
		t.sums = map[string]bool{}
	}
	if t.sums[sum] {
		return false
	}
	t.sums[sum] = true
	return true
}

// again forgets that sum was asked: an ask that failed (the client's
// answer was an error or invalid) decided nothing, so the next prompt asks
// again.
func (t *trustAsked) again(sum string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.sums, sum)
}

// trustAskFailed is the text of a trust call whose question failed.
func trustAskFailed(path string, err error) string {
	return "The question could not be asked (" + err.Error() + "): " + path + " stays untrusted for now (its widening keys ignored); the next prompt asks again."
}

// trustFastNote is the text of a trust call the client answered by
// itself, faster than a person decides (note: permission's FastNote);
// left says what stays off meanwhile.
func trustFastNote(note, path, left string) string {
	return note + ". " + path + " stays untrusted (" + left + ") until you trust it: the next prompt asks again."
}

// reviewTrust asks, at a prompt, whether to trust the workspace's
// .agentls.yaml when keys of it wait for trust: through the permission
// service, as a session/request_permission on a tool call of its own
// ("Don't trust" reject_once first, "Trust" allow_always), listing every
// widening key with its value in full. "Trust" is remembered and the
// configuration applies at once, for this prompt's turn too. Each content
// is asked once per connection; a failed or declined ask leaves the keys
// ignored. cancelled reports that the client cancelled the question (or
// the prompt): the prompt ends cancelled.
func (h *hosted) reviewTrust(ctx context.Context, sessionID string) (cancelled bool) {
	// What the file says now applies before anything is asked: a change
	// that narrows at once, and a changed file's widening keys stay
	// ignored (the old content's trust does not carry over) whatever the
	// answer; a Trust applies them below.
	cfg, trust := h.Reload()
	h.Reconfigure(cfg)
	if !trust.Pending() || !h.trustAsked.first(trust.Sum) {
		return false
	}
	callID := "trust-" + trust.Sum[:16]
	req := permission.Request{
		SessionID: sessionID, ToolCallID: callID, Requester: "agentls", Kind: agentproto.PermissionTrust, What: trust.Path,
		Reach: agentproto.ReachWorkspace, Grants: trust.Grants(),
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, config.TrustAnswers[0]),
			permission.Opt(agentproto.AllowAlways, config.TrustAnswers[1]),
		},
	}
	h.ed.send(ctx, sessionID, toolCallStart{SessionUpdate: "tool_call", ToolCallID: callID, Title: req.Title(), Kind: "other", Status: "pending"})
	d, err := permission.Ask(ctx, h.ed, req) // timed: permission/fast.go
	status := "failed"
	var content []toolContent
	if note := d.FastNote(); note != "" {
		// The client's own "Trust" trusts nothing: asked again next time.
		h.trustAsked.again(trust.Sum)
		content = []toolContent{textContent(trustFastNote(note, trust.Path, "its widening keys ignored"))}
	}
	defer func() {
		h.ed.send(ctx, sessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: callID, Status: status, Content: content})
	}()
	if err != nil {
		slog.Warn("acp: trust question", "file", trust.Path, "err", err)
		cancelled := errors.Is(err, errCancelledByClient) || ctx.Err() != nil
		if !cancelled {
			h.trustAsked.again(trust.Sum)
			content = []toolContent{textContent(trustAskFailed(trust.Path, err))}
		}
		return cancelled
	}
	if d.Option != agentproto.AllowAlways {
		slog.Info("acp: workspace configuration not trusted", "file", trust.Path)
		return false
	}
	if err := h.Trust(trust); err != nil {
		slog.Warn("acp: trust not remembered; it holds until agentls stops", "err", err)
	}
	cfg, _ = h.Reload()
	h.Reconfigure(cfg)
	status = "completed"
	slog.Info("acp: workspace configuration trusted", "file", trust.Path, "sha256", trust.Sum)
	return false
}
