package agentproto

import "encoding/json"

// Question is one question of an ask_user batch (docs/protocol.md §4).
type Question struct {
	// Name is unique in the batch; the answers are keyed by it.
	Name     string `json:"name"`
	Question string `json:"question"`
	// Schema is the JSON Schema (draft 2020-12) the answer must satisfy.
	Schema  json.RawMessage  `json:"schema" ts:"JsonSchema" lua:"table"`
	Buttons []QuestionButton `json:"buttons,omitempty"`
	// Severity sets the message type of a plain editor's question.
	Severity Severity `json:"severity,omitempty"`
	// Optional questions may be left unanswered.
	Optional bool `json:"optional,omitempty"`
}

// QuestionButton is a button offered by a question; its value answers it.
type QuestionButton struct {
	Label   string          `json:"label"`
	Value   json.RawMessage `json:"value" ts:"unknown" lua:"any"`
	Variant ButtonVariant   `json:"variant,omitempty"`
}

// ButtonVariant is how a button is shown.
type ButtonVariant string

// The button variants.
const (
	VariantPrimary   ButtonVariant = "primary"
	VariantSecondary ButtonVariant = "secondary"
	VariantDanger    ButtonVariant = "danger"
)

// Severity is how much a question matters.
type Severity string

// The severities.
const (
	SeverityCritical Severity = "critical"
	SeverityMajor    Severity = "major"
	SeverityMinor    Severity = "minor"
)

// PermissionRequest is a permission request (docs/protocol.md "Permission
// requests"): what is asked, where, and everything allowing it grants. A
// plan approval carries one of kind plan listing the commands approving
// grants.
type PermissionRequest struct {
	Kind PermissionKind `json:"kind"`
	// What is the command line, the file…
	What string `json:"what"`
	// Cwd is the folder a command runs in.
	Cwd string `json:"cwd,omitempty"`
	// Reach is the asking tool's reach.
	Reach Reach `json:"reach,omitempty"`
	// Grants is what allowing grants besides What, each in full.
	Grants []string `json:"grants" ts:"string[] | null" lua:"string[]|nil"`
	// Network is yes, no or not isolated (commands).
	Network string `json:"network,omitempty"`
	// Sandbox is on or off (commands).
	Sandbox string `json:"sandbox,omitempty"`
	// Options are the choices, in the order to show them, the rejection
	// first.
	Options    []PermissionOption `json:"options"`
	Requester  string             `json:"requester,omitempty"`
	ToolCallID string             `json:"toolCallId,omitempty"`
	// Document is a generated file listing the grants when they are too
	// many.
	Document string `json:"document,omitempty"`
	// Diff is the unified diff of an edit asked for in review mode (kind
	// edit, docs/review.md).
	Diff string `json:"diff,omitempty"`
}

// PermissionKind is what a permission request asks for.
type PermissionKind string

// The permission kinds.
const (
	PermissionRun      PermissionKind = "run"      // a command the run tool would start
	PermissionMCP      PermissionKind = "mcp"      // a call to an MCP server's tool
	PermissionNetwork  PermissionKind = "network"  // a network fetch
	PermissionTrust    PermissionKind = "trust"    // the widening keys of a workspace .agentls.yaml
	PermissionSubagent PermissionKind = "subagent" // a sub-agent's session
	// PermissionPlan is a plan approval's grants: the approval is the plan
	// question (purpose "plan_approval"); the request it carries lists what
	// approving grants.
	PermissionPlan PermissionKind = "plan"
	// PermissionEdit is a BUILD edit in review mode, asked of an editor
	// without change annotations (docs/review.md): Diff shows it.
	PermissionEdit PermissionKind = "edit"
)

// Reach is where a tool acts.
type Reach string

// The reaches.
const (
	// ReachWorkspace tools read or change files of the workspace folders.
	ReachWorkspace Reach = "workspace"
	// ReachNetwork tools send or fetch over the network (a web fetch, a
	// remote MCP server): in plan mode the guard refuses them unless the
	// user listed them in plan_mode.allow_network_tools, since what they
	// send may carry workspace text.
	ReachNetwork Reach = "network"
	// ReachProcess tools start processes (run).
	ReachProcess Reach = "process"
	// ReachEditor tools talk only to the editor and the user (questions,
	// the plan approval, mode switches).
	ReachEditor Reach = "editor"
)

// PermissionOption is one choice of a permission request; its id equals
// its kind.
type PermissionOption struct {
	ID    OptionKind `json:"id"`
	Kind  OptionKind `json:"kind"`
	Label string     `json:"label"`
}

// OptionKind is a permission choice.
type OptionKind string

// The permission choices.
const (
	AllowOnce   OptionKind = "allow_once"
	AllowAlways OptionKind = "allow_always"
	RejectOnce  OptionKind = "reject_once"
)
