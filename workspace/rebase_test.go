package workspace

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

func TestRebase(t *testing.T) {
	const plan = "---\ntitle: T\nstatus: approved\n---\n## Steps\n- [x] one\n- [ ] two\n"
	tick := strings.Replace(plan, "- [ ] two", "- [x] two", 1)
	implemented := strings.Replace(plan, "status: approved", "status: implemented", 1)
	both := strings.Replace(tick, "status: approved", "status: implemented", 1)
	tests := []struct {
		name                   string
		before, current, after string
		want                   string
		same                   bool
		conflict               bool
	}{
		{name: "nothing changed meanwhile", before: plan, current: plan, after: tick, want: tick},
		{name: "no change at all", before: plan, current: plan, after: plan, want: plan, same: true},
		{name: "the change is there already", before: plan, current: implemented, after: implemented, want: implemented, same: true},
		// The corruption of issue 24: the status set twice from the same
		// text gave "implementented"; the second is a no-op.
		{name: "status set twice from approved", before: tick, current: both, after: both, want: both, same: true},
		{name: "status meanwhile, tick now", before: plan, current: implemented, after: tick, want: both},
		{name: "tick meanwhile, status now", before: plan, current: tick, after: implemented, want: both},
		{name: "status to two values", before: plan, current: implemented,
			after: strings.Replace(plan, "approved", "archived", 1), conflict: true},
		{name: "touching regions", before: "abcd", current: "aXcd", after: "abYd", want: "aXYd"},
		{name: "same place, different text", before: "abcd", current: "aXcd", after: "aYcd", conflict: true},
		{name: "an insertion at the same place", before: "ab", current: "aXb", after: "aYb", conflict: true},
		{name: "two lines meanwhile, a third now", before: "1\n2\n3\n4\n", current: "one\n2\nthree\n4\n", after: "1\ntwo\n3\n4\n",
			want: "one\ntwo\nthree\n4\n"},
		{name: "a line added meanwhile", before: "1\n2\n3\n", current: "0\n1\n2\n3\n", after: "1\n2\nthree\n", want: "0\n1\n2\nthree\n"},
		{name: "separated regions", before: "abcde", current: "aXcde", after: "abcYe", want: "aXcYe"},
		{name: "crlf", before: "a\r\nb\r\nc\r\n", current: "A\r\nb\r\nc\r\n", after: "a\r\nb\r\nC\r\n", want: "A\r\nb\r\nC\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, same, err := Rebase("p.plan", tt.before, tt.current, tt.after)
			var ce *ConflictError
			if tt.conflict {
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), "p.plan") {
					t.Fatalf("Rebase = %q, %v; want a conflict naming p.plan", got, err)
				}
				return
			}
			if err != nil || got != tt.want || same != tt.same {
				t.Fatalf("Rebase = %q, same %v, %v; want %q, same %v", got, same, err, tt.want, tt.same)
			}
		})
	}
}

// FuzzRebasePlanWriters interleaves the plan's writers: each op is computed
// against some earlier text of the plan (a stale read) and carried onto the
// current one with Rebase, as the plan's owner does. Whatever the order,
// the frontmatter keeps a valid status, an op that applies has its effect,
// and a conflict leaves the text as it was.
func FuzzRebasePlanWriters(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 0})
	f.Add([]byte{3, 0, 4, 0, 3, 1, 4, 1})
	f.Add([]byte{1, 0, 1, 0, 1, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		const start = "---\ntitle: Fuzz\nstatus: approved   # a comment\ncreated_at: 2025-01-15T10:30:00Z\n---\n" +
			"# Goal\nx\n\n## Steps\n- [ ] one\n- [ ] two\n- [ ] three\n"
		history := []string{start}
		current := start
		statuses := []agentproto.PlanStatus{agentproto.PlanDraft, agentproto.PlanApproved, agentproto.PlanImplemented, agentproto.PlanArchived}
		for i := 0; i+1 < len(ops) && i < 40; i += 2 {
			op, pick := ops[i], int(ops[i+1])
			base := history[len(history)-1-pick%len(history)]
			var after string
			var check func(string) error
			switch op % 4 {
			case 0, 1: // the model or the user ticks a step
				n := int(op/4) % 3
				steps := []string{"one", "two", "three"}
				after = strings.Replace(base, "- [ ] "+steps[n], "- [x] "+steps[n], 1)
				check = func(s string) error {
					if !strings.Contains(s, "- [x] "+steps[n]) {
						return fmt.Errorf("step %s not ticked", steps[n])
					}
					return nil
				}
			case 2: // a status, from the model or the server
				st := statuses[int(op/4)%len(statuses)]
				var err error
				if after, err = SetPlanStatus(base, st); err != nil {
					t.Fatal(err)
				}
				check = func(s string) error {
					if p, err := ParsePlan(s); err != nil || p.Meta == nil || p.Meta.Status != st {
						return fmt.Errorf("status is not %s", st)
					}
					return nil
				}
			case 3: // the user types in the goal
				after = strings.Replace(base, "# Goal\n", "# Goal\n"+strings.Repeat("y", int(op/4)%3+1)+"\n", 1)
				check = func(string) error { return nil }
			}
			if after == base {
				continue // the writer found its change there already: nothing to carry
			}
			text, _, err := Rebase("f.plan", base, current, after)
			var ce *ConflictError
			switch {
			case errors.As(err, &ce):
				continue
			case err != nil:
				t.Fatal(err)
			}
			if err := check(text); err != nil {
				t.Fatalf("op %d on a text %d writes old: %v\n%s", op, pick%len(history), err, text)
			}
			current = text
			history = append(history, current)
			p, err := ParsePlan(current)
			if err != nil || p.Meta == nil || !p.Meta.Status.Valid() {
				t.Fatalf("the frontmatter broke: %v\n%s", err, current)
			}
			if len(p.Steps) != 3 {
				t.Fatalf("%d steps, want 3:\n%s", len(p.Steps), current)
			}
		}
	})
}
