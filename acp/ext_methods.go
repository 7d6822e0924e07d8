package acp

// This file serves the rows of agentproto's table that name the ACP face,
// as ACP extension methods (`_agentls/<name>`, docs/acp.md): the agent/*
// calls ACP has no method of its own for. Their handlers are host/agentapi's,
// the same as the LSP face's: this face only carries them.

import (
	"context"
	"encoding/json"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host/agentapi"
)

// extMethods are the ACP face's handlers of agentproto's table, by their
// ACP names; TestExtMethodsFromTable checks that every ACP row has one.
func (a *Agent) extMethods() map[string]ownHandler {
	out := map[string]ownHandler{}
	for _, h := range agentapi.Handlers() {
		if m := h.Method(); m.Faces.Has(agentproto.ACP) {
			out[m.ACPName()] = a.extHandler(h)
		}
	}
	return out
}

// extHandler serves h as its extension method: a malformed payload is
// -32602 naming the method, the agent of the workspace that holds the
// session opened on this connection, the agent's errors through
// toRequestError.
func (a *Agent) extHandler(h agentapi.Handler) ownHandler {
	name := h.Method().ACPName()
	face := agentapi.Face{
		Invalid: func(reason string) error { return invalidParams("%s: invalid params: %s", name, reason) },
		At:      a.agentAt,
		Error:   toRequestError,
	}
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		return h.Serve(ctx, face, raw)
	}
}

// agentAt is the agent of the workspace that holds the session, one
// opened on this connection.
func (a *Agent) agentAt(sessionID string) (agentapi.Services, error) {
	h, err := a.hostOf(sessionID)
	if err != nil {
		return nil, err
	}
	return h.mgr, nil
}
