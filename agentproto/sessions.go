package agentproto

import "encoding/json"

// Mode is a session's mode.
type Mode string

// The modes.
const (
	ModePlan  Mode = "plan"
	ModeBuild Mode = "build"
)

// Session is a session as the server reports it.
type Session struct {
	// SessionID is a UUID v7.
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	Mode      Mode   `json:"mode"`
	// PlanFile is the attached plan, workspace-relative with `/`, or null.
	PlanFile  *string `json:"planFile"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
	// ParentID, ParentToolCallID and Kind are set on a sub-agent's session
	// (docs/subagents.md): the session and the task call that started it,
	// and its kind (explore, build or a user kind).
	ParentID         string `json:"parentId,omitempty"`
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	Kind             string `json:"kind,omitempty"`
	// Review is the session's review mode: "off" or "edits".
	Review string `json:"review,omitempty" ts:"'off' | 'edits'" lua:"'off'|'edits'"`
}

// SessionParams name a session.
type SessionParams struct {
	SessionID string `json:"sessionId"`
}

// NewSessionParams are agent/newSession's params.
type NewSessionParams struct {
	// Mode is "plan" or "build"; empty for the configured default.
	Mode  Mode   `json:"mode,omitempty"`
	Title string `json:"title,omitempty"`
}

// ListSessionsParams are agent/listSessions's params.
type ListSessionsParams struct {
	// IncludeChildren lists the sub-agents' sessions too.
	IncludeChildren bool `json:"includeChildren,omitempty"`
}

// ListSessionsResult is agent/listSessions's result.
type ListSessionsResult struct {
	// Sessions are newest first.
	Sessions []Session `json:"sessions"`
}

// LoadedSession is agent/loadSession's result: the session and its whole
// conversation (also after compaction).
type LoadedSession struct {
	Session
	Messages []Message `json:"messages"`
}

// Message is one message of a loaded session.
type Message struct {
	// ID is the message's UUID v7 (derived for messages saved before ids).
	ID      string `json:"id,omitempty"`
	Role    string `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message asks for.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Name is the tool name of a tool message.
	Name string `json:"name,omitempty"`
	// Thinking is the reasoning the model sent before an assistant
	// message, as it was shown live (agent_thought_chunk): a reloaded chat
	// shows it as thinking.
	Thinking string `json:"thinking,omitempty"`
	// ProviderState is the model provider's own state, opaque.
	ProviderState json.RawMessage `json:"provider_state,omitempty"`
	// Status is how the call a tool message answers ended: "completed" or
	// "failed" (a refused call stays failed, with its Refusal).
	Status  string   `json:"status,omitempty" ts:"'completed' | 'failed'" lua:"'completed'|'failed'"`
	Refusal *Refusal `json:"refusal,omitempty"`
	// Questions are what the call asked the user (ask_user, a plan
	// approval, a permission), Answers the user's answers, keyed by
	// question name; Dismissed when the user dismissed the questions.
	Questions []Question      `json:"questions,omitempty"`
	Answers   json.RawMessage `json:"answers,omitempty" ts:"Record<string, unknown>" lua:"table<string, any>"`
	Dismissed bool            `json:"dismissed,omitempty"`
	// Error is the error a failed prompt's turn ended with (on its user
	// message): agent/prompt's retryOf sends it again.
	Error string `json:"error,omitempty"`
	// Rewound marks a message a conversation rewind left out (an edited or
	// regenerated turn): kept in the file, not shown as the conversation.
	Rewound bool `json:"rewound,omitempty"`
}

// ToolCall is one tool call of an assistant message.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the JSON text the model wrote (possibly invalid).
	Arguments string `json:"arguments"`
	// Title and Kind are how the call was shown ("read main.go", read).
	Title string `json:"title,omitempty"`
	Kind  string `json:"kind,omitempty"`
}

// SetModeParams are agent/setMode's params.
type SetModeParams struct {
	SessionID string `json:"sessionId"`
	Mode      Mode   `json:"mode"`
}

// PromptParams are agent/prompt's params.
type PromptParams struct {
	SessionID string `json:"sessionId"`
	// Text is the prompt; one starting with `/` is a slash command.
	Text string `json:"text"`
	// Context is a file (and maybe a selection) attached to the prompt.
	Context *PromptContext `json:"context,omitempty"`
	// QuestionAnswer answers the session's pending question.
	QuestionAnswer *QuestionAnswer `json:"questionAnswer,omitempty"`
	// RetryOf names the user message of the session's failed last prompt:
	// its text is sent again (Text is ignored), the message is not added
	// again.
	RetryOf string `json:"retryOf,omitempty"`
}

// PromptContext is a file attached to a prompt, and maybe a selection.
type PromptContext struct {
	URI   string `json:"uri"`
	Range *Range `json:"range,omitempty"`
}

// Range is a range of a document (LSP's: zero-based lines, UTF-16
// characters).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Position is a place in a document (LSP's).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// QuestionAnswer is the answer to a pending question carried by a prompt.
type QuestionAnswer struct {
	QuestionID string          `json:"questionId"`
	Answers    json.RawMessage `json:"answers" ts:"Record<string, unknown>" lua:"table<string, any>"`
}

// StopReason is how a turn ended.
type StopReason string

// The stop reasons.
const (
	StopEndTurn         StopReason = "end_turn"
	StopCancelled       StopReason = "cancelled"
	StopQuestionPending StopReason = "question_pending"
	StopMaxTurnRequests StopReason = "max_turn_requests"
	StopRefusal         StopReason = "refusal"
	StopError           StopReason = "error"
	// StopMaxTokens is an answer the model's output token limit cut off
	// (the endpoint's finish_reason "length"): its text is shown as it
	// came, and the user is told it may be incomplete.
	StopMaxTokens StopReason = "max_tokens"
)

// PromptResult is agent/prompt's result: how the turn ended, its last
// text, and its error when it ended with one.
type PromptResult struct {
	StopReason StopReason   `json:"stopReason"`
	Text       string       `json:"text,omitempty"`
	Error      *PromptError `json:"error,omitempty"`
	// SessionID is the session a /new prompt started (the current session
	// from now on).
	SessionID string `json:"sessionId,omitempty"`
}

// PromptError is the error of a turn that ended with stopReason "error".
type PromptError struct {
	Message string `json:"message"`
}

// PromptStarted is agentls.prompt's result: the turn started and reports
// through agent/update (or a plain editor's messages).
type PromptStarted struct {
	SessionID string `json:"sessionId"`
	Started   bool   `json:"started"`
}

// AnswerParams are agent/answer's params.
type AnswerParams struct {
	SessionID  string          `json:"sessionId"`
	QuestionID string          `json:"questionId"`
	Answers    json.RawMessage `json:"answers" ts:"Record<string, unknown>" lua:"table<string, any>"`
}

// AnswerCommandParams are agentls.answer's params: agent/answer's whose
// questionId defaults to the pending question.
type AnswerCommandParams struct {
	SessionID  string          `json:"sessionId,omitempty"`
	QuestionID string          `json:"questionId,omitempty"`
	Answers    json.RawMessage `json:"answers" ts:"Record<string, unknown>" lua:"table<string, any>"`
}

// Accepted is agent/answer's result.
type Accepted struct {
	Accepted bool `json:"accepted"`
}

// CompactResult is agent/compact's result.
type CompactResult struct {
	Compacted bool `json:"compacted"`
	// ContextTokens is the estimated size of the next request.
	ContextTokens int `json:"contextTokens"`
}

// ListCommandsParams are agent/listCommands's params.
type ListCommandsParams struct {
	SessionID string `json:"sessionId,omitempty"`
}

// ListCommandsResult is agent/listCommands's result.
type ListCommandsResult struct {
	Commands []CommandInfo `json:"commands"`
}

// CommandInfo is a slash command a prompt may start with.
type CommandInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Hint says what the argument is ("<reason>").
	Hint string `json:"hint,omitempty"`
}

// RewindParams are agent/rewind's params.
type RewindParams struct {
	SessionID   string `json:"sessionId"`
	ToMessageID string `json:"toMessageId"`
	// What is "code", "conversation" or "both".
	What RewindWhat `json:"what"`
	// Paths, when set, limits a code rewind to these files (Undo of one
	// file, docs/review.md).
	Paths []string `json:"paths,omitempty"`
}

// RewindWhat is what a rewind restores.
type RewindWhat string

// What a rewind restores.
const (
	RewindCode         RewindWhat = "code"
	RewindConversation RewindWhat = "conversation"
	RewindBoth         RewindWhat = "both"
)

// RewindResult is what a rewind did.
type RewindResult struct {
	Restored  []string         `json:"restored"`
	Conflicts []RewindConflict `json:"conflicts"`
	Skipped   []string         `json:"skipped"`
	// UndoMessageID names the checkpoint taken right before this rewind (a
	// code rewind to it undoes this one).
	UndoMessageID string `json:"undoMessageId,omitempty"`
}

// RewindConflict is a file a rewind left alone, and why.
type RewindConflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// SetTitleParams are agent/setTitle's params.
type SetTitleParams struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
}
