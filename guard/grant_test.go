package guard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestGrant: a session holding a Grant (a sub-agent) may call only the
// granted tools, in every mode and at every layer; in plan mode it changes
// nothing, plans included; a nil grant changes nothing.
func TestGrant(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	explore := NewGrant("sub-agent explore-1 (abcd1234)", "read", "ls", "glob", "grep")
	build := NewGrant("sub-agent build-1 (abcd1234)", "read", "write", "edit", "run", "plan_edit")
	for _, c := range []struct {
		name       string
		mode       agentproto.Mode
		grant      *Grant
		tool, args string
		want       Reason // -1: allowed
	}{
		{"explore reads", agentproto.ModePlan, explore, "read", `{"path":"src/main.go"}`, -1},
		{"explore writes a plan", agentproto.ModePlan, explore, "write", `{"path":"plans/a.plan","content":"x"}`, ReasonNotGranted},
		{"explore writes in build mode", agentproto.ModeBuild, explore, "write", `{"path":"src/a.go","content":"x"}`, ReasonNotGranted},
		{"explore runs", agentproto.ModeBuild, explore, "run", `{"command":"true"}`, ReasonNotGranted},
		{"explore plan_write", agentproto.ModePlan, explore, "plan_write", `{"title":"t","content":"x"}`, ReasonNotGranted},
		{"build writes in build mode", agentproto.ModeBuild, build, "write", `{"path":"src/a.go","content":"x"}`, -1},
		{"build writes in plan mode", agentproto.ModePlan, build, "write", `{"path":"src/a.go","content":"x"}`, ReasonPlanMode},
		{"build writes a plan in plan mode", agentproto.ModePlan, build, "write", `{"path":"plans/a.plan","content":"x"}`, ReasonPlanMode},
		{"build ticks the plan in plan mode", agentproto.ModePlan, build, "plan_edit", `{"path":"plans/a.plan","old_string":"- [ ]","new_string":"- [x]"}`, ReasonPlanMode},
		{"build runs in plan mode", agentproto.ModePlan, build, "run", `{"command":"true"}`, ReasonPlanMode},
		{"build moves (not granted)", agentproto.ModeBuild, build, "mv", `{"from":"a","to":"b"}`, ReasonNotGranted},
		{"nil grant writes a plan in plan mode", agentproto.ModePlan, nil, "write", `{"path":"plans/a.plan","content":"x"}`, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := stateOf(c.mode)
			st.Grant = c.grant
			r := sb.g.CheckCall(st, c.tool, json.RawMessage(c.args))
			switch {
			case c.want < 0 && r != nil:
				t.Fatalf("refused: %v", r)
			case c.want >= 0 && (r == nil || r.Reason != c.want):
				t.Fatalf("CheckCall = %+v, want reason %d", r, c.want)
			}
			if r != nil && r.Reason == ReasonNotGranted && !strings.Contains(r.Error(), "is not given this tool") {
				t.Errorf("message %q", r.Error())
			}
		})
	}
	st := stateOf(agentproto.ModePlan)
	st.Grant = build
	if r := sb.g.CheckOps(st, "write", []Op{{Kind: cEdit, Path: sb.expand("$WS/plans/a.plan")}}); r == nil {
		t.Error("layer 2 let a sub-agent write a plan in plan mode")
	}
	st.Mode = agentproto.ModeBuild
	if r := sb.g.CheckOps(st, "mv", []Op{{Kind: cEdit, Path: sb.expand("$WS/src/main.go")}}); r == nil || r.Reason != ReasonNotGranted {
		t.Errorf("layer 2 let an ungranted tool's change through: %+v", r)
	}
}
