package guard

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/golden"
)

// testLocks is a fixed set of plans being built: plans/existing.plan by two
// build sessions.
type testLocks []BuiltPlan

func (l testLocks) BuiltPlans() []BuiltPlan { return l }

var sandboxLocks = testLocks{{Rel: "plans/existing.plan", Builders: []string{"builder-1", "builder-2"}}}

// The identities of the lock rows: a session building the plan, another
// session, and agentls itself.
const (
	asBuilder = "builder-1"
	asOther   = "other"
	asSystem  = SystemActor // SystemState: no plan locks
)

// lockState is the State of a lock row.
func lockState(mode agentproto.Mode, who string) State {
	if who == asSystem {
		return SystemState()
	}
	st := stateOf(mode)
	st.Session, st.Plans = who, sandboxLocks
	return st
}

// lockCallRow is one attempt at layer 1 on a plan another session builds
// (plans/existing.plan in the default sandbox).
type lockCallRow struct {
	name   string
	who    string
	mode   agentproto.Mode
	tool   string
	args   string
	locked bool // refused with ReasonPlanBuilt; else allowed
	kind   Kind
}

var lockCallTable = []lockCallRow{
	{"planner writes the built plan", asOther, plan, "write", `{"path":"plans/existing.plan","content":"x"}`, true, KindFileEdit},
	{"planner edits the built plan", asOther, plan, "edit", `{"path":"plans/existing.plan","old_string":"Goal","new_string":"Aim"}`, true, KindFileEdit},
	{"planner plan_edits the built plan", asOther, plan, "plan_edit", `{"path":"plans/existing.plan","old_string":"a","new_string":"b"}`, true, KindFileEdit},
	{"planner plan_writes onto the built plan", asOther, plan, "plan_write", `{"title":"T","content":"c","path":"plans/existing.plan"}`, true, KindFileEdit},
	{"planner touches the built plan", asOther, plan, "touch", `{"path":"plans/existing.plan"}`, true, KindFileEdit},
	{"planner edits it through a .plan symlink", asOther, plan, "edit", `{"path":"plans/to-plan.plan","old_string":"a","new_string":"b"}`, true, KindFileEdit},
	{"planner writes it by absolute path", asOther, plan, "write", `{"path":"$WS/plans/existing.plan","content":"x"}`, true, KindFileEdit},
	{"planner writes it by file URI", asOther, plan, "write", `{"path":"file://$WS/plans/existing.plan","content":"x"}`, true, KindFileEdit},
	{"planner writes it with dot segments", asOther, plan, "write", `{"path":"./plans//./existing.plan","content":"x"}`, true, KindFileEdit},
	{"planner moves it away", asOther, plan, "mv", `{"from":"plans/existing.plan","to":"plans/mine.plan"}`, true, KindMove},
	{"planner moves another plan over it", asOther, plan, "mv", `{"from":"plans/notes.plan","to":"plans/existing.plan"}`, true, KindMove},
	{"planner removes it", asOther, plan, "rm", `{"path":"plans/existing.plan"}`, true, KindDelete},
	{"another build session writes it", asOther, build, "write", `{"path":"plans/existing.plan","content":"x"}`, true, KindFileEdit},
	{"another build session removes plans/", asOther, build, "rm", `{"path":"plans","recursive":true}`, true, KindDelete},
	{"another build session moves plans/", asOther, build, "mv", `{"from":"plans","to":"old-plans"}`, true, KindMove},
	{"another build session moves it through a symlink", asOther, build, "mv", `{"from":"plans/to-plan.plan","to":"x.plan"}`, true, KindMove},
	{"the builder ticks a step", asBuilder, build, "plan_edit", `{"path":"plans/existing.plan","old_string":"- [ ]","new_string":"- [x]"}`, false, ""},
	{"a second builder writes it", "builder-2", build, "write", `{"path":"plans/existing.plan","content":"x"}`, false, ""},
	{"the builder edits source", asBuilder, build, "edit", `{"path":"src/main.go","old_string":"main","new_string":"x"}`, false, ""},
	{"another build session removes a folder without it", asOther, build, "rm", `{"path":"plans/sub","recursive":true}`, false, ""},
	{"planner writes another plan", asOther, plan, "write", `{"path":"plans/notes.plan","content":"x"}`, false, ""},
	{"planner writes a new plan", asOther, plan, "write", `{"path":"plans/new.plan","content":"x"}`, false, ""},
	{"planner reads the built plan", asOther, plan, "read", `{"path":"plans/existing.plan"}`, false, ""},
	{"agentls marks it (system identity)", asSystem, plan, SystemActor, `{"path":"plans/existing.plan"}`, false, ""},
}

// lockOpRow is one attempt at layer 2 on the plan another session builds.
type lockOpRow struct {
	name   string
	who    string
	mode   agentproto.Mode
	tool   string
	ops    []Op
	locked bool
	kind   Kind
}

var lockOpTable = []lockOpRow{
	{"planner's edit of the built plan", asOther, plan, "plan_edit", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, true, KindFileEdit},
	{"planner's edit by URI", asOther, plan, "edit", []Op{{Kind: cEdit, Path: "file://$WS/plans/existing.plan"}}, true, KindFileEdit},
	{"planner's create over it", asOther, plan, "write", []Op{{Kind: cCreate, Path: "$WS/plans/existing.plan"}}, true, KindFileEdit},
	{"planner's other plan, then the built plan", asOther, plan, "write", []Op{{Kind: cEdit, Path: "$WS/plans/notes.plan"}, {Kind: cEdit, Path: "plans/existing.plan"}}, true, KindFileEdit},
	{"planner's rename from it", asOther, plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/existing.plan", Path: "$WS/plans/r.plan"}}, true, KindMove},
	{"planner's rename onto it", asOther, plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/notes.plan", Path: "$WS/plans/existing.plan"}}, true, KindMove},
	{"planner's delete", asOther, plan, "rm", []Op{{Kind: cDelete, Path: "$WS/plans/existing.plan"}}, true, KindDelete},
	{"status change from the planner's session", asOther, plan, "exit_plan_mode", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, true, KindFileEdit},
	{"another build session deletes plans/", asOther, build, "rm", []Op{{Kind: cDelete, Path: "$WS/plans"}}, true, KindDelete},
	{"another build session's edit", asOther, build, "edit", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, true, KindFileEdit},
	{"the builder's edit", asBuilder, build, "plan_edit", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, false, ""},
	{"planner's edit of another plan", asOther, plan, "plan_edit", []Op{{Kind: cEdit, Path: "$WS/plans/notes.plan"}}, false, ""},
	{"agentls's status change (system identity)", asSystem, plan, SystemActor, []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, false, ""},
}

func TestPlanLockCallTable(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	for _, row := range lockCallTable {
		t.Run(row.name, func(t *testing.T) {
			r := sb.g.CheckCall(lockState(row.mode, row.who), row.tool, json.RawMessage(sb.expand(row.args)))
			checkLockOutcome(t, r, row.locked, row.tool, row.kind)
		})
	}
}

func TestPlanLockOpTable(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	for _, row := range lockOpTable {
		t.Run(row.name, func(t *testing.T) {
			ops := make([]Op, len(row.ops))
			for i, op := range row.ops {
				ops[i] = Op{Kind: op.Kind, Path: sb.expand(op.Path), From: sb.expand(op.From)}
			}
			r := sb.g.CheckOps(lockState(row.mode, row.who), row.tool, ops)
			checkLockOutcome(t, r, row.locked, row.tool, row.kind)
		})
	}
}

// checkLockOutcome: nil when allowed; else a ReasonPlanBuilt refusal whose
// Error() is the plan's own sentence (not the plan-mode one) and whose hint
// names the builders.
func checkLockOutcome(t *testing.T, r *Refusal, locked bool, tool string, kind Kind) {
	t.Helper()
	if !locked {
		if r != nil {
			t.Fatalf("refused, want allowed: %v (hint: %s)", r, r.Hint)
		}
		return
	}
	if r == nil {
		t.Fatal("allowed, want refused: the plan is being built by another session")
	}
	if r.Reason != ReasonPlanBuilt || r.ToolName != tool || r.ToolKind != kind {
		t.Fatalf("refusal {reason %d tool %q kind %q}, want {%d %q %q}: %v", r.Reason, r.ToolName, r.ToolKind, ReasonPlanBuilt, tool, kind, r)
	}
	const want = "plans/existing.plan is being built by another session; it can change only through that session or in the editor"
	if r.Error() != want {
		t.Fatalf("Error() = %q, want %q", r.Error(), want)
	}
	if !strings.Contains(r.Hint, "builder-1, builder-2") || r.EnteredAt == "" {
		t.Fatalf("hint %q / stamp %q", r.Hint, r.EnteredAt)
	}
}

func TestPlanLockNotifyLine(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	r := sb.g.CheckCall(lockState(plan, asOther), "write", json.RawMessage(`{"path":"plans/existing.plan","content":"x"}`))
	if r == nil || NotifyRefused(r) != "[plan-mode] refused tool=write kind=file_edit" {
		t.Fatalf("refusal %v", r)
	}
}

// fuzzLockWho are the identities the lock fuzzers act as.
var fuzzLockWho = []string{asOther, asBuilder, asSystem}

// FuzzPlanLock: whatever the tool and paths, a call or an operation that
// the guard allows a session that is not building plans/existing.plan
// (plan or build mode) leaves that plan as it was: same content, same place.
// Checked by applying it for real in the sandbox, on the names as given and
// resolved.
func FuzzPlanLock(f *testing.F) {
	for _, row := range lockCallTable {
		var in struct{ Path, From, To string }
		if i := slices.Index(fuzzTools, row.tool); i >= 0 && json.Unmarshal([]byte(row.args), &in) == nil {
			a, b := in.Path, ""
			if row.tool == "mv" {
				a, b = in.From, in.To
			}
			f.Add(uint8(i), a, b, uint8(slices.Index(fuzzLockWho, row.who)), row.mode == agentproto.ModeBuild, false)
		}
	}
	for _, row := range lockOpTable {
		for _, op := range row.ops {
			if i := fuzzOpKindIndex(op); i >= 0 {
				f.Add(uint8(i), op.Path, op.From, uint8(slices.Index(fuzzLockWho, row.who)), row.mode == agentproto.ModeBuild, true)
			}
		}
	}
	f.Fuzz(func(t *testing.T, idx uint8, a, b string, whoIdx uint8, buildMode, layer2 bool) {
		sb, release := sharedSandbox(t)
		defer release()
		who := fuzzLockWho[int(whoIdx)%len(fuzzLockWho)]
		mode := agentproto.ModePlan
		if buildMode {
			mode = agentproto.ModeBuild
		}
		st := lockState(mode, who)
		a, b = sb.expand(a), sb.expand(b)
		var r *Refusal
		var disk string
		var names []string
		if layer2 {
			k := fuzzOpKinds[int(idx)%len(fuzzOpKinds)]
			op := Op{Kind: k.kind.Kind, Path: a}
			names = []string{a}
			if op.Kind == cRename {
				op.From, names = b, []string{b, a}
			}
			r, disk = sb.g.CheckOps(st, k.tool, []Op{op}), k.disk
		} else {
			tool := fuzzTools[int(idx)%len(fuzzTools)]
			m := map[string]string{"path": a}
			names = []string{a}
			if tool == "mv" {
				m, names = map[string]string{"from": a, "to": b}, []string{a, b}
			}
			args, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			r, disk = sb.g.CheckCall(st, tool, args), physicalOp(tool)
		}
		if r != nil {
			if r.Reason == ReasonPlanBuilt && (who != asOther || r.Target != "plans/existing.plan") {
				t.Fatalf("plan lock refusal for %q: %v", who, r)
			}
			return
		}
		if who != asOther || slices.Contains(names, "") {
			return
		}
		const built = "ws/plans/existing.plan"
		before := snapshot(t, sb.dir)
		applyPhysically(t, sb, disk, names...)
		after := snapshot(t, sb.dir)
		if before[built] != after[built] {
			t.Fatalf("%s %v (%s mode, session %q) changed the plan another session builds: %+v → %+v", disk, names, mode, who, before[built], after[built])
		}
	})
}

// TestPlanLockTableDoc keeps docs/guard.md's plan-lock tables identical to
// the tables above (-update rewrites them).
func TestPlanLockTableDoc(t *testing.T) {
	const start = "<!-- plan-lock-table:start (generated by `go test ./guard -run TestPlanLockTableDoc -update`) -->"
	const end = "<!-- plan-lock-table:end -->"
	golden.CheckSection(t, docsPath, start, end, planLockTableDoc())
}

func planLockTableDoc() string {
	var b strings.Builder
	whoName := map[string]string{asOther: "another session", asBuilder: "a builder", "builder-2": "a builder", asSystem: "agentls (system)"}
	expect := func(locked bool, k Kind) string {
		if locked {
			return fmt.Sprintf("refused (being built), kind `%s`", k)
		}
		return "allowed"
	}
	cell := func(s string) string { return "`` " + strings.ReplaceAll(s, "|", `\|`) + " ``" }
	fmt.Fprintf(&b, "`plans/existing.plan` is being built by two build sessions.\n\n")
	fmt.Fprintf(&b, "#### Layer 1 (`CheckCall`), %d rows\n\n", len(lockCallTable))
	b.WriteString("| # | attempt | who | mode | tool | arguments | expected |\n|---|---|---|---|---|---|---|\n")
	for i, r := range lockCallTable {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | `%s` | %s | %s |\n", i+1, r.name, whoName[r.who], r.mode, r.tool, cell(r.args), expect(r.locked, r.kind))
	}
	fmt.Fprintf(&b, "\n#### Layer 2 (`CheckOps`), %d rows\n\n", len(lockOpTable))
	b.WriteString("| # | attempt | who | mode | tool | operations | expected |\n|---|---|---|---|---|---|---|\n")
	for i, r := range lockOpTable {
		var ops []string
		for _, op := range r.ops {
			if op.From != "" {
				ops = append(ops, fmt.Sprintf("%s %s → %s", op.Kind, op.From, op.Path))
			} else {
				ops = append(ops, fmt.Sprintf("%s %s", op.Kind, op.Path))
			}
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | `%s` | %s | %s |\n", i+1, r.name, whoName[r.who], r.mode, r.tool, cell(strings.Join(ops, "; ")), expect(r.locked, r.kind))
	}
	return b.String()
}
