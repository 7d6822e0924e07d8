package tools

import (
	"reflect"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

func TestEnterPlanMode(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	var got EnterResult
	value(t, call(t, enterPlanModeTool, env, `{"reason":"  explore the auth flow "}`), &got)
	if !got.EnteredPlanMode || got.AlreadyInPlanMode || got.Reason != "explore the auth flow" {
		t.Errorf("result = %+v", got)
	}
	if env.State().Mode != agentproto.ModePlan || !reflect.DeepEqual(env.entered, []string{"explore the auth flow"}) {
		t.Errorf("mode = %s, entered = %q", env.State().Mode, env.entered)
	}
	value(t, call(t, enterPlanModeTool, env, `{}`), &got)
	if !got.AlreadyInPlanMode {
		t.Errorf("second call: %+v, want already_in_plan_mode", got)
	}
	wantFail(t, call(t, enterPlanModeTool, env, `{"why":"x"}`), "invalid arguments")
}

func TestExitPlanMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      string
		want      exitCall
		wantError []string
	}{
		{name: "path only", args: `{"plan_file_path":"plans/a.plan"}`, want: exitCall{path: "plans/a.plan"}},
		{
			name: "allowed commands trimmed", args: `{"plan_file_path":"plans/a.plan","allowed_commands":[" go test ./... ","","git status"]}`,
			want: exitCall{path: "plans/a.plan", allowed: []string{"go test ./...", "git status"}},
		},
		{name: "no path", args: `{"allowed_commands":["make"]}`, wantError: []string{"plan_file_path is required"}},
		{name: "bad commands", args: `{"plan_file_path":"plans/a.plan","allowed_commands":"make"}`, wantError: []string{"invalid arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, nil)
			env.exitResult = OK(ExitResult{ExitedPlanMode: true, Approved: true, PlanFile: "plans/a.plan"})
			r := call(t, exitPlanModeTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				if len(env.exits) != 0 {
					t.Errorf("ExitPlanMode called: %+v", env.exits)
				}
				return
			}
			if !reflect.DeepEqual(r, env.exitResult) {
				t.Errorf("result = %+v, want the env's %+v", r, env.exitResult)
			}
			if !reflect.DeepEqual(env.exits, []exitCall{tt.want}) {
				t.Errorf("ExitPlanMode calls = %+v, want %+v", env.exits, tt.want)
			}
		})
	}
}
