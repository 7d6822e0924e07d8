package tools

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// oddFrontmatter is frontmatter written by hand: comments, extra keys, odd
// spacing and quoting, which plan_edit must keep byte for byte.
const oddFrontmatter = "---\ntitle:   \"Auth: the plan\"   # hand written\nstatus: draft\nowner: ana\ncreated_at: 2025-01-15T10:30:00Z\n---\n"

const oddPlan = oddFrontmatter + "# Goal\n\nAuth.\n\n## Steps\n\n- [ ] Add middleware\n- [ ] Add route\n"

func TestPlanEdit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       string
		mode       agentproto.Mode
		wantBody   string // the text after the frontmatter
		wantStatus string // "" keeps the frontmatter byte for byte
		wantError  []string
	}{
		{
			name: "tick a step", mode: agentproto.ModePlan,
			args:     `{"path":"plans/a.plan","old_string":"- [ ] Add middleware","new_string":"- [x] Add middleware"}`,
			wantBody: "# Goal\n\nAuth.\n\n## Steps\n\n- [x] Add middleware\n- [ ] Add route\n",
		},
		{
			name:     "insert a step",
			args:     `{"path":"plans/a.plan","insert_line":14,"insert_content":"- [ ] Write tests"}`,
			wantBody: "# Goal\n\nAuth.\n\n## Steps\n\n- [ ] Add middleware\n- [ ] Add route\n- [ ] Write tests\n",
		},
		{
			name:     "insert right after the frontmatter",
			args:     `{"path":"plans/a.plan","insert_line":6,"insert_content":"> reviewed"}`,
			wantBody: "> reviewed\n# Goal\n\nAuth.\n\n## Steps\n\n- [ ] Add middleware\n- [ ] Add route\n",
		},
		{
			name:       "edit and status",
			args:       `{"path":"plans/a.plan","old_string":"Auth.","new_string":"JWT auth.","status":"implemented"}`,
			wantBody:   "# Goal\n\nJWT auth.\n\n## Steps\n\n- [ ] Add middleware\n- [ ] Add route\n",
			wantStatus: "implemented",
		},
		{
			name: "status only", mode: agentproto.ModePlan,
			args:       `{"path":"plans/a.plan","status":"archived","last_read_hash":"` + workspace.Hash(oddPlan) + `"}`,
			wantBody:   "# Goal\n\nAuth.\n\n## Steps\n\n- [ ] Add middleware\n- [ ] Add route\n",
			wantStatus: "archived",
		},
		{name: "touches the frontmatter", args: `{"path":"plans/a.plan","old_string":"owner: ana","new_string":"owner: bob"}`, wantError: []string{"would change the frontmatter", "status"}},
		{name: "replace_all reaching the frontmatter", args: `{"path":"plans/a.plan","old_string":"Auth","new_string":"Login","replace_all":true}`, wantError: []string{"would change the frontmatter"}},
		{name: "insert inside the frontmatter", args: `{"path":"plans/a.plan","insert_line":2,"insert_content":"x: y"}`, wantError: []string{"would change the frontmatter"}},
		{name: "hash conflict", args: `{"path":"plans/a.plan","old_string":"Auth.","new_string":"x","last_read_hash":"ffffffffffffffff"}`, wantError: []string{"ffffffffffffffff"}},
		{name: "hash conflict on status only", args: `{"path":"plans/a.plan","status":"approved","last_read_hash":"ffffffffffffffff"}`, wantError: []string{"changed since you read it"}},
		{name: "multiple matches", args: `{"path":"plans/a.plan","old_string":"- [ ] Add","new_string":"- [x] Add"}`, wantError: []string{"occurs 2 times"}},
		{name: "bad status", args: `{"path":"plans/a.plan","status":"finished"}`, wantError: []string{`status "finished" is not valid`}},
		{name: "approved in plan mode", mode: agentproto.ModePlan, args: `{"path":"plans/a.plan","status":"approved"}`, wantError: []string{"status approved cannot be set in plan mode"}},
		{name: "implemented in plan mode", mode: agentproto.ModePlan, args: `{"path":"plans/a.plan","old_string":"Auth.","new_string":"x","status":"implemented"}`, wantError: []string{"status implemented cannot be set in plan mode"}},
		{name: "nothing to do", args: `{"path":"plans/a.plan"}`, wantError: []string{"nothing to do"}},
		{name: "not a plan", args: `{"path":"main.go","old_string":"package","new_string":"pkg"}`, wantError: []string{"main.go is not a .plan file"}},
		{name: "missing plan", args: `{"path":"plans/nope.plan","status":"draft"}`, wantError: []string{"plans/nope.plan does not exist"}},
		{name: "no path", args: `{"status":"draft"}`, wantError: []string{"path is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, map[string]string{"plans/a.plan": oddPlan, "main.go": "package main\n"})
			if tt.mode != "" {
				env.setMode(tt.mode)
			}
			r := call(t, planEditTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				if env.file("plans/a.plan") != oddPlan {
					t.Errorf("a failed plan_edit changed the plan")
				}
				return
			}
			var got PlanEditOutput
			value(t, r, &got)
			text := env.file("plans/a.plan")
			front := oddFrontmatter
			if tt.wantStatus != "" {
				front = strings.Replace(oddFrontmatter, "status: draft", "status: "+tt.wantStatus, 1)
				if got.Metadata == nil || got.Metadata.Status != tt.wantStatus {
					t.Errorf("metadata = %+v, want status %s", got.Metadata, tt.wantStatus)
				}
			}
			if text != front+tt.wantBody {
				t.Errorf("plan =\n%s\nwant\n%s", text, front+tt.wantBody)
			}
			if len(env.applied) != 1 || env.applied[0].tool != "plan_edit" || len(env.applied[0].changes) != 1 || env.applied[0].changes[0].After != text {
				t.Errorf("applied = %+v, want one plan_edit through Env.Apply", env.applied)
			}
			if got.Hash != workspace.Hash(text) || got.Path != "plans/a.plan" || env.written["plans/a.plan"] != text {
				t.Errorf("result = %+v; PlanWritten = %q", got, env.written["plans/a.plan"])
			}
		})
	}
}

func TestPlanEditLegacyPlan(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{"plans/old.plan": "# Old\n- [ ] step\n"})
	var got PlanEditOutput
	value(t, call(t, planEditTool, env, `{"path":"plans/old.plan","old_string":"[ ]","new_string":"[x]"}`), &got)
	if env.file("plans/old.plan") != "# Old\n- [x] step\n" || got.Metadata != nil {
		t.Errorf("plan = %q, metadata %+v", env.file("plans/old.plan"), got.Metadata)
	}
}
