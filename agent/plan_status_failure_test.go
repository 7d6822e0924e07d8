package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// statusRefusingEditor is a memEditor that fails every change of a plan's
// status (an editor that refused the edit, a full disk).
type statusRefusingEditor struct{ *memEditor }

func (e statusRefusingEditor) Apply(ctx context.Context, req ApplyRequest) error {
	if strings.Contains(req.Label, "mark plan") {
		return errors.New("disk full")
	}
	return e.memEditor.Apply(ctx, req)
}

// TestPlanStatusFailureIsShown: when the plan's status cannot be written as
// the user switches to build (markForBuild), the user is told — the plan
// still says draft while the session builds — not only the log.
func TestPlanStatusFailureIsShown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	script := `
name: x
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: "# Goal\nx\n\n## Steps\n- [ ] One\n"}}
  - text: planned
`
	ed := &memEditor{}
	m, _ := newTestManagerOf(t, script, ed, statusRefusingEditor{ed}, nil)
	s := newTestSession(t, m, "plan")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "plan it"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.SetMode(ctx, s.ID(), "build"); err != nil {
		t.Fatal(err)
	}
	ed.mu.Lock()
	notes := strings.Join(ed.notes, "\n")
	ed.mu.Unlock()
	if !strings.Contains(notes, "could not mark plan=plans/t.plan approved") || !strings.Contains(notes, "disk full") {
		t.Fatalf("the user was not told the plan's status could not be written; notes:\n%s", notes)
	}
}
