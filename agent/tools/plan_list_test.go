package tools

import (
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"
)

func planText(title, status, created string, steps string) string {
	return "---\ntitle: " + title + "\nstatus: " + status + "\ncreated_at: " + created + "\n---\n# Goal\n\n" + steps
}

func TestPlanList(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"plans/a.plan":      planText("A", "draft", "2025-01-10T00:00:00Z", "- [x] one\n- [ ] two\n"),
		"plans/b.plan":      planText("B", "approved", "2025-01-12T00:00:00Z", "- [x] one\n"),
		"plans/sub/c.plan":  planText("C", "draft", "2025-01-11T00:00:00Z", ""),
		"plans/legacy.plan": "# Legacy\n- [ ] x\n",
		"plans/notes.md":    "not a plan\n",
		"elsewhere/d.plan":  planText("D", "draft", "2025-01-13T00:00:00Z", ""),
	}
	all := []PlanInfo{
		{Path: "plans/legacy.plan", Name: "legacy", StepsTotal: 1}, // modified 2025-01-14: newest; metadata null
		{Path: "plans/b.plan", Name: "b", Metadata: &PlanMetadata{Title: "B", Status: "approved", CreatedAt: "2025-01-12T00:00:00Z"}, StepsDone: 1, StepsTotal: 1},
		{Path: "plans/sub/c.plan", Name: "c", Metadata: &PlanMetadata{Title: "C", Status: "draft", CreatedAt: "2025-01-11T00:00:00Z"}},
		{Path: "plans/a.plan", Name: "a", Metadata: &PlanMetadata{Title: "A", Status: "draft", CreatedAt: "2025-01-10T00:00:00Z"}, StepsDone: 1, StepsTotal: 2},
	}
	tests := []struct {
		name      string
		args      string
		want      []PlanInfo
		total     int
		wantError []string
	}{
		{name: "all, newest first", args: `{}`, want: all, total: 4},
		{name: "limit", args: `{"limit":2}`, want: all[:2], total: 4},
		{name: "status", args: `{"status":"draft"}`, want: []PlanInfo{all[2], all[3]}, total: 2},
		{name: "status and limit", args: `{"status":"draft","limit":1}`, want: []PlanInfo{all[2]}, total: 2},
		{name: "no match", args: `{"status":"archived"}`, want: []PlanInfo{}, total: 0},
		{name: "bad status", args: `{"status":"old"}`, wantError: []string{`status "old" is not valid`}},
		{name: "negative limit", args: `{"limit":-1}`, wantError: []string{"limit must not be negative"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, files)
			legacy := time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC)
			if err := os.Chtimes(env.path("plans/legacy.plan"), legacy, legacy); err != nil {
				t.Fatal(err)
			}
			r := call(t, planListTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			var got PlanListOutput
			value(t, r, &got)
			if !reflect.DeepEqual(got.Plans, tt.want) || got.Total != tt.total {
				t.Errorf("plans = %+v (total %d)\nwant    %+v (total %d)", got.Plans, got.Total, tt.want, tt.total)
			}
		})
	}
}

func TestPlanListTiesAndEmpty(t *testing.T) {
	t.Parallel()
	same := planText("S", "draft", "2025-01-10T00:00:00Z", "")
	env := newFake(t, map[string]string{"plans/x.plan": same, "plans/y.plan": same})
	older := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(env.path("plans/y.plan"), older, older); err != nil {
		t.Fatal(err)
	}
	var got PlanListOutput
	value(t, call(t, planListTool, env, `{}`), &got)
	if len(got.Plans) != 2 || got.Plans[0].Path != "plans/x.plan" {
		t.Errorf("equal created_at must fall back to the newest modification: %+v", got.Plans)
	}

	empty := newFake(t, nil)
	value(t, call(t, planListTool, empty, `{}`), &got)
	if len(got.Plans) != 0 || got.Total != 0 {
		t.Errorf("no plans folder: %+v", got)
	}
}

// TestPlanListDefaultLimit: without limit, the 50 newest plans are listed;
// total still counts them all.
func TestPlanListDefaultLimit(t *testing.T) {
	t.Parallel()
	const n = defaultPlanListLimit + 5
	files := map[string]string{}
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		created := base.Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
		files[fmt.Sprintf("plans/p%02d.plan", i)] = planText(fmt.Sprintf("P%02d", i), "draft", created, "- [ ] x\n")
	}
	env := newFake(t, files)
	tests := []struct {
		args string
		want int
	}{
		{`{}`, defaultPlanListLimit},
		{`{"limit":0}`, defaultPlanListLimit},
		{`{"limit":3}`, 3},
		{`{"limit":1000}`, n},
	}
	for _, tt := range tests {
		var got PlanListOutput
		value(t, call(t, planListTool, env, tt.args), &got)
		if len(got.Plans) != tt.want || got.Total != n {
			t.Fatalf("%s: %d plans (total %d), want %d (total %d)", tt.args, len(got.Plans), got.Total, tt.want, n)
		}
		for i, p := range got.Plans {
			if want := fmt.Sprintf("plans/p%02d.plan", n-1-i); p.Path != want {
				t.Fatalf("%s: plan %d is %s, want %s (newest first)", tt.args, i, p.Path, want)
			}
		}
	}
}
