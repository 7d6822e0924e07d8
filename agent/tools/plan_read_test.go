package tools

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/workspace"
)

const samplePlan = "---\ntitle: Auth\nstatus: approved\ncreated_at: 2025-01-15T10:30:00Z\n---\n# Goal\n\n## Steps\n\n- [x] Add middleware\n- [ ] Add route\n"

var planFiles = map[string]string{
	"plans/calm-forest-symphony.plan": samplePlan,
	"plans/old/legacy.plan":           "# Legacy plan\n\n- [ ] only step\n",
	"plans/dup/twin.plan":             samplePlan,
	"plans/other/twin.plan":           samplePlan,
	"notes.md":                        "# not a plan\n",
}

func TestPlanRead(t *testing.T) {
	t.Parallel()
	authMeta := &PlanMetadata{Title: "Auth", Status: "approved", CreatedAt: "2025-01-15T10:30:00Z"}
	authSteps := []PlanStepOut{{Line: 10, Text: "Add middleware", Done: true}, {Line: 11, Text: "Add route"}}
	tests := []struct {
		name      string
		attached  string
		args      string
		path      string
		meta      *PlanMetadata
		steps     []PlanStepOut
		done      int
		window    [2]int // start_line, end_line
		wantError []string
	}{
		{name: "by path", args: `{"path":"plans/calm-forest-symphony.plan"}`, path: "plans/calm-forest-symphony.plan", meta: authMeta, steps: authSteps, done: 1, window: [2]int{1, 11}},
		{name: "by name", args: `{"name":"calm-forest-symphony"}`, path: "plans/calm-forest-symphony.plan", meta: authMeta, steps: authSteps, done: 1, window: [2]int{1, 11}},
		{name: "by file name", args: `{"name":"calm-forest-symphony.plan","offset":6,"limit":2}`, path: "plans/calm-forest-symphony.plan", meta: authMeta, steps: authSteps, done: 1, window: [2]int{6, 7}},
		{name: "by name in a subfolder", args: `{"name":"legacy"}`, path: "plans/old/legacy.plan", steps: []PlanStepOut{{Line: 3, Text: "only step"}}, window: [2]int{1, 3}},
		{name: "attached plan", attached: "plans/calm-forest-symphony.plan", args: `{}`, path: "plans/calm-forest-symphony.plan", meta: authMeta, steps: authSteps, done: 1, window: [2]int{1, 11}},
		{name: "legacy plan has null metadata", args: `{"path":"plans/old/legacy.plan"}`, path: "plans/old/legacy.plan", steps: []PlanStepOut{{Line: 3, Text: "only step"}}, window: [2]int{1, 3}},
		{name: "nothing attached", args: `{}`, wantError: []string{"no plan is attached"}},
		{name: "ambiguous name", args: `{"name":"twin"}`, wantError: []string{"2 plans are named", "plans/dup/twin.plan", "plans/other/twin.plan"}},
		{name: "unknown name", args: `{"name":"brave-mountain-voyage"}`, wantError: []string{`no plan named "brave-mountain-voyage"`}},
		{name: "path and name", args: `{"path":"plans/a.plan","name":"a"}`, wantError: []string{"not both"}},
		{name: "not a plan", args: `{"path":"notes.md"}`, wantError: []string{"notes.md is not a .plan file", "read"}},
		{name: "missing plan", args: `{"path":"plans/gone.plan"}`, wantError: []string{"plans/gone.plan does not exist"}},
		{name: "outside", args: `{"path":"../x.plan"}`, wantError: []string{"outside the workspace"}},
		{name: "bad args", args: `{"name":7}`, wantError: []string{"invalid arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, planFiles)
			env.planFile = tt.attached
			r := call(t, planReadTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			var got PlanReadOutput
			value(t, r, &got)
			if got.Path != tt.path || !reflect.DeepEqual(got.Metadata, tt.meta) || !reflect.DeepEqual(got.Steps, tt.steps) ||
				got.StepsDone != tt.done || got.StepsTotal != len(tt.steps) || got.Attached != (tt.attached != "") {
				t.Errorf("got %+v (metadata %+v)", got, got.Metadata)
			}
			if got.StartLine != tt.window[0] || got.EndLine != tt.window[1] || got.Hash != workspace.Hash(env.file(tt.path)) {
				t.Errorf("window %d-%d hash %s, want %v", got.StartLine, got.EndLine, got.Hash, tt.window)
			}
			// The content is read's window of the file, as it is (a legacy
			// plan's included): same numbering, same lines.
			var want ReadOutput
			value(t, call(t, readTool, env, fmt.Sprintf(`{"path":%q,"offset":%d,"limit":%d}`, tt.path, tt.window[0], tt.window[1]-tt.window[0]+1)), &want)
			if got.ReadOutput != want {
				t.Errorf("window = %+v\nread gives %+v", got.ReadOutput, want)
			}
			if tt.meta == nil {
				if !strings.Contains(got.Content, "1\t# Legacy plan") || !strings.Contains(got.Content, "3\t- [ ] only step") {
					t.Errorf("legacy plan content = %q, want the file as it is", got.Content)
				}
				if m := wire(t, r)["result"].(map[string]any); m["metadata"] != nil {
					t.Errorf("legacy plan metadata on the wire = %v, want null", m["metadata"])
				}
			}
		})
	}
}

func TestBrokenFrontmatterCanBeReadAndRepaired(t *testing.T) {
	t.Parallel()
	broken := "---\ntitle: [unclosed\nstatus: draft\n---\n- [ ] step\n"
	env := newFake(t, map[string]string{"plans/b.plan": broken})
	r := call(t, planReadTool, env, `{"path":"plans/b.plan"}`)
	var got PlanReadOutput
	value(t, r, &got)
	if got.Metadata != nil || got.FrontmatterError == "" || got.StepsTotal != 1 {
		t.Errorf("got metadata %+v, frontmatter_error %q, %d steps", got.Metadata, got.FrontmatterError, got.StepsTotal)
	}
	var edited PlanEditOutput
	value(t, call(t, planEditTool, env, `{"path":"plans/b.plan","old_string":"title: [unclosed","new_string":"title: Fixed"}`), &edited)
	if edited.Metadata == nil || edited.Metadata.Title != "Fixed" {
		t.Errorf("repaired metadata = %+v", edited.Metadata)
	}
}
