package agent

import (
	"context"
	"errors"

	"github.com/agentls/agentls/agentproto"
)

// tickRefused is the error of a refused tick (Apply's error: the tool's
// failed result carries its text). The plan update sent right after
// carries r (docs/language-intel.md, "Step ticks"), so that every face
// shows it beside the step.
type tickRefused struct{ r agentproto.TickRefusal }

func (e tickRefused) Error() string { return e.r.Message }

// newlyTicked are the texts of the steps checked in after and not in
// before.
func newlyTicked(before, after string) []string {
	was := map[string]int{}
	for _, e := range planEntries(before) {
		if e.Status == "completed" {
			was[e.Content]++
		}
	}
	var out []string
	for _, e := range planEntries(after) {
		if e.Status != "completed" {
			continue
		}
		if was[e.Content] > 0 {
			was[e.Content]--
			continue
		}
		out = append(out, e.Content)
	}
	return out
}

// sendTickRefused tells the faces why a tick was refused: the plan update
// (the plan as it stands, its step still open) with the refusal, and one
// notify line a problem for plain editors' logs.
func (s *Session) sendTickRefused(ctx context.Context, err error) {
	var tr tickRefused
	if !errors.As(err, &tr) {
		return
	}
	root := s.rootSession()
	u, ok := root.planUpdate()
	if !ok {
		return
	}
	r := tr.r
	u.TickRefused = &r
	s.m.notes.Update(ctx, root.meta.ID, u)
}
