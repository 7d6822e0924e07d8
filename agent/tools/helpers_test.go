package tools

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentls/agentls/guard"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name string
		args string
		want string // "" = no error
	}{
		{name: "empty", args: ``},
		{name: "null", args: `null`},
		{name: "object", args: `{"path":"a","depth":2}`},
		{name: "wrong type", args: `{"path":3}`, want: "invalid arguments: path must be a string, not a JSON number"},
		{name: "wrong nested type", args: `{"steps":[{"action":1}]}`, want: "invalid arguments: steps.action must be a string, not a JSON number"},
		{name: "string for an integer", args: `{"depth":"two"}`, want: "invalid arguments: depth must be an integer, not a JSON string"},
		{name: "unknown field", args: `{"file_path":"a"}`, want: `invalid arguments: unknown field "file_path"`},
		{name: "not an object", args: `[1]`, want: "invalid arguments"},
		{name: "trailing data", args: `{} {}`, want: "more than one JSON value"},
		{name: "broken", args: `{"path":`, want: "invalid arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var into struct {
				Path  string          `json:"path"`
				Depth int             `json:"depth"`
				Steps []PlanStepInput `json:"steps"`
			}
			err := parseArgs([]byte(tt.args), &into)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestApplyCancelledIsAGoError(t *testing.T) {
	env := newFake(t, map[string]string{"a.go": "package a\n"})
	env.applyErr = context.Canceled
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := WriteTool{}.Run(ctx, env, []byte(`{"path":"a.go","content":"x"}`))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestPlansDirOutsideTheWorkspace(t *testing.T) {
	env := newFake(t, nil)
	env.cfg.PlanMode.PlansDir = "../elsewhere"
	env.g = guard.New(env.ws, "../elsewhere", declared(t))
	wantFail(t, call(t, seeded(1), env, `{"title":"T","content":"x"}`), "plans folder", "outside the workspace")
	wantFail(t, call(t, PlanListTool{}, env, `{}`), "outside the workspace")
}
