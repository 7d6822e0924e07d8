package guard

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// ParseMode parses "plan" or "build" (surrounding spaces and letter case are
// ignored).
func ParseMode(s string) (agentproto.Mode, error) {
	switch m := agentproto.Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case agentproto.ModePlan, agentproto.ModeBuild:
		return m, nil
	}
	return "", fmt.Errorf("parse mode %q: want %q or %q", s, agentproto.ModePlan, agentproto.ModeBuild)
}

// State is the session's mode as read at this instant (never cached per turn),
// with when and why plan mode was entered (for the refusal), and who acts.
type State struct {
	// Mode is plan (explore and write a plan) or build (carry it out); any
	// other value is treated as plan mode (fail closed).
	Mode          agentproto.Mode
	EnteredAt     time.Time
	EnteredReason string
	// Session is the id of the session whose call or change is checked.
	Session string
	// Plans lists the plans being built right now. A change to one of them
	// from any session but its builders is refused (ReasonPlanBuilt). It is
	// nil in SystemState: agentls's own status changes (approved,
	// implemented, archived), which no plan lock holds back.
	Plans PlanLocks
	// Grant, when set, is the only tools the session may call (a
	// sub-agent's kind); nil allows every declared tool.
	Grant *Grant
}

// planMode reports whether the guard applies the plan-mode rules: every mode
// but build does.
func (s State) planMode() bool { return s.Mode != agentproto.ModeBuild }
