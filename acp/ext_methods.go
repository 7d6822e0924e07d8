package acp

// This file serves the rows of agentproto's table that name the ACP face,
// as ACP extension methods (`_agentls/<name>`, docs/acp.md): the agent/*
// calls ACP has no method of its own for.

import (
	"context"
	"encoding/json"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// extMethods are the ACP face's handlers of agentproto's table, by their
// ACP names; TestExtMethodsFromTable checks that every ACP row has one.
func (a *Agent) extMethods() map[string]ownHandler {
	out := map[string]ownHandler{}
	for _, r := range []extRegistration{
		extHandle(agentproto.Compact, a.compact),
		extHandle(agentproto.Rewind, a.rewind),
	} {
		out[r.name] = r.run
	}
	return out
}

// extRegistration is one extension method with its handler.
type extRegistration struct {
	name string
	run  ownHandler
}

// extHandle registers fn as r's extension method: fn gets r's params
// decoded (a malformed payload is -32602 before fn runs) and returns r's
// result type.
func extHandle[P, R any](r agentproto.Request[P, R], fn func(ctx context.Context, p P) (R, error)) extRegistration {
	name := r.Method().ACPName()
	return extRegistration{name: name, run: func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if len(raw) == 0 || string(raw) == "null" {
			raw = json.RawMessage("{}")
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, invalidParams("%s: invalid params: %v", name, err)
		}
		res, err := fn(ctx, p)
		if err != nil {
			return nil, err
		}
		return res, nil
	}}
}

// compact is _agentls/compact (agent/compact): the session's history is
// compacted now.
func (a *Agent) compact(ctx context.Context, p agentproto.SessionParams) (agentproto.CompactResult, error) {
	h, err := a.hostOf(p.SessionID)
	if err != nil {
		return agentproto.CompactResult{}, err
	}
	res, err := h.mgr.Compact(ctx, p.SessionID)
	if err != nil {
		return agentproto.CompactResult{}, toRequestError(err)
	}
	return protoconv.CompactResult(res), nil
}

// rewind is _agentls/rewind (agent/rewind): the session's files,
// conversation or both as they were before a message (docs/rewind.md).
func (a *Agent) rewind(ctx context.Context, p agentproto.RewindParams) (agentproto.RewindResult, error) {
	h, err := a.hostOf(p.SessionID)
	if err != nil {
		return agentproto.RewindResult{}, err
	}
	res, err := h.mgr.Rewind(ctx, protoconv.RewindRequest(p))
	if err != nil {
		return agentproto.RewindResult{}, toRequestError(err)
	}
	return protoconv.RewindResult(res), nil
}
