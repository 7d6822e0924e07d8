package guard

import (
	"fmt"
	"strings"
)

// Class says whether a tool can change the workspace.
type Class int

// The classes of tools.
const (
	// ClassReadOnly tools never change the workspace; allowed in every mode.
	ClassReadOnly Class = iota
	// ClassMutating tools change the workspace; in plan mode only the
	// file tools, and only on `.plan` files or inside the plans folder.
	ClassMutating
	// ClassPlanMutating tools change plan documents only; in plan mode
	// allowed on `.plan` targets.
	ClassPlanMutating
)

// String names the class.
func (c Class) String() string {
	switch c {
	case ClassReadOnly:
		return "read_only"
	case ClassMutating:
		return "mutating"
	case ClassPlanMutating:
		return "plan_mutating"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Kind is what a tool does, as reported in a refusal's tool_kind and in the
// `[plan-mode] refused` notify line.
type Kind string

// The kinds of tools.
const (
	KindFileEdit Kind = "file_edit"
	KindMove     Kind = "move"
	KindDelete   Kind = "delete"
	KindMkdir    Kind = "mkdir"
	KindExecute  Kind = "execute"
	KindOther    Kind = "other"
	KindReadOnly Kind = "read_only"
)

// ToolClass is the classification of one tool.
type ToolClass struct {
	Class Class
	Kind  Kind
}

// tools is the classification of every tool of DESIGN.md §Tools. A tool that
// is not here is refused in every mode.
var tools = map[string]ToolClass{
	"read":            {ClassReadOnly, KindReadOnly},
	"ls":              {ClassReadOnly, KindReadOnly},
	"glob":            {ClassReadOnly, KindReadOnly},
	"grep":            {ClassReadOnly, KindReadOnly},
	"ask_user":        {ClassReadOnly, KindReadOnly},
	"enter_plan_mode": {ClassReadOnly, KindReadOnly},
	"exit_plan_mode":  {ClassReadOnly, KindReadOnly},
	"plan_read":       {ClassReadOnly, KindReadOnly},
	"plan_list":       {ClassReadOnly, KindReadOnly},
	"write":           {ClassMutating, KindFileEdit},
	"edit":            {ClassMutating, KindFileEdit},
	"touch":           {ClassMutating, KindFileEdit},
	"mv":              {ClassMutating, KindMove},
	"rm":              {ClassMutating, KindDelete},
	"mkdir":           {ClassMutating, KindMkdir},
	"run":             {ClassMutating, KindExecute},
	"plan_write":      {ClassPlanMutating, KindFileEdit},
	"plan_edit":       {ClassPlanMutating, KindFileEdit},
}

// Classify returns the classification of a tool by its exact, model-facing
// name, and false for a tool the guard does not know.
func Classify(tool string) (ToolClass, bool) {
	tc, ok := tools[tool]
	return tc, ok
}

// CheckRegistry returns an error naming every tool that Classify does not
// know (each once, in the given order), or nil. The agent calls it at
// start-up with the names of every registered tool.
func CheckRegistry(toolNames []string) error {
	var missing []string
	seen := map[string]bool{}
	for _, n := range toolNames {
		if _, ok := tools[n]; ok || seen[n] {
			continue
		}
		seen[n] = true
		missing = append(missing, fmt.Sprintf("%q", n))
	}
	if len(missing) > 0 {
		return fmt.Errorf("guard: %d unclassified tool(s), classify each in guard before registering it: %s",
			len(missing), strings.Join(missing, ", "))
	}
	return nil
}
