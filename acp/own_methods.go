package acp

// This file routes the client requests the SDK has no method for (it
// answers them "method not found"): the wire answers them itself, beside
// the SDK, as unstable.go sends what the SDK cannot.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
)

// ownHandler serves one request the wire answers itself.
type ownHandler func(ctx context.Context, params json.RawMessage) (any, error)

// ownMethods are the requests agentls serves beside the SDK: the ACP
// methods the SDK lacks, and the extension methods of agentproto's table
// (ext_methods.go).
func (a *Agent) ownMethods() map[string]ownHandler {
	own := a.extMethods()
	own["session/delete"] = a.deleteSession
	return own
}

// serveOwn answers one request with its handler, on its own goroutine
// (owned: Serve waits for w.serving). ctx ends when Serve stops.
func (w *wire) serveOwn(ctx context.Context, id json.RawMessage, method string, params json.RawMessage, h ownHandler) {
	w.serving.Add(1)
	go func() {
		defer w.serving.Done()
		res, err := h(ctx, params)
		msg := map[string]any{"jsonrpc": "2.0", "id": id}
		if err != nil {
			var re *sdk.RequestError
			if !errors.As(err, &re) {
				re = &sdk.RequestError{Code: codeInternal, Message: err.Error()}
			}
			e := map[string]any{"code": re.Code, "message": re.Message}
			if re.Data != nil {
				e["data"] = re.Data
			}
			msg["error"] = e
			slog.Info("acp: request failed", "method", method, "err", re.Message)
		} else {
			if res == nil {
				res = map[string]any{}
			}
			msg["result"] = res
		}
		_ = w.writeMessage(context.Background(), msg)
	}()
}

// deleteSessionParams are session/delete's params.
type deleteSessionParams struct {
	SessionID string  `json:"sessionId"`
	Cwd       *string `json:"cwd"`
}

// deleteSession is session/delete: the session's files go; one open on
// this connection is closed first; one another process drives is refused;
// an unknown one is already gone (success).
func (a *Agent) deleteSession(ctx context.Context, raw json.RawMessage) (any, error) {
	var p deleteSessionParams
	if len(raw) == 0 || json.Unmarshal(raw, &p) != nil {
		return nil, invalidParams("session/delete takes {sessionId}")
	}
	if p.SessionID == "" {
		return nil, invalidParams("sessionId is required")
	}
	h, err := a.hostOf(p.SessionID)
	if err != nil {
		h, err = a.hostForDelete(p.Cwd)
		if err != nil {
			return nil, err
		}
	}
	err = h.mgr.DeleteSession(ctx, p.SessionID)
	if err == nil {
		h.DropSessionMCPServers(p.SessionID) // its own servers go with it
	}
	if errors.Is(err, agent.ErrUnknownSession) {
		// Deleting what is not there succeeds silently (the ACP
		// session-delete page's SHOULD; acp-tck ACP-DELETE-002).
		slog.Info("acp: session/delete of an unknown session: nothing to delete", "session", p.SessionID)
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, toRequestError(err)
	}
	a.mu.Lock()
	delete(a.sessions, p.SessionID)
	a.mu.Unlock()
	slog.Info("acp: session deleted", "session", p.SessionID)
	return map[string]any{}, nil
}

// hostForDelete is the workspace of a session not loaded on this
// connection: cwd's, else the one workspace served.
func (a *Agent) hostForDelete(cwd *string) (*hosted, error) {
	if cwd != nil && *cwd != "" {
		return a.hostFor(*cwd)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.hosts) == 1 {
		return a.hosts[0], nil
	}
	return nil, invalidParams("session/delete: the session is not loaded here; give cwd (its project folder)")
}
