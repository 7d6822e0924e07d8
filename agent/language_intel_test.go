package agent

import (
	"testing"
)

func TestCheckedSteps(t *testing.T) {
	plan := "---\ntitle: T\nstatus: approved\n---\n# Goal\nx\n\n## Steps\n- [x] one\n- [ ] two\n- [X] three\n"
	if n := checkedSteps(plan); n != 2 {
		t.Fatalf("checkedSteps = %d, want 2", n)
	}
}
