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
	"agentls.compact":     "agent/compact",
}

// planCommands are the commands on a plan file (the code lenses'), whose
// single argument is {path}: workspace-relative, absolute, or a file URI.
var planCommands = map[string]handlerFunc{
	"agentls.buildPlan":   (*Server).buildPlanCommand,
	"agentls.archivePlan": (*Server).archivePlanCommand,
}

func commandNames() []string {
	names := make([]string, 0, len(commandMethods)+len(planCommands))
	for n := range commandMethods {
		names = append(names, n)
	}
	for n := range planCommands {
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
	planCommand, isPlanCommand := planCommands[p.Command]
	if !ok && !isPlanCommand {
		return nil, invalidParams("unknown command %q", p.Command)
	}
	if !s.isInitialized() {
		return nil, jsonrpc2.NewError(serverNotInitialized, "server not initialized")
	}
	arg := json.RawMessage("{}")
	if len(p.Arguments) > 0 {
		arg = p.Arguments[0]
	}
	if isPlanCommand {
		return planCommand(s, ctx, jsonrpc2.RawMessage(arg))
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

type planPathParams struct {
	Path string `json:"path"`
}

// buildPlanCommand is agentls.buildPlan {path}: a new build session with the
// plan attached (and approved). Its result is the Session.
func (s *Server) buildPlanCommand(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p planPathParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	info, err := s.manager().BuildPlan(jsonrpc2.DetachContext(ctx), p.Path)
	if err != nil {
		return nil, rpcError(err)
	}
	return info, nil
}

// archivePlanCommand is agentls.archivePlan {path}: the plan's status
// becomes archived. Its result is {path, status}.
func (s *Server) archivePlanCommand(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p planPathParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	rel, err := s.manager().ArchivePlan(jsonrpc2.DetachContext(ctx), p.Path)
	if err != nil {
		return nil, rpcError(err)
	}
	return map[string]string{"path": rel, "status": "archived"}, nil
}
