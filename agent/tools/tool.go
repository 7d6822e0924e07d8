// Package tools holds the model-facing tools of agentls, one file per tool with
// a typed params struct and its description in an embedded markdown file,
// made into a Tool by New (the JSON Schema is derived from the struct). A
// tool never writes to the workspace itself: mutating tools compute
// workspace.Changes and hand them to Env.Apply, which runs the guard's last
// check and sends them to the editor (or the disk).
package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// Spec is everything a tool declares about itself: what the model is shown
// (name, description, JSON Schema parameters) and the traits the guard judges
// its calls by (class, refusal kind, path arguments, interaction, whether it
// is offered in plan mode). Guard.Name is left empty: the registry fills it
// from the model-facing name.
type Spec struct {
	llm.ToolSpec
	Guard guard.Decl
}

// Tool is one tool the model can call. The tools of agentls are made by New.
type Tool interface {
	// Spec is the tool's model-facing definition and guard declaration.
	Spec() Spec
	// Kind is the ACP tool kind shown in tool_call updates: read, edit,
	// delete, move, search, execute, think, switch_mode or other.
	Kind() string
	// Title is a short human title for a call, e.g. "read src/main.go".
	Title(args json.RawMessage) string
	// Run executes the call. Failures the model should read are returned as a
	// failed Result; a Go error is an infrastructure failure (the editor went
	// away, the context was cancelled).
	Run(ctx context.Context, env Env, args json.RawMessage) (Result, error)
}

// Result is what the model sees of a tool call: PROTOCOL.md §4a.
type Result struct {
	Success bool
	Value   any    // the "result" of a successful call
	Error   string // the "error" of a failed call
	// Refusal is set when the guard refused the call.
	Refusal *guard.Refusal
	// Declined lists the changes the user declined in review (review mode):
	// the model must not retry them blindly.
	Declined []workspace.DeclinedChange
	// Stop, when not empty, ends the turn after this call with this stop
	// reason (e.g. "question_pending").
	Stop string
}

// OK is a successful result.
func OK(v any) Result { return Result{Success: true, Value: v} }

// Failf is a failed result whose error the model reads.
func Failf(format string, args ...any) Result {
	return Result{Error: fmt.Sprintf(format, args...)}
}

// Refused is the result of a call the guard refused.
func Refused(r *guard.Refusal) Result {
	return Result{Error: r.Error(), Refusal: r}
}

// JSON renders the result as the model sees it:
// {"success":true,"result":…} or {"success":false,"error":"…","refusal":{…}}.
func (r Result) JSON() string {
	var v any
	if r.Success {
		v = struct {
			Success bool `json:"success"`
			Result  any  `json:"result"`
		}{true, r.Value}
	} else {
		v = struct {
			Success  bool                       `json:"success"`
			Error    string                     `json:"error"`
			Refusal  *guard.Refusal             `json:"refusal,omitempty"`
			Declined []workspace.DeclinedChange `json:"declined,omitempty"`
		}{false, r.Error, r.Refusal, r.Declined}
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]any{"success": false, "error": "unencodable tool result: " + err.Error()})
	}
	return string(b)
}

// Answer is the outcome of a question put to the user.
type Answer struct {
	// Status is "answered", "dismissed" or "question_pending".
	Status     string
	Answers    map[string]any
	QuestionID string // set when Status is "question_pending"
}

// EnterResult is enter_plan_mode's result (seed 001 shape).
type EnterResult struct {
	EnteredPlanMode   bool   `json:"entered_plan_mode"`
	AlreadyInPlanMode bool   `json:"already_in_plan_mode"`
	EnteredAt         string `json:"entered_at"`
	Reason            string `json:"reason"`
	Instructions      string `json:"instructions"`
}

// ExitResult is exit_plan_mode's result (seed 001 shape, plus the outcome).
type ExitResult struct {
	ExitedPlanMode   bool   `json:"exited_plan_mode"`
	Approved         bool   `json:"approved"`
	PlanFile         string `json:"plan_file"`
	PlanID           string `json:"plan_id"`
	PlanBytes        int    `json:"plan_bytes"`
	PlanChars        int    `json:"plan_chars"`
	ApprovalRequired bool   `json:"approval_required"`
	Message          string `json:"message"`
}

// RunRequest is a command run asks permission for.
type RunRequest struct {
	// Command is the command line as the model gave it (trimmed).
	Command string
	// Dir is the folder it runs in: absolute, symlinks resolved, inside the
	// workspace (a workspace folder unless the model gave another cwd).
	Dir string
}

// RunPermit is the answer to a RunRequest.
type RunPermit struct {
	// Run: the command may run.
	Run bool
	// Rule is the allow rule that let it run without asking anyone; "" when
	// the user answered. Auto-allowed git commands run with repository-local
	// programs switched off (gitenv.go).
	Rule string
}

// Env is what a tool may use of its session and of the editor. The agent
// implements it per session; tests implement it in memory.
type Env interface {
	// Workspace is the workspace the session acts on.
	Workspace() *workspace.Workspace
	// Guard is the plan-mode policy (for plan-aware tools to pick names).
	Guard() *guard.Guard
	// State is the session's mode, read at this instant.
	State() guard.State
	// Config is the effective configuration.
	Config() config.Config
	// PlanFile is the workspace-relative path of the attached plan, or "".
	PlanFile() string
	// Apply runs the guard's last check on the changes (mode read now) and
	// applies them through the editor or on disk. A refusal is returned as a
	// *guard.Refusal; other errors (the editor refused the edit) carry a
	// message for the model.
	Apply(ctx context.Context, tool, label string, changes []workspace.Change) error
	// PlanWritten records that the model wrote or edited a plan file in the
	// current planning phase, with the text it now has.
	PlanWritten(rel, text string)
	// Ask puts a batch of questions to the user through the best surface.
	Ask(ctx context.Context, set *questions.Set) (Answer, error)
	// EnterPlanMode switches the session to plan mode (from the model).
	EnterPlanMode(reason string) EnterResult
	// ExitPlanMode asks the user to approve the plan at path; see PROTOCOL.md §5.
	// A failed Result (stale plan, rejection) is for the model.
	ExitPlanMode(ctx context.Context, path string, allowedCommands []string) (Result, error)
	// ConfirmRun asks the user whether to run the command (unless an allow
	// rule lets it run unasked: config, the plan's allowed_commands or an
	// earlier "Always allow"); Run means run it.
	ConfirmRun(ctx context.Context, req RunRequest) (RunPermit, error)
	// UnsavedEdited lists workspace-relative files the agent edited that are
	// still unsaved in the editor.
	UnsavedEdited() []string
}
