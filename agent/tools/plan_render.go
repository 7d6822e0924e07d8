package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentls/agentls/workspace"
)

// PlanStepInput is one step of a structured plan given to plan_write.
// StepNumber is accepted for models that number their steps; the steps are
// rendered in the order given.
type PlanStepInput struct {
	StepNumber    int      `json:"step_number,omitempty" minimum:"0"`
	Action        string   `json:"action" description:"One verifiable action."`
	Reason        string   `json:"reason,omitempty"`
	ToolsNeeded   []string `json:"tools_needed,omitempty"`
	EstimatedTime string   `json:"estimated_time,omitempty"`
}

// structuredPlan is the structured form of plan_write.
type structuredPlan struct {
	Goal               string
	Steps              []PlanStepInput
	EstimatedTotalTime string
	Risks              []string
	Prerequisites      []string
}

// validate checks that the plan has a goal and at least one step, each with
// an action, no two the same (as the plan linter compares steps).
func (s structuredPlan) validate() error {
	var problems []string
	if strings.TrimSpace(s.Goal) == "" {
		problems = append(problems, "goal is required")
	}
	if len(s.Steps) == 0 {
		problems = append(problems, "steps needs at least one step")
	}
	first := map[string]int{} // workspace.StepKey of the action → its step index
	for i, st := range s.Steps {
		action := workspace.StepKey(st.Action)
		if action == "" {
			problems = append(problems, fmt.Sprintf("steps[%d].action is required", i))
			continue
		}
		if j, dup := first[action]; dup {
			problems = append(problems, fmt.Sprintf("steps[%d].action repeats steps[%d]; merge them or say what differs", i, j))
			continue
		}
		first[action] = i
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// render writes the plan body in the markdown plan format: # Goal (with the
// estimated total time), ## Steps as checkboxes with their details as
// sub-bullets, ## Risks, ## Prerequisites.
func (s structuredPlan) render() string {
	var b strings.Builder
	b.WriteString("# Goal\n\n")
	b.WriteString(strings.TrimSpace(s.Goal))
	if t := oneLine(s.EstimatedTotalTime); t != "" {
		fmt.Fprintf(&b, "\n\nEstimated total time: %s", t)
	}
	b.WriteString("\n\n## Steps\n\n")
	for _, st := range s.Steps {
		fmt.Fprintf(&b, "- [ ] %s\n", oneLine(st.Action))
		if r := oneLine(st.Reason); r != "" {
			fmt.Fprintf(&b, "  - Reason: %s\n", r)
		}
		var tools []string
		for _, t := range st.ToolsNeeded {
			if t = oneLine(t); t != "" {
				tools = append(tools, t)
			}
		}
		if len(tools) > 0 {
			fmt.Fprintf(&b, "  - Tools: %s\n", strings.Join(tools, ", "))
		}
		if t := oneLine(st.EstimatedTime); t != "" {
			fmt.Fprintf(&b, "  - Estimated time: %s\n", t)
		}
	}
	writeList(&b, "Risks", s.Risks)
	writeList(&b, "Prerequisites", s.Prerequisites)
	return b.String()
}

// writeList writes a "## heading" section of bullets, if any item is not blank.
func writeList(b *strings.Builder, heading string, items []string) {
	var lines []string
	for _, it := range items {
		if it = oneLine(it); it != "" {
			lines = append(lines, it)
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## %s\n\n", heading)
	for _, l := range lines {
		fmt.Fprintf(b, "- %s\n", l)
	}
}

// title derives a plan title from the goal: its first line, shortened.
func (s structuredPlan) title() string {
	t := oneLine(strings.SplitN(strings.TrimSpace(s.Goal), "\n", 2)[0])
	if r := []rune(t); len(r) > 80 {
		t = strings.TrimSpace(string(r[:79])) + "…"
	}
	return t
}

// oneLine folds whitespace (newlines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
