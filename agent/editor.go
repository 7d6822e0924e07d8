package agent

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// Editor is everything the agent needs from the editor on the other end of
// the connection. The server implements it over JSON-RPC; tests implement it
// in memory. Methods may be called from many goroutines. Every send honours
// its context: a turn's sends use the turn's, so that a client that stops
// reading cannot hold a cancelled turn.
type Editor interface {
	// Update streams a turn (`agent/update`); update is one of the Update* types.
	Update(ctx context.Context, sessionID string, update any)
	// ModeChanged tells the editor the session's mode changed (`agent/modeChanged`).
	ModeChanged(ctx context.Context, ev ModeChange)
	// Notify sends a plan-mode notify line (`window/logMessage`).
	Notify(ctx context.Context, line string)
	// Apply sends changes to the editor (`workspace/applyEdit`) or writes them
	// to disk, calling req.Check on the exact operations right before they
	// leave; a failed check or an editor's refusal is an error.
	Apply(ctx context.Context, req ApplyRequest) error
	// Ask shows questions to the user and waits for the answers. It returns
	// ErrNoSurface when the editor cannot show them.
	Ask(ctx context.Context, req AskRequest) (AskReply, error)
	// ShowDocument opens a workspace file in the editor (`window/showDocument`).
	ShowDocument(ctx context.Context, abs string) error
	// StartProgress returns the progress handle of one turn: what the turn is
	// doing ("PLAN: thinking…"), shown until End. Each turn has its own.
	StartProgress(sessionID string) Progress
}

// Progress shows one turn's activity. Its methods never wait for the editor
// longer than their context allows.
type Progress interface {
	// Report shows what the turn does now.
	Report(ctx context.Context, message string)
	// End removes the progress.
	End(ctx context.Context)
}

// ErrNoSurface is returned by Editor.Ask when the editor cannot show the
// questions: they stay pending until agent/answer.
var ErrNoSurface = errors.New("the editor cannot show these questions")

// ApplyRequest is a set of changes to apply as one undoable edit.
type ApplyRequest struct {
	// SessionID is the session the change is made for; "" for none (the
	// user's archive of a plan).
	SessionID string
	// Actor is who makes the change: the tool's name, or
	// guard.SystemActor for agentls's own plan status changes.
	Actor   string
	Label   string
	Changes []workspace.Change
	// Check is the guard's last check, with the session's mode read when it is
	// called. The applier calls it on the operations it is about to send.
	Check func(ops []guard.Op) error
}

// AskRequest is a batch of questions for the user.
type AskRequest struct {
	SessionID  string
	QuestionID string
	Set        *questions.Set
	Purpose    string // "question" or "plan_approval"
	// PlanFile is the plan awaiting approval (workspace-relative), for
	// purpose "plan_approval".
	PlanFile  string
	CreatedAt time.Time
	// Actions overrides the message-request actions (plan approval: "Accept &
	// Build" / "Keep Planning"); nil means derive them from the questions.
	Actions []questions.Action
	// Command is set when the question asks for permission to run it (the
	// run tool): its one question "decision" takes "run", "always" (when
	// offered) or "reject".
	Command string
}

// AskReply is the user's reply to an AskRequest.
type AskReply struct {
	Answers   map[string]any
	Dismissed bool
}

// ModeChange is the payload of `agent/modeChanged`.
type ModeChange struct {
	SessionID string     `json:"sessionId"`
	Mode      guard.Mode `json:"mode"`
	PlanFile  *string    `json:"planFile"`
	Source    string     `json:"source"` // tool | user | load
}

// TextContent is an ACP text content block.
type TextContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// UpdateChunk is an agent_message_chunk or agent_thought_chunk update.
type UpdateChunk struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Content       TextContent `json:"content"`
}

// UpdateToolCall announces a tool call (`tool_call`).
type UpdateToolCall struct {
	SessionUpdate string          `json:"sessionUpdate"`
	ToolCallID    string          `json:"toolCallId"`
	Title         string          `json:"title"`
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	RawInput      json.RawMessage `json:"rawInput,omitempty"`
}

// UpdateToolCallDone reports a tool call's end (`tool_call_update`).
type UpdateToolCallDone struct {
	SessionUpdate string          `json:"sessionUpdate"`
	ToolCallID    string          `json:"toolCallId"`
	Status        string          `json:"status"`
	Content       []ToolContent   `json:"content,omitempty"`
	RawOutput     json.RawMessage `json:"rawOutput,omitempty"`
	Refusal       *guard.Refusal  `json:"refusal,omitempty"`
}

// ToolContent is an ACP tool call content item wrapping a text block.
type ToolContent struct {
	Type    string      `json:"type"`
	Content TextContent `json:"content"`
}

// PlanEntry is one step of the attached plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// UpdatePlan is the complete list of the attached plan's steps (`plan`).
type UpdatePlan struct {
	SessionUpdate string      `json:"sessionUpdate"`
	PlanFile      string      `json:"planFile"`
	Entries       []PlanEntry `json:"entries"`
}

// UpdateMode is `current_mode_update`.
type UpdateMode struct {
	SessionUpdate string     `json:"sessionUpdate"`
	CurrentModeID guard.Mode `json:"currentModeId"`
}

// UpdateQuestion is `question_pending`.
type UpdateQuestion struct {
	SessionUpdate string               `json:"sessionUpdate"`
	QuestionID    string               `json:"questionId"`
	Questions     []questions.Question `json:"questions"`
	CreatedAt     string               `json:"createdAt"`
}

// UpdateUsage is `usage_update`: the tokens of the last model request as
// the endpoint reported them, and the estimated size of the next request
// (contextTokens) against the model's context window.
type UpdateUsage struct {
	SessionUpdate string `json:"sessionUpdate"`
	InputTokens   int    `json:"inputTokens"`
	OutputTokens  int    `json:"outputTokens"`
	ContextTokens int    `json:"contextTokens,omitempty"`
	ContextWindow int    `json:"contextWindow,omitempty"`
}
