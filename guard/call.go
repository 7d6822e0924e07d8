package guard

import (
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/workspace"
)

// CheckCall is layer 1: it decides, before a tool runs, whether the call may
// go ahead, from the tool's name and its raw JSON arguments; nil means
// allowed. In plan mode read-only tools are allowed; write, edit, touch,
// plan_write and plan_edit only on a `.plan` file (plan_write without a path
// names its file inside the plans folder itself); mv only from a `.plan` file
// to a `.plan` file; mkdir only at or below the plans folder; rm only of a
// `.plan` file or an empty folder inside it; everything else is refused. In
// build mode every classified tool is allowed. In every mode an unknown tool,
// and any change to agentls's own state folder `.agentls/`, is refused.
func (g *Guard) CheckCall(st State, tool string, args json.RawMessage) *Refusal {
	tc, ok := Classify(tool)
	if !ok {
		return g.unclassified(st, tool)
	}
	if tc.Class == ClassReadOnly {
		return nil
	}
	var change workspace.ChangeKind
	switch tc.Kind {
	case KindFileEdit:
		change = workspace.ChangeEdit
	case KindMove:
		change = workspace.ChangeRename
	case KindDelete:
		change = workspace.ChangeDelete
	case KindMkdir:
		change = workspace.ChangeMkdir
	default: // run, and any mutating tool without file targets
		if st.planMode() {
			return g.planRefusal(st, tool, tc.Kind, "", "")
		}
		return nil
	}
	a, err := parseArgs(args)
	if err != nil {
		return g.badTarget(st, tool, tc.Kind, "", err)
	}
	roles := []string{"path"}
	if change == workspace.ChangeRename {
		roles = []string{"from", "to"}
	}
	var targets []target
	for _, role := range roles {
		v, present, err := a.str(role)
		if err != nil {
			return g.badTarget(st, tool, tc.Kind, "", err)
		}
		if tool == "plan_write" && (!present || v == "") {
			continue // the tool names its file inside the plans folder
		}
		if !present {
			return g.badTarget(st, tool, tc.Kind, "", fmt.Errorf("argument %q is missing", role))
		}
		targets = append(targets, target{role: role, given: v})
	}
	return g.decide(st, tool, tc.Kind, change, targets)
}

// unclassified refuses a tool the guard does not know, in every mode.
func (g *Guard) unclassified(st State, tool string) *Refusal {
	detail := fmt.Sprintf("%q is not a classified tool", tool)
	if st.planMode() {
		return g.planRefusal(st, tool, KindOther, "", detail)
	}
	return refuse(st, tool, KindOther, ReasonUnclassified, "", detail+"; only classified tools may run")
}
