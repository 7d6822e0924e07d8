package tools

import (
	"os"
	"testing"
)

// TestPlanByNameFollowsTheListingRule: a plan looked up by name is one the
// listing shows; a `.plan` name that is a symlink (to a source file, to
// another plan) is not found, directly in the plans folder or below it.
func TestPlanByNameFollowsTheListingRule(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{
		"src/main.go":           "package main\n",
		"plans/real.plan":       "---\ntitle: Real\nstatus: draft\n---\n- [ ] a\n",
		"plans/sub/nested.plan": "---\ntitle: Nested\nstatus: draft\n---\n- [ ] a\n",
	})
	for link, target := range map[string]string{
		"plans/to-source.plan":  "../src/main.go",
		"plans/to-real.plan":    "real.plan",
		"plans/sub/deep.plan":   "../../src/main.go",
		"plans/sub/linked.plan": "nested.plan",
	} {
		if err := os.Symlink(target, env.path(link)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		want    string   // the path plan_read reports; "" when it must fail
		failHas []string // fragments of the failure
	}{
		{"real", "plans/real.plan", nil},
		{"nested", "plans/sub/nested.plan", nil},
		{"sub/nested", "plans/sub/nested.plan", nil},
		{"to-source", "", []string{`no plan named "to-source"`}},
		{"to-real.plan", "", []string{`no plan named "to-real"`}},
		{"deep", "", []string{`no plan named "deep"`}},
		{"sub/linked", "", []string{"no plan sub/linked.plan"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, planReadTool, env, `{"name":"`+tt.name+`"}`)
			if tt.want == "" {
				wantFail(t, r, tt.failHas...)
				return
			}
			var out struct{ Path string }
			if value(t, r, &out); out.Path != tt.want {
				t.Fatalf("plan_read %s read %s, want %s", tt.name, out.Path, tt.want)
			}
		})
	}
}
