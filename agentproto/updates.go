package agentproto

import "encoding/json"

// SessionUpdate is one update of a session's turn (agent/update's
// update), told apart by its sessionUpdate member.
type SessionUpdate interface{ IsSessionUpdate() }

// MessageChunk is agent_message_chunk or agent_thought_chunk: streamed
// text of the assistant's message or thoughts.
type MessageChunk struct {
	SessionUpdate string      `json:"sessionUpdate" ts:"'agent_message_chunk' | 'agent_thought_chunk'" lua:"'agent_message_chunk'|'agent_thought_chunk'"`
	Content       TextContent `json:"content"`
	// MessageID is the id the message is saved with (as agent/loadSession
	// shows it).
	MessageID string `json:"messageId,omitempty"`
}

// ToolCallStarted is tool_call: the model asked for a tool call (pending)
// or it started (in_progress).
type ToolCallStarted struct {
	SessionUpdate string `json:"sessionUpdate" ts:"'tool_call'" lua:"'tool_call'"`
	ToolCallID    string `json:"toolCallId"`
	Title         string `json:"title"`
	// Kind is the ACP tool kind (read, edit, delete, move, search,
	// execute, think, switch_mode, other).
	Kind     string          `json:"kind"`
	Status   string          `json:"status"`
	RawInput json.RawMessage `json:"rawInput,omitempty" ts:"unknown" lua:"any"`
	// ParentToolCallID and ChildSessionID are set on a sub-agent's call:
	// the parent's task call it runs under and the sub-agent's session
	// (docs/subagents.md).
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	ChildSessionID   string `json:"childSessionId,omitempty"`
}

// ToolCallDone is tool_call_update: a tool call ended (completed or
// failed). A client that declared experimental.agent.toolCallProgress also
// gets it while the call runs: status in_progress, and the newest progress
// line (untrusted text: a command's output) as its one content block.
type ToolCallDone struct {
	SessionUpdate string        `json:"sessionUpdate" ts:"'tool_call_update'" lua:"'tool_call_update'"`
	ToolCallID    string        `json:"toolCallId"`
	Status        string        `json:"status"`
	Content       []ToolContent `json:"content,omitempty"`
	// RawOutput is the tool result JSON the model sees.
	RawOutput json.RawMessage `json:"rawOutput,omitempty" ts:"unknown" lua:"any"`
	Refusal   *Refusal        `json:"refusal,omitempty"`
	// ParentToolCallID and ChildSessionID: as in ToolCallStarted.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	ChildSessionID   string `json:"childSessionId,omitempty"`
}

// PlanUpdate is plan: the attached plan's whole step list.
type PlanUpdate struct {
	SessionUpdate string      `json:"sessionUpdate" ts:"'plan'" lua:"'plan'"`
	PlanFile      string      `json:"planFile"`
	Entries       []PlanEntry `json:"entries"`
	// TickRefused is set on the update sent right after the builder's tick
	// of a step was refused for new errors in the step's files
	// (docs/language-intel.md, "Step ticks"); the next plan update has none.
	TickRefused *TickRefusal `json:"tickRefused,omitempty"`
}

// TickRefusal says why the builder's tick of a step was refused.
type TickRefusal struct {
	// Steps are the texts of the steps the refused change would have
	// ticked.
	Steps []string `json:"steps"`
	// Problems are the new errors, then the warnings, of the files changed
	// in the step.
	Problems []Problem `json:"problems"`
	// Message is the tool error's text (what the model read).
	Message string `json:"message"`
}

// Problem is a diagnostic as the model and the chat read it: the path
// relative to the workspace, the line from 1.
type Problem struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	// Severity is error, warning, information or hint.
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Source   string `json:"source,omitempty"`
	Code     string `json:"code,omitempty"`
}

// ModeUpdate is current_mode_update.
type ModeUpdate struct {
	SessionUpdate string `json:"sessionUpdate" ts:"'current_mode_update'" lua:"'current_mode_update'"`
	CurrentModeID Mode   `json:"currentModeId"`
}

// QuestionPending is question_pending: a question waits for an answer
// (agent/answer or the next prompt).
type QuestionPending struct {
	SessionUpdate string     `json:"sessionUpdate" ts:"'question_pending'" lua:"'question_pending'"`
	QuestionID    string     `json:"questionId"`
	Questions     []Question `json:"questions"`
	CreatedAt     string     `json:"createdAt"`
}

// UsageUpdate is usage_update: the tokens of the last model request, and
// the estimated size of the next one against the model's window.
type UsageUpdate struct {
	SessionUpdate string `json:"sessionUpdate" ts:"'usage_update'" lua:"'usage_update'"`
	InputTokens   int    `json:"inputTokens"`
	OutputTokens  int    `json:"outputTokens"`
	ContextTokens int    `json:"contextTokens,omitempty"`
	ContextWindow int    `json:"contextWindow,omitempty"`
	// Children are the tokens each sub-agent spent, by its task call, and
	// Total the session's and its sub-agents' together; both absent before
	// the session's first sub-agent.
	Children []ChildUsage `json:"children,omitempty"`
	Total    *TokenTotal  `json:"total,omitempty"`
}

// ChildUsage is the tokens one sub-agent spent.
type ChildUsage struct {
	ToolCallID   string `json:"toolCallId"`
	InputTokens  int    `json:"inputTokens"`
	OutputTokens int    `json:"outputTokens"`
}

// TokenTotal is a sum of tokens.
type TokenTotal struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
}

// InstructionsLoaded is instructions_loaded: the project instruction files
// the model's requests now carry (docs/instructions.md).
type InstructionsLoaded struct {
	SessionUpdate string            `json:"sessionUpdate" ts:"'instructions_loaded'" lua:"'instructions_loaded'"`
	Files         []InstructionFile `json:"files"`
}

// SessionInfoUpdate is session_info_update: the session's title changed
// (its first prompt named it, or agent/setTitle renamed it).
type SessionInfoUpdate struct {
	SessionUpdate string `json:"sessionUpdate" ts:"'session_info_update'" lua:"'session_info_update'"`
	Title         string `json:"title"`
	UpdatedAt     string `json:"updatedAt"`
}

// IsSessionUpdate marks the members of SessionUpdate. It is exported so
// that the agent's own updates of the same wire shape (a tool call's end
// with the guard's refusal, a question already validated) are members too:
// agent.Update is SessionUpdate.
func (SessionInfoUpdate) IsSessionUpdate()  {}
func (MessageChunk) IsSessionUpdate()       {}
func (ToolCallStarted) IsSessionUpdate()    {}
func (ToolCallDone) IsSessionUpdate()       {}
func (PlanUpdate) IsSessionUpdate()         {}
func (ModeUpdate) IsSessionUpdate()         {}
func (QuestionPending) IsSessionUpdate()    {}
func (UsageUpdate) IsSessionUpdate()        {}
func (InstructionsLoaded) IsSessionUpdate() {}

// TextContent is a text block.
type TextContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// ToolContent is a tool call's content item: a text block.
type ToolContent struct {
	Type    string      `json:"type"`
	Content TextContent `json:"content"`
}

// Refusal is a plan-mode (or guard) refusal attached to a failed tool
// call.
type Refusal struct {
	ToolName      string `json:"tool_name"`
	ToolKind      string `json:"tool_kind"`
	Hint          string `json:"hint"`
	EnteredAt     string `json:"entered_at"`
	EnteredReason string `json:"entered_reason"`
}

// PlanEntry is one step of a plan update.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	// Status is pending, in_progress or completed.
	Status PlanEntryStatus `json:"status"`
}

// PlanEntryStatus is a plan step's state.
type PlanEntryStatus string

// The plan step states.
const (
	EntryPending    PlanEntryStatus = "pending"
	EntryInProgress PlanEntryStatus = "in_progress"
	EntryCompleted  PlanEntryStatus = "completed"
)

// InstructionFile is a project instruction file the model's requests
// carry.
type InstructionFile struct {
	// Path is workspace-relative (~/… for the user's file).
	Path  string `json:"path"`
	Bytes int    `json:"bytes"`
	// Cut is true when instructions.max_bytes cut it or left it out.
	Cut bool `json:"cut"`
}
