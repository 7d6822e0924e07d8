package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"
)

// The session/update payloads, as plain structs of ACP's JSON shapes. They
// go out through the wire in one json.Marshal: the SDK's union types
// re-encode every nested value several times (Marshal, Unmarshal into a
// map, Marshal again), which made a turn's updates cost several times
// their size; the Go tests decode every one with the SDK's client side.
type (
	// updateParams is session/update's params.
	updateParams struct {
		SessionID string `json:"sessionId"`
		Update    any    `json:"update"`
	}
	textBlock struct {
		Type string `json:"type"` // "text"
		Text string `json:"text"`
	}
	// chunkUpdate is user_message_chunk, agent_message_chunk or
	// agent_thought_chunk.
	chunkUpdate struct {
		SessionUpdate string    `json:"sessionUpdate"`
		Content       textBlock `json:"content"`
		// MessageID groups the chunks of one message (message_ids.go).
		MessageID string `json:"messageId,omitempty"`
	}
	// toolCallStart is tool_call.
	toolCallStart struct {
		SessionUpdate string          `json:"sessionUpdate"` // "tool_call"
		ToolCallID    string          `json:"toolCallId"`
		Title         string          `json:"title"`
		Kind          string          `json:"kind,omitempty"`
		Status        string          `json:"status,omitempty"`
		RawInput      json.RawMessage `json:"rawInput,omitempty"`
		// Meta carries a sub-agent's call's parent (subagentMeta).
		Meta map[string]string `json:"_meta,omitempty"`
	}
	// toolCallUpdate is tool_call_update: only the fields set change.
	toolCallUpdate struct {
		SessionUpdate string            `json:"sessionUpdate"` // "tool_call_update"
		ToolCallID    string            `json:"toolCallId"`
		Kind          string            `json:"kind,omitempty"`
		Status        string            `json:"status,omitempty"`
		Content       []toolContent     `json:"content,omitempty"`
		RawOutput     json.RawMessage   `json:"rawOutput,omitempty"`
		Meta          map[string]string `json:"_meta,omitempty"`
	}
	// toolContent is one item of a tool call's content: a text block
	// ("content"), a diff, or a terminal.
	toolContent struct {
		Type       string     `json:"type"`
		Content    *textBlock `json:"content,omitempty"`
		Path       string     `json:"path,omitempty"`
		OldText    *string    `json:"oldText,omitempty"`
		NewText    *string    `json:"newText,omitempty"`
		TerminalID string     `json:"terminalId,omitempty"`
	}
	// planUpdate0 is the legacy `plan` checklist (plan_update.go has
	// plan_update).
	planUpdate0 struct {
		SessionUpdate string      `json:"sessionUpdate"` // "plan"
		Entries       []planEntry `json:"entries"`
		Meta          planMeta    `json:"_meta,omitempty"`
	}
	planEntry struct {
		Content  string `json:"content"`
		Priority string `json:"priority"`
		Status   string `json:"status"`
	}
	modeUpdate struct {
		SessionUpdate string `json:"sessionUpdate"` // "current_mode_update"
		CurrentModeID string `json:"currentModeId"`
	}
	configUpdate struct {
		SessionUpdate string                    `json:"sessionUpdate"` // "config_option_update"
		ConfigOptions []sdk.SessionConfigOption `json:"configOptions"`
	}
)

func textContent(text string) toolContent {
	return toolContent{Type: "content", Content: &textBlock{Type: "text", Text: text}}
}

func chunk(kind, text string) chunkUpdate {
	return chunkUpdate{SessionUpdate: kind, Content: textBlock{Type: "text", Text: text}}
}

// send queues one session/update. The turn never waits on an answer, and
// waits for room in the output queue only until ctx ends: a client that
// stops reading cannot hold a cancelled turn.
func (e *editor) send(ctx context.Context, sessionID string, update any) {
	ctx, cancel := context.WithTimeout(ctx, notifyWriteBound)
	defer cancel()
	_ = e.a.wire.writeMessage(ctx, struct {
		JSONRPC string       `json:"jsonrpc"`
		Method  string       `json:"method"`
		Params  updateParams `json:"params"`
	}{"2.0", "session/update", updateParams{SessionID: sessionID, Update: update}})
}
