package acp_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// The `plan` checklist shows control and bidi characters escaped, as every
// question does: a right-to-left override in a step made agent-shell show
// "Greet \u202Eolleh" as "Greet hello" beside the approval.
func TestPlanEntriesAreEscaped(t *testing.T) {
	r := newRig(t, setup{script: `
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] Greet \u202Eolleh\n"}}
  - text: "Written."
`})
	r.mustPrompt(r.newSession().SessionId, "plan it")
	var entries []string
	for _, m := range r.wire.all() {
		p, _ := m["params"].(map[string]any)
		u, _ := p["update"].(map[string]any)
		if m["method"] != "session/update" || u["sessionUpdate"] != "plan" {
			continue
		}
		b, _ := json.Marshal(u["entries"])
		entries = append(entries, string(b))
	}
	if len(entries) == 0 {
		t.Fatal("no plan update")
	}
	for _, e := range entries {
		if strings.ContainsRune(e, '\u202E') || !strings.Contains(e, `Greet \\u202Eolleh`) {
			t.Errorf("plan entries %s: want the override escaped as \\u202E", e)
		}
	}
}
