// Package protoconv turns the agent's values into the agent/* protocol's
// wire types (agentproto), for both faces, where the two differ (a loaded
// message's outcome is flat on the wire, a nil list is `[]`): the agent's
// values that are agentproto's types need no conversion. Each conversion
// keeps the JSON the agent's own type would give (TestSameJSON).
package protoconv

import (
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// nonNil is list, or an empty list for nil (`[]` on the wire, not null).
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// each converts every element of a list; the result is never nil (`[]`).
func each[T, W any](list []T, conv func(T) W) []W {
	out := make([]W, 0, len(list))
	for _, v := range list {
		out = append(out, conv(v))
	}
	return out
}

// Sessions are sessions' infos on the wire (never nil: `[]`; the agent's
// Info is agentproto's Session).
func Sessions(list []agentproto.Session) []agentproto.Session { return nonNil(list) }

// Messages are a conversation on the wire (never nil: `[]`).
func Messages(msgs []llm.Message) []agentproto.Message {
	return each(msgs, func(m llm.Message) agentproto.Message {
		w := agentproto.Message{ID: m.ID, Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name, Thinking: m.Thinking, ProviderState: m.ProviderState, Error: m.Error, Rewound: m.Rewound}
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
func Plans(list []agentproto.PlanInfo) []agentproto.PlanInfo { return nonNil(list) }

// Commands are slash commands on the wire (never nil: `[]`).
func Commands(list []agentproto.CommandInfo) []agentproto.CommandInfo { return nonNil(list) }

// ChangedFiles are files changed since a checkpoint on the wire.
func ChangedFiles(list []agentproto.ChangedFile) agentproto.ChangedFilesResult {
	return agentproto.ChangedFilesResult{Files: nonNil(list)}
}

// ModelList is agent/listModels's result on the wire (its models never
// nil: `[]`).
func ModelList(l agentproto.ModelList) agentproto.ModelList {
	l.Models = nonNil(l.Models)
	return l
}
