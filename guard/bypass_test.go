package guard

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCheckCallBypassTable(t *testing.T) {
	sandboxes := sandboxCache(t)
	for _, row := range callTable {
		t.Run(row.name, func(t *testing.T) {
			sb := sandboxes(row.setup)
			r := sb.g.CheckCall(stateOf(row.mode), row.tool, json.RawMessage(sb.expand(row.args)))
			checkOutcome(t, r, row.want, row.tool, row.kind)
		})
	}
}

func TestCheckOpsBypassTable(t *testing.T) {
	sandboxes := sandboxCache(t)
	for _, row := range opTable {
		t.Run(row.name, func(t *testing.T) {
			sb := sandboxes(row.setup)
			ops := make([]Op, len(row.ops))
			for i, op := range row.ops {
				ops[i] = Op{Kind: op.Kind, Path: sb.expand(op.Path), From: sb.expand(op.From)}
			}
			r := sb.g.CheckOps(stateOf(row.mode), row.tool, ops)
			checkOutcome(t, r, row.want, row.tool, row.kind)
		})
	}
}

// sandboxCache shares one sandbox per setup between the rows of a test (the
// checks change nothing); they live as long as the parent test.
func sandboxCache(parent *testing.T) func(setup string) *sandbox {
	m := map[string]*sandbox{}
	return func(setup string) *sandbox {
		if m[setup] == nil {
			m[setup] = newSandbox(parent, setup)
		}
		return m[setup]
	}
}

// checkOutcome checks a refusal against a row: nil when allowed; else the
// tool, kind, reason, the error text, the hint and the plan-mode stamp.
func checkOutcome(t *testing.T, r *Refusal, want outcome, tool string, kind Kind) {
	t.Helper()
	if want == allowed {
		if r != nil {
			t.Fatalf("refused, want allowed: %v (hint: %s)", r, r.Hint)
		}
		return
	}
	if r == nil {
		t.Fatalf("allowed, want %v", want)
	}
	t.Logf("hint: %s", r.Hint)
	if r.ToolName != tool || r.ToolKind != kind || r.Reason != want.reason() {
		t.Fatalf("refusal {tool %q kind %q reason %d}, want {%q %q %d} (hint: %s)", r.ToolName, r.ToolKind, r.Reason, tool, kind, want.reason(), r.Hint)
	}
	if r.Hint == "" {
		t.Fatal("refusal without a hint")
	}
	if r.EnteredAt != "2025-01-15T10:30:00Z" || r.EnteredReason != "user" {
		t.Fatalf("refusal stamped %q %q", r.EnteredAt, r.EnteredReason)
	}
	var err error = r
	if !errors.As(err, new(*Refusal)) {
		t.Fatal("refusal is not an error")
	}
	switch want {
	case refPlan:
		if r.Error() != RefusalMessage {
			t.Fatalf("Error() = %q, want the plan-mode sentence", r.Error())
		}
		if !strings.Contains(r.Hint, "in plan mode") {
			t.Fatalf("hint does not say what plan mode allows: %s", r.Hint)
		}
	case refState:
		if !strings.Contains(r.Error(), "agentls's own state") || strings.Contains(r.Error(), "Plan Mode") {
			t.Fatalf("Error() = %q, want the state sentence", r.Error())
		}
		if !strings.Contains(r.Hint, ".agentls/") {
			t.Fatalf("hint does not name .agentls/: %s", r.Hint)
		}
	case refCfg:
		if !strings.Contains(r.Error(), "agentls's configuration") || !strings.Contains(r.Error(), "no tool may change in any mode") || strings.Contains(r.Error(), "Plan Mode") {
			t.Fatalf("Error() = %q, want the configuration sentence", r.Error())
		}
		if !strings.Contains(r.Hint, "by the user's hand") {
			t.Fatalf("hint does not say the user changes it: %s", r.Hint)
		}
	case refStateDir:
		if !strings.Contains(r.Error(), "agentls's state folder") || !strings.Contains(r.Error(), "no tool may change in any mode") || strings.Contains(r.Error(), "Plan Mode") {
			t.Fatalf("Error() = %q, want the state-folder sentence", r.Error())
		}
	case refNoRead:
		if !strings.Contains(r.Error(), "which no tool may read or change in any mode") || strings.Contains(r.Error(), "Plan Mode") {
			t.Fatalf("Error() = %q, want the no-read sentence", r.Error())
		}
	case refVCS:
		if !strings.Contains(r.Error(), "version-control folder") || !strings.Contains(r.Error(), "no tool may change in any mode") || strings.Contains(r.Error(), "Plan Mode") {
			t.Fatalf("Error() = %q, want the protected-folder sentence", r.Error())
		}
		if !strings.Contains(r.Hint, "through run") {
			t.Fatalf("hint does not say how git changes are made: %s", r.Hint)
		}
	default:
		if r.Error() == RefusalMessage || !strings.HasPrefix(r.Error(), tool+" refused") {
			t.Fatalf("Error() = %q", r.Error())
		}
	}
}

func TestBypassTablesAreBigEnough(t *testing.T) {
	if len(callTable) < 40 {
		t.Fatalf("%d call rows, want at least 40", len(callTable))
	}
	seen := map[string]bool{}
	for _, r := range callTable {
		if seen[r.name] {
			t.Errorf("duplicate row name %q", r.name)
		}
		seen[r.name] = true
		if (r.want == allowed) != (r.kind == "") {
			t.Errorf("row %q: kind %q with outcome %v", r.name, r.kind, r.want)
		}
	}
	seen = map[string]bool{}
	for _, r := range opTable {
		if seen[r.name] {
			t.Errorf("duplicate row name %q", r.name)
		}
		seen[r.name] = true
	}
}
