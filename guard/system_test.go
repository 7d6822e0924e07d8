package guard

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestSystemActor: agentls's own plan status changes are checked as
// SystemActor under SystemState, at both layers: a plan document may
// change (a plan another session builds too), nothing else may, in any
// mode; and no session can borrow the identity.
func TestSystemActor(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	system := SystemState()
	locked := SystemState()
	locked.Plans = sandboxLocks // a caller that handed over the locks: SystemState has none
	build := stateOf(agentproto.ModeBuild)
	build.Session = "a-session"
	tests := []struct {
		name    string
		st      State
		tool    string
		path    string
		allowed bool
		reason  Reason
	}{
		{"a plan's status", system, SystemActor, "plans/existing.plan", true, 0},
		{"a plan by absolute path", system, SystemActor, "$WS/plans/existing.plan", true, 0},
		{"a plan outside the plans folder", system, SystemActor, "src/plans/existing.plan", true, 0},
		{"a source file", system, SystemActor, "src/main.go", false, ReasonPlanMode},
		{"a .plan symlink to a source file", system, SystemActor, "plans/to-src.plan", false, ReasonPlanMode},
		{"inside .git", system, SystemActor, ".git/config", false, ReasonProtected},
		{"inside .agentls", system, SystemActor, ".agentls/x.plan", false, ReasonAgentState},
		{"a session borrows the name", build, SystemActor, "plans/existing.plan", false, ReasonUnclassified},
		{"the system state with a session's tool", system, "write", "src/main.go", false, ReasonPlanMode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops := []Op{{Kind: cEdit, Path: sb.expand(tt.path)}}
			layer2 := sb.g.CheckOps(tt.st, tt.tool, ops)
			layer1 := sb.g.CheckCall(tt.st, tt.tool, []byte(`{"path":"`+sb.expand(tt.path)+`"}`))
			for layer, r := range map[string]*Refusal{"CheckOps": layer2, "CheckCall": layer1} {
				if tt.allowed {
					if r != nil {
						t.Fatalf("%s refused: %v (%s)", layer, r, r.Hint)
					}
					continue
				}
				if r == nil {
					t.Fatalf("%s allowed it", layer)
				}
				if r.Reason != tt.reason || r.ToolName != tt.tool {
					t.Fatalf("%s refusal = reason %d tool %q, want reason %d tool %q (%s)", layer, r.Reason, r.ToolName, tt.reason, tt.tool, r.Hint)
				}
			}
		})
	}
	// A state carrying plan locks is no longer SystemState: the lock holds.
	if r := sb.g.CheckOps(locked, SystemActor, []Op{{Kind: cEdit, Path: sb.expand("plans/existing.plan")}}); r == nil || r.Reason != ReasonPlanBuilt {
		t.Fatalf("SystemActor with plan locks = %v, want ReasonPlanBuilt", r)
	}
}

// TestSystemActorIsNoToolName: no tool can be registered as SystemActor.
func TestSystemActorIsNoToolName(t *testing.T) {
	d := systemDecl
	if err := d.Check(); err != nil {
		t.Fatalf("systemDecl: %v", err)
	}
	if _, err := NewTools(d); err == nil || !strings.Contains(err.Error(), "SystemActor") {
		t.Fatalf("NewTools with a tool named %q: %v", SystemActor, err)
	}
	if _, ok := declaredTools.Lookup(SystemActor); ok {
		t.Fatal("the declared tools hold SystemActor")
	}
	if st := SystemState(); st.Mode != agentproto.ModePlan || st.Session != SystemActor || st.Plans != nil {
		t.Fatalf("SystemState() = %+v", st)
	}
}

// FuzzSystemActor: whatever operation SystemActor's change carries and
// whatever paths, what the guard allows it keeps to plan mode's promise in
// the real sandbox (only plan documents change), as FuzzCheckOps checks for
// a session in plan mode; a refusal names the system.
func FuzzSystemActor(f *testing.F) {
	for _, row := range opTable {
		for _, op := range row.ops {
			if i := fuzzOpKindIndex(op); i >= 0 {
				f.Add(uint8(i), op.Path, op.From)
			}
		}
	}
	f.Fuzz(func(t *testing.T, kindIdx uint8, path, from string) {
		sb, release := sharedSandbox(t)
		defer release()
		k := fuzzOpKinds[int(kindIdx)%len(fuzzOpKinds)]
		op := Op{Kind: k.kind.Kind, Path: sb.expand(path)}
		if op.Kind == cRename {
			op.From = sb.expand(from)
		}
		if r := sb.g.CheckOps(SystemState(), SystemActor, []Op{op}); r != nil {
			if r.ToolName != SystemActor || r.Hint == "" && r.Reason != ReasonPlanBuilt {
				t.Fatalf("malformed refusal %+v", r)
			}
			return
		}
		names := []string{op.Path}
		if op.Kind == cRename {
			names = []string{op.From, op.Path}
		}
		what := map[string]string{"edit": "plan-file-content", "write": "plan-file-content", "mv": "plan-file", "rm": "rm", "mkdir": "mkdir"}[k.disk]
		for _, n := range names {
			oracleTarget(t, sb, what, n)
		}
		before := snapshot(t, sb.dir)
		applyPhysically(t, sb, k.disk, names...)
		checkTreeDiff(t, before, snapshot(t, sb.dir), k.disk, true, string(op.Kind)+" "+op.From+" "+op.Path)
	})
}
