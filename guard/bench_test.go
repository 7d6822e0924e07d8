package guard

import (
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// BenchmarkCheckCall measures layer 1 on the default sandbox: a plan-mode
// write of a plan in an existing folder and in a new folder inside plans/
// (the parent check), a build-mode write, and a build-mode rm -r of a
// folder (the walk for protected names below it).
func BenchmarkCheckCall(b *testing.B) {
	sb := newSandbox(b, setupDefault)
	cases := []struct {
		name, tool string
		mode       agentproto.Mode
		args       string
	}{
		{"plan-write-plan", "write", agentproto.ModePlan, `{"path":"plans/new.plan","content":"x"}`},
		{"plan-write-new-folder", "write", agentproto.ModePlan, `{"path":"plans/a/b/new.plan","content":"x"}`},
		{"build-write", "write", agentproto.ModeBuild, `{"path":"src/main.go","content":"x"}`},
		{"build-rm-folder", "rm", agentproto.ModeBuild, `{"path":"src","recursive":true}`},
		{"build-read", "read", agentproto.ModeBuild, `{"path":"src/main.go"}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			args := json.RawMessage(c.args)
			for b.Loop() {
				if r := sb.g.CheckCall(stateOf(c.mode), c.tool, args); r != nil {
					b.Fatal(r)
				}
			}
		})
	}
}
