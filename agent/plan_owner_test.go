package agent

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/workspace"
)

// editingEditor applies text edits to the file's current text, as an
// editor applies a workspace/applyEdit to its buffer (a stale edit lands
// where its ranges say, whatever changed meanwhile), yielding in between so
// that concurrent writers interleave.
type editingEditor struct {
	memEditor
	fileMu sync.Mutex
	// corrupt lists every text written whose frontmatter status is not a
	// valid one (under fileMu).
	corrupt []string
}

func (e *editingEditor) Apply(ctx context.Context, req ApplyRequest) error {
	for _, c := range req.Changes {
		if c.Kind != workspace.ChangeEdit {
			return e.memEditor.Apply(ctx, req)
		}
	}
	runtime.Gosched()
	e.fileMu.Lock()
	defer e.fileMu.Unlock()
	for _, c := range req.Changes {
		b, err := os.ReadFile(c.Path.Abs)
		if err != nil {
			return err
		}
		text, err := workspace.ApplyEdits(string(b), c.Edits)
		if err != nil {
			return err
		}
		if err := os.WriteFile(c.Path.Abs, []byte(text), 0o644); err != nil {
			return err
		}
		if p, err := workspace.ParsePlan(text); err != nil || p.Meta == nil || !p.Meta.Status.Valid() {
			e.corrupt = append(e.corrupt, text)
		}
	}
	return nil
}

// TestPlanWritersInterleaved runs the plan's writers at once, many times:
// the builder ticking each step (each edit computed on the text before any
// tick, as a model reads once and edits several times), agentls setting the
// status (the last tick's trigger, the editor's report of it, and two
// status edits computed on the same stale text), and the editor's report
// itself. Every write goes through the plan's owner, so
// whatever the interleaving no text the editor writes has a broken status
// (a second diff laid on top of the first), and the plan ends with every
// step ticked and `status: implemented`.
func TestPlanWritersInterleaved(t *testing.T) {
	t.Parallel()
	const steps = 4
	var plan strings.Builder
	plan.WriteString("---\ntitle: Race\nstatus: approved\ncreated_at: 2026-01-02T03:04:05Z\n---\n# Goal\n\n## Steps\n")
	for i := 1; i <= steps; i++ {
		fmt.Fprintf(&plan, "- [ ] step %d\n", i)
	}
	start := plan.String()
	want := strings.Replace(strings.ReplaceAll(start, "- [ ]", "- [x]"), "status: approved", "status: implemented", 1)
	for round := 0; round < 10; round++ {
		ed := &editingEditor{}
		m, _ := newTestManager(t, noTurns, &ed.memEditor, nil)
		m.editor, m.applier = ed, ed
		abs := writePlan(t, m, "plans/race.plan", start)
		info, err := m.BuildPlan(context.Background(), "plans/race.plan")
		if err != nil {
			t.Fatal(err)
		}
		s, err := m.session(info.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.ws.Resolve("plans/race.plan")
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make(chan error, 3*steps+2)
		for i := 1; i <= steps; i++ {
			after := strings.Replace(start, fmt.Sprintf("- [ ] step %d", i), fmt.Sprintf("- [x] step %d", i), 1)
			c := workspace.Change{Kind: workspace.ChangeEdit, Path: p, Before: start, After: after,
				Edits: []workspace.TextEdit{tickEdit(start, i)}}
			wg.Add(3)
			go func() {
				defer wg.Done()
				e := &env{s: s, ctx: ctx}
				if err := e.Apply(ctx, "plan_edit", "edit plan", []workspace.Change{c}); err != nil {
					errs <- fmt.Errorf("tick: %w", err)
				}
			}()
			go func() {
				defer wg.Done()
				s.completePlan(ctx)
			}()
			go func() {
				defer wg.Done()
				m.PlanChanged(abs)
			}()
		}
		// agentls's status change, twice, each computed on the fully ticked
		// text with the status still approved (the stale read of issue 24).
		ticked := strings.ReplaceAll(start, "- [ ]", "- [x]")
		done := strings.Replace(ticked, "status: approved", "status: implemented", 1)
		off := strings.Index(ticked, "approv")
		status := workspace.Change{Kind: workspace.ChangeEdit, Path: p, Before: ticked, After: done,
			Edits: []workspace.TextEdit{{Range: workspace.Range{Start: workspace.PositionOf(ticked, off), End: workspace.PositionOf(ticked, off+len("approv"))}, NewText: "implement"}}}
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e := &env{s: s, system: true, ctx: ctx}
				if err := e.Apply(ctx, "agentls", "mark plan implemented", []workspace.Change{status}); err != nil {
					errs <- fmt.Errorf("status: %w", err)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		// The last tick's own trigger may have lost the race to a report
		// that read the plan before it: one more report settles it.
		m.PlanChanged(abs)
		if len(ed.corrupt) > 0 {
			t.Fatalf("round %d: the plan was written with a broken status:\n%s", round, ed.corrupt[0])
		}
		if got := readText(t, abs); got != want {
			t.Fatalf("round %d: the plan is\n%s\nwant\n%s", round, got, want)
		}
	}
}

// tickEdit is the edit ticking step i of text.
func tickEdit(text string, i int) workspace.TextEdit {
	off := strings.Index(text, fmt.Sprintf("- [ ] step %d", i)) + len("- [")
	return workspace.TextEdit{Range: workspace.Range{Start: workspace.PositionOf(text, off), End: workspace.PositionOf(text, off+1)}, NewText: "x"}
}
