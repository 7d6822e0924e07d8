package guard

import (
	"fmt"
	"strconv"
	"time"
)

// RefusalMessage is the exact error every plan-mode refusal carries
// (DESIGN.md §The guard).
const RefusalMessage = "System is in Plan Mode. You can only modify the plan. Switch to Build Mode to apply changes."

// Reason says why a call or change was refused. It is not part of the wire
// shape; it decides the Error text.
type Reason int

// The reasons for a refusal.
const (
	// ReasonPlanMode: the session is in plan mode and the call or change
	// touches something other than a plan document.
	ReasonPlanMode Reason = iota
	// ReasonAgentState: the target is agentls's own state folder
	// `.agentls/` (or a workspace folder holding it); refused in every mode.
	ReasonAgentState
	// ReasonUnclassified: the tool is not classified (build mode; in plan
	// mode the refusal is ReasonPlanMode).
	ReasonUnclassified
	// ReasonBadTarget: the arguments could not be read or a target could
	// not be resolved inside the workspace (build mode).
	ReasonBadTarget
	// ReasonProtected: the target is (or holds) a folder that belongs to
	// another tool, such as `.git/`; refused in every mode.
	ReasonProtected
	// ReasonPlanBuilt: the target is a plan another session is building
	// (or a folder holding one); refused in every mode. Target is the
	// plan's workspace-relative path.
	ReasonPlanBuilt
	// ReasonNotGranted: the session holds a Grant (a sub-agent) that does
	// not include the tool; refused in every mode. Hint says what it holds.
	ReasonNotGranted
)

// Refusal is the structured refusal of a tool call or of a change
// (PROTOCOL.md §4a): the model sees it under "refusal", beside the error.
type Refusal struct {
	ToolName      string `json:"tool_name"`
	ToolKind      Kind   `json:"tool_kind"`
	Hint          string `json:"hint"`
	EnteredAt     string `json:"entered_at"` // RFC3339; "" when unknown
	EnteredReason string `json:"entered_reason"`
	// Reason is why the guard refused; the zero value is a plan-mode refusal.
	Reason Reason `json:"-"`
	// Target is the path the refusal is about, as given ("" if none).
	Target string `json:"-"`
	// Protected names what a ReasonAgentState or ReasonProtected refusal
	// protects ("the version-control folder .git/"); "" means agentls's
	// state folder.
	Protected string `json:"-"`
}

// Error is RefusalMessage for a plan-mode refusal; the other reasons say
// what is wrong in their own words.
func (r *Refusal) Error() string {
	switch r.Reason {
	case ReasonAgentState, ReasonProtected:
		what := r.Protected
		if what == "" {
			what = "agentls's own state folder .agentls/"
		}
		if r.ToolKind == KindReadOnly {
			return fmt.Sprintf("%s refused: %q is or is inside %s, which no tool may read or change in any mode", r.ToolName, r.Target, what)
		}
		msg := fmt.Sprintf("%s refused: %q is or holds %s, which no tool may change in any mode", r.ToolName, r.Target, what)
		if r.Reason == ReasonProtected {
			msg += "; " + vcsInstead
		}
		return msg
	case ReasonUnclassified:
		return fmt.Sprintf("%s refused: the tool is not classified by the guard, so it cannot run", r.ToolName)
	case ReasonBadTarget, ReasonNotGranted:
		return fmt.Sprintf("%s refused: %s", r.ToolName, r.Hint)
	case ReasonPlanBuilt:
		return PlanBuiltMessage(r.Target)
	}
	return RefusalMessage
}

// NotifyRefused is the frozen notify line for a refusal:
// `[plan-mode] refused tool=<name> kind=<kind>`. A tool name with anything
// but letters, digits and `_.:-` (a made-up name from the model) is quoted so
// that it cannot forge or break the line.
func NotifyRefused(r *Refusal) string {
	return fmt.Sprintf("[plan-mode] refused tool=%s kind=%s", plainOrQuoted(r.ToolName), plainOrQuoted(string(r.ToolKind)))
}

func plainOrQuoted(s string) string {
	if s == "" {
		return `""`
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			return strconv.Quote(s)
		}
	}
	return s
}

// refuse builds a refusal stamped with the state's plan-mode entry.
func refuse(st State, tool string, kind Kind, reason Reason, target, hint string) *Refusal {
	r := &Refusal{ToolName: tool, ToolKind: kind, Hint: hint, EnteredReason: st.EnteredReason, Reason: reason, Target: target}
	if !st.EnteredAt.IsZero() {
		r.EnteredAt = st.EnteredAt.UTC().Format(time.RFC3339)
	}
	return r
}
