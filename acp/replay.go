package acp

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/questions"
)

// interruptedText is the outcome replay gives a tool call that has no
// result in the history: the process ended (a crash, a kill) while it ran.
const interruptedText = "The tool call was interrupted by a restart of agentls; it has no result."

// replay sends a loaded session's history as session/update notifications:
// user messages, agent messages (after the thinking shown before them), and
// each tool call with its outcome. A
// tool call without a result (cut off by a crash) is reported failed,
// "interrupted by a restart", not left pending. Messages a conversation
// rewind left out (an edited or regenerated prompt on the LSP face) are
// not replayed: the client sees the conversation the model sees.
func (e *editor) replay(ctx context.Context, sessionID string, msgs []llm.Message) {
	var open []string // tool calls started and not yet answered, in order
	interrupt := func() {
		for _, id := range open {
			e.send(ctx, sessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "failed",
				Content: []toolContent{textContent(interruptedText)}})
		}
		open = nil
	}
	defer interrupt()
	for _, m := range msgs {
		if m.Rewound {
			continue // left out by a conversation rewind: not what the model sees
		}
		if m.Role != llm.RoleTool {
			interrupt() // results follow their calls: what is open now never gets one
		}
		switch m.Role {
		case llm.RoleUser:
			if m.Content != "" {
				e.send(ctx, sessionID, chunk("user_message_chunk", m.Content))
			}
		case llm.RoleAssistant:
			if m.Thinking != "" {
				// The reasoning shown live before the answer.
				c := chunk("agent_thought_chunk", m.Thinking)
				c.MessageID = m.ID
				e.send(ctx, sessionID, c)
			}
			if m.Content != "" {
				c := chunk("agent_message_chunk", m.Content)
				c.MessageID = m.ID // the persisted message's id
				if c.MessageID == "" {
					c.MessageID = e.a.msgIDs.of(sessionID, c.SessionUpdate)
				}
				e.send(ctx, sessionID, c)
				e.a.msgIDs.end(sessionID)
			}
			for _, c := range m.ToolCalls {
				// LoadSession's transcript: the title and kind kept with the call.
				start := toolCallStart{SessionUpdate: "tool_call", ToolCallID: c.ID, Title: c.Title, Kind: c.Kind, Status: "pending"}
				start.RawInput = shownInput(json.RawMessage(c.Arguments)) // escaped, as when the call was live

				e.send(ctx, sessionID, start)
				open = append(open, c.ID)
			}
		case llm.RoleTool:
			open = slices.DeleteFunc(open, func(id string) bool { return id == m.ToolCallID })
			status := "failed"
			if m.Outcome != nil { // LoadSession's transcript: the status as it was shown
				status = m.Outcome.Status
			}
			up := toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: m.ToolCallID, Status: status,
				Content: []toolContent{textContent(questions.Escape(failureSentence(m.Content)))}} // escaped, as when the call was live
			if json.Valid([]byte(m.Content)) {
				up.RawOutput = json.RawMessage(m.Content)
			}
			e.send(ctx, sessionID, up)
		}
	}
}
