// Package protoconv turns the agent's values into the agent/* protocol's
// wire types (agentproto), for both faces: the agent knows no wire, the
// protocol package no agent. Each conversion keeps the JSON the agent's
// own type would give (TestSameJSON).
package protoconv

import (
	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// Session is a session's info on the wire.
func Session(i agent.Info) agentproto.Session {
	return agentproto.Session{SessionID: i.SessionID, Title: i.Title, Mode: agentproto.Mode(i.Mode), PlanFile: i.PlanFile, CreatedAt: i.CreatedAt, UpdatedAt: i.UpdatedAt}
}

// Sessions are sessions' infos on the wire (never nil: `[]`).
func Sessions(list []agent.Info) []agentproto.Session {
	out := make([]agentproto.Session, 0, len(list))
	for _, i := range list {
		out = append(out, Session(i))
	}
	return out
}

// Messages are a conversation on the wire (never nil: `[]`).
func Messages(msgs []llm.Message) []agentproto.Message {
	out := make([]agentproto.Message, 0, len(msgs))
	for _, m := range msgs {
		w := agentproto.Message{ID: m.ID, Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name, ProviderState: m.ProviderState}
		for _, c := range m.ToolCalls {
			w.ToolCalls = append(w.ToolCalls, agentproto.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		out = append(out, w)
	}
	return out
}

// Plans are listed plans on the wire (never nil: `[]`).
func Plans(list []agent.PlanInfo) []agentproto.PlanInfo {
	out := make([]agentproto.PlanInfo, 0, len(list))
	for _, p := range list {
		out = append(out, agentproto.PlanInfo(p))
	}
	return out
}

// ModelCheck is agent/checkModel's result on the wire.
func ModelCheck(c agent.ModelCheck) agentproto.ModelCheck {
	out := agentproto.ModelCheck{
		OK: c.OK, Provider: c.Provider, Model: c.Model, BaseURL: c.BaseURL, Message: c.Message,
		Sandbox: agentproto.SandboxStatus(c.Sandbox),
	}
	for _, s := range c.MCPServers {
		out.MCPServers = append(out.MCPServers, agentproto.MCPServerStatus(s))
	}
	return out
}

// CompactResult is agent/compact's result on the wire.
func CompactResult(r agent.CompactResult) agentproto.CompactResult {
	return agentproto.CompactResult(r)
}

// RewindRequest is agent/rewind's params for the agent.
func RewindRequest(p agentproto.RewindParams) agent.RewindRequest {
	return agent.RewindRequest{SessionID: p.SessionID, ToMessageID: p.ToMessageID, What: string(p.What)}
}

// RewindResult is agent/rewind's result on the wire.
func RewindResult(r agent.RewindResult) agentproto.RewindResult {
	out := agentproto.RewindResult{Restored: r.Restored, Skipped: r.Skipped, UndoMessageID: r.UndoMessageID}
	if r.Conflicts != nil {
		out.Conflicts = make([]agentproto.RewindConflict, 0, len(r.Conflicts))
	}
	for _, c := range r.Conflicts {
		out.Conflicts = append(out.Conflicts, agentproto.RewindConflict(c))
	}
	return out
}

// Commands are slash commands on the wire (never nil: `[]`).
func Commands(list []agent.CommandInfo) []agentproto.CommandInfo {
	out := make([]agentproto.CommandInfo, 0, len(list))
	for _, c := range list {
		out = append(out, agentproto.CommandInfo(c))
	}
	return out
}
