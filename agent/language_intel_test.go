package agent

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
)

// TestTickRefusal: only errors block a tick; warnings are listed with
// them but never block alone.
func TestTickRefusal(t *testing.T) {
	errP := tools.CodeProblem{Path: "a.go", Line: 3, Severity: "error", Message: "undefined: x", Source: "compiler", Code: "UndeclaredName"}
	warn := tools.CodeProblem{Path: "a.go", Line: 5, Severity: "warning", Message: "unused parameter", Source: "unusedparams"}
	hint := tools.CodeProblem{Path: "a.go", Line: 6, Severity: "hint", Message: "could be simpler"}
	tests := []struct {
		name  string
		probs []tools.CodeProblem
		want  []string // "" = not refused
	}{
		{"nothing new", nil, nil},
		{"warnings only", []tools.CodeProblem{warn, hint}, nil},
		{"an error", []tools.CodeProblem{errP}, []string{"step not ticked", "a.go:3: error: undefined: x (compiler UndeclaredName)", "the user can still tick it by hand"}},
		{"an error and a warning", []tools.CodeProblem{warn, errP}, []string{"a.go:3: error", "warnings (not blocking):\na.go:5: warning: unused parameter (unusedparams)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tickRefusal(tc.probs)
			if (got == "") != (tc.want == nil) {
				t.Fatalf("tickRefusal = %q, want refused: %v", got, tc.want != nil)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("tickRefusal = %q, lacks %q", got, w)
				}
			}
			if strings.Contains(got, "hint") {
				t.Errorf("hints are not listed: %q", got)
			}
		})
	}
}

func TestCheckedSteps(t *testing.T) {
	plan := "---\ntitle: T\nstatus: approved\n---\n# Goal\nx\n\n## Steps\n- [x] one\n- [ ] two\n- [X] three\n"
	if n := checkedSteps(plan); n != 2 {
		t.Fatalf("checkedSteps = %d, want 2", n)
	}
}
