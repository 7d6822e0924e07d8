package tools

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/agentls/agentls/guard"
)

func TestApplyCancelledIsAGoError(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{"a.go": "package a\n"})
	env.applyErr = context.Canceled
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := writeTool.Run(ctx, env, []byte(`{"path":"a.go","content":"x"}`))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestPlansDirOutsideTheWorkspace(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	env.cfg.PlanMode.PlansDir = "../elsewhere"
	env.g = guard.New(env.ws, "../elsewhere", declared(t))
	wantFail(t, call(t, seeded(1), env, `{"title":"T","content":"x"}`), "plans folder", "outside the workspace")
	wantFail(t, call(t, planListTool, env, `{}`), "outside the workspace")
}

// TestCapped: at most n items are kept, in order, and cut says whether
// any was left out.
func TestCapped(t *testing.T) {
	for _, tc := range []struct {
		items []int
		n     int
		want  []int
		cut   bool
	}{
		{nil, 2, nil, false},
		{[]int{1, 2}, 2, []int{1, 2}, false},
		{[]int{1, 2, 3}, 2, []int{1, 2}, true},
		{[]int{1}, 0, []int{}, true},
	} {
		got, cut := capped(tc.items, tc.n)
		if !slices.Equal(got, tc.want) || cut != tc.cut {
			t.Errorf("capped(%v, %d) = %v, %v; want %v, %v", tc.items, tc.n, got, cut, tc.want, tc.cut)
		}
	}
}
