// Package protoconv turns the agent's values into the agent/* protocol's
// wire types (agentproto), for both faces: the agent knows no wire, the
// protocol package no agent. Each conversion keeps the JSON the agent's
// own type would give (TestSameJSON).
package protoconv

import (
	"encoding/json"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// Session is a session's info on the wire.
func Session(i agent.Info) agentproto.Session {
	return i // the agent's type is agentproto's
}

// each converts every element of a list; the result is never nil (`[]`).
func each[T, W any](list []T, conv func(T) W) []W {
	out := make([]W, 0, len(list))
	for _, v := range list {
		out = append(out, conv(v))
	}
	return out
}

// Sessions are sessions' infos on the wire (never nil: `[]`).
func Sessions(list []agent.Info) []agentproto.Session { return each(list, Session) }

// Messages are a conversation on the wire (never nil: `[]`).
func Messages(msgs []llm.Message) []agentproto.Message {
	return each(msgs, func(m llm.Message) agentproto.Message {
		w := agentproto.Message{ID: m.ID, Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name, ProviderState: m.ProviderState, Error: m.Error, Rewound: m.Rewound}
		w.ToolCalls = m.ToolCalls // llm's type is agentproto's
		if o := m.Outcome; o != nil {
			// The outcome is flat on the wire: status, refusal, questions, answers.
			w.Status, w.Answers, w.Dismissed = o.Status, o.Answers, o.Dismissed
			if len(o.Refusal) > 0 {
				var r agentproto.Refusal
				if json.Unmarshal(o.Refusal, &r) == nil {
					w.Refusal = &r
				}
			}
			if len(o.Questions) > 0 {
				_ = json.Unmarshal(o.Questions, &w.Questions) // written by the agent from the same shape
			}
		}
		return w
	})
}

// Plans are listed plans on the wire (never nil: `[]`).
func Plans(list []agent.PlanInfo) []agentproto.PlanInfo {
	return each(list, func(p agent.PlanInfo) agentproto.PlanInfo { return agentproto.PlanInfo(p) })
}

// ModelCheck is agent/checkModel's result on the wire.
func ModelCheck(c agent.ModelCheck) agentproto.ModelCheck {
	return c // the agent's type is agentproto's
}

// CompactResult is agent/compact's result on the wire.
func CompactResult(r agent.CompactResult) agentproto.CompactResult {
	return r // the agent's type is agentproto's
}

// Commands are slash commands on the wire (never nil: `[]`).
func Commands(list []agent.CommandInfo) []agentproto.CommandInfo {
	if list == nil {
		return []agentproto.CommandInfo{}
	}
	return list // the agent's type is agentproto's
}

// ChangedFiles are files changed since a checkpoint on the wire.
func ChangedFiles(list []agent.ChangedFile) agentproto.ChangedFilesResult {
	return agentproto.ChangedFilesResult{Files: each(list, func(f agent.ChangedFile) agentproto.ChangedFile { return f })}
}

// CheckpointFileText is a checkpoint's file on the wire.
func CheckpointFileText(t agent.CheckpointFileText) agentproto.CheckpointFileText {
	return t // the agent's type is agentproto's
}

// ModelList is agent/listModels's result on the wire.
func ModelList(l agent.ModelList) agentproto.ModelList {
	return agentproto.ModelList{
		Models:  each(l.Models, func(m agent.ModelInfo) agentproto.ModelInfo { return agentproto.ModelInfo(m) }),
		Current: agentproto.CurrentModels(l.Current),
	}
}
