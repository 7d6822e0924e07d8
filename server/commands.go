package server

import (
	"context"
	"encoding/json"
	"sort"

	"go.lsp.dev/jsonrpc2"
)

// commandMethods maps the workspace/executeCommand commands (PROTOCOL.md §6)
// to the agent/* method taking the same argument object.
var commandMethods = map[string]string{
	"agentls.newSession":  "agent/newSession",
	"agentls.prompt":      "agent/prompt",
	"agentls.setMode":     "agent/setMode",
	"agentls.approvePlan": "agent/resolvePlan",
	"agentls.rejectPlan":  "agent/resolvePlan",
	"agentls.cancel":      "agent/cancel",
}

func commandNames() []string {
	names := make([]string, 0, len(commandMethods))
	for n := range commandMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (s *Server) executeCommand(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	method, ok := commandMethods[p.Command]
	if !ok {
		return nil, invalidParams("unknown command %q", p.Command)
	}
	if !s.isInitialized() {
		return nil, jsonrpc2.NewError(serverNotInitialized, "server not initialized")
	}
	arg := json.RawMessage("{}")
	if len(p.Arguments) > 0 {
		arg = p.Arguments[0]
	}
	switch p.Command {
	case "agentls.approvePlan", "agentls.rejectPlan":
		var m map[string]any
		if err := json.Unmarshal(arg, &m); err != nil || m == nil {
			return nil, invalidParams("%s takes one argument object", p.Command)
		}
		m["decision"] = map[string]string{"agentls.approvePlan": "approve", "agentls.rejectPlan": "reject"}[p.Command]
		b, err := json.Marshal(m)
		if err != nil {
			return nil, invalidParams("%v", err)
		}
		arg = b
	}
	return agentHandlers[method](s, ctx, jsonrpc2.RawMessage(arg))
}
