package tools

import (
	"context"
	"errors"
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
