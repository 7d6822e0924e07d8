package guard

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// fuzzTools are the tools whose calls name files (TestFuzzToolsAreTheFileTools
// keeps the list equal to the declared ones; its order keys the corpus).
var fuzzTools = []string{"write", "edit", "touch", "mv", "rm", "mkdir", "plan_write", "plan_edit", "rename"}

// physicalOp is the operation a tool performs on disk.
func physicalOp(tool string) string {
	switch tool {
	case "write", "plan_write":
		return "write"
	case "edit", "plan_edit", "rename":
		return "edit"
	}
	return tool
}

// FuzzCheckCall: whatever the arguments, a call CheckCall allows in plan mode
// changes nothing but .plan files in the workspace (write, edit, touch, mv),
// including the missing parent folders they imply (created as an editor or
// the disk applier would: only at or below plans/), or folders and files
// inside plans/ (mkdir, rm); in any mode nothing under
// a protected folder (.agentls, .git, .hg, .svn, .jj, at any depth, and the
// folder the top-level .jj symlink points to). Checked by the independent oracle (oracle_test.go) and by
// applying the call for real in a fresh sandbox.
func FuzzCheckCall(f *testing.F) {
	for _, row := range callTable {
		i := slices.Index(fuzzTools, row.tool)
		if i < 0 {
			continue
		}
		build := row.mode == agentproto.ModeBuild
		f.Add(uint8(i), row.args, "", true, build)
		var in struct{ Path, From, To string }
		if json.Unmarshal([]byte(row.args), &in) == nil {
			if row.tool == "mv" {
				f.Add(uint8(i), in.From, in.To, false, build)
			} else {
				f.Add(uint8(i), in.Path, "", false, build)
			}
		}
	}
	f.Fuzz(func(t *testing.T, toolIdx uint8, a, b string, rawArgs, buildMode bool) {
		sb, release := sharedSandbox(t)
		defer release()
		tool := fuzzTools[int(toolIdx)%len(fuzzTools)]
		var args []byte
		if rawArgs {
			args = []byte(sb.expand(a))
		} else {
			m := map[string]string{"path": sb.expand(a)}
			if tool == "mv" {
				m = map[string]string{"from": sb.expand(a), "to": sb.expand(b)}
			}
			var err error
			if args, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
		}
		mode := agentproto.ModePlan
		if buildMode {
			mode = agentproto.ModeBuild
		}
		tc, _ := declaredTools.Lookup(tool)
		r := sb.g.CheckCall(stateOf(mode), tool, args)
		if r != nil {
			if r.ToolName != tool || r.ToolKind != tc.Kind || r.Hint == "" {
				t.Fatalf("malformed refusal %+v", r)
			}
			if mode == agentproto.ModePlan && r.Reason != ReasonPlanMode && r.Reason != ReasonAgentState && r.Reason != ReasonProtected {
				t.Fatalf("plan-mode refusal with reason %d", r.Reason)
			}
			return
		}
		// Allowed: read the arguments the way a tool would.
		var in struct {
			Path *string `json:"path"`
			From *string `json:"from"`
			To   *string `json:"to"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			t.Fatalf("allowed arguments a tool cannot decode (%s): %v", args, err)
		}
		var names []string
		if tool == "mv" {
			if in.From == nil || in.To == nil {
				t.Fatalf("allowed mv without both ends: %s", args)
			}
			names = []string{*in.From, *in.To}
		} else if in.Path != nil && *in.Path != "" {
			names = []string{*in.Path}
		} else if tool != "plan_write" && mode == agentproto.ModePlan {
			t.Fatalf("allowed %s without a path in plan mode: %s", tool, args)
		}
		if len(names) == 0 {
			// plan_write names its own file; in build mode the tool itself
			// reports the missing path.
			return
		}
		what := map[string]string{"write": "plan-file-content", "edit": "plan-file-content", "touch": "plan-file-content",
			"mv": "plan-file", "rm": "rm", "mkdir": "mkdir"}[physicalOp(tool)]
		if mode == agentproto.ModeBuild {
			what = "build"
			if tool == "mv" || tool == "rm" {
				what = "build-remove"
			}
		}
		for _, n := range names {
			oracleTarget(t, sb, what, n)
		}
		before := snapshot(t, sb.dir)
		applyPhysically(t, sb, physicalOp(tool), names...)
		checkTreeDiff(t, before, snapshot(t, sb.dir), physicalOp(tool), mode == agentproto.ModePlan, tool+" "+string(args))
	})
}

// fuzzOpKinds are the kinds of operations FuzzCheckOps tries, with the tool
// that produces each and the operation it performs on disk.
var fuzzOpKinds = []struct {
	kind       Op
	tool, disk string
}{
	{Op{Kind: cEdit}, "edit", "edit"},
	{Op{Kind: cCreate}, "write", "write"},
	{Op{Kind: cRename}, "mv", "mv"},
	{Op{Kind: cDelete}, "rm", "rm"},
	{Op{Kind: cMkdir}, "mkdir", "mkdir"},
}

// fuzzOpKindIndex is the index in fuzzOpKinds of op's kind, or -1.
func fuzzOpKindIndex(op Op) int {
	for i, k := range fuzzOpKinds {
		if k.kind.Kind == op.Kind {
			return i
		}
	}
	return -1
}

// FuzzCheckOps: the same property at layer 2, for one operation of any kind
// with fuzzed raw paths.
func FuzzCheckOps(f *testing.F) {
	for _, row := range opTable {
		for _, op := range row.ops {
			if i := fuzzOpKindIndex(op); i >= 0 {
				f.Add(uint8(i), op.Path, op.From, row.mode == agentproto.ModeBuild)
			}
		}
	}
	f.Fuzz(func(t *testing.T, kindIdx uint8, path, from string, buildMode bool) {
		sb, release := sharedSandbox(t)
		defer release()
		k := fuzzOpKinds[int(kindIdx)%len(fuzzOpKinds)]
		op := Op{Kind: k.kind.Kind, Path: sb.expand(path)}
		if op.Kind == cRename {
			op.From = sb.expand(from)
		}
		mode := agentproto.ModePlan
		if buildMode {
			mode = agentproto.ModeBuild
		}
		if r := sb.g.CheckOps(stateOf(mode), k.tool, []Op{op}); r != nil {
			if r.ToolName != k.tool || r.ToolKind != kindOfChange(op.Kind) || r.Hint == "" {
				t.Fatalf("malformed refusal %+v", r)
			}
			return
		}
		names := []string{op.Path}
		if op.Kind == cRename {
			names = []string{op.From, op.Path}
		}
		what := map[string]string{"edit": "plan-file-content", "write": "plan-file-content", "mv": "plan-file", "rm": "rm", "mkdir": "mkdir"}[k.disk]
		if mode == agentproto.ModeBuild {
			what = "build"
			if op.Kind == cRename || op.Kind == cDelete {
				what = "build-remove"
			}
		}
		for _, n := range names {
			oracleTarget(t, sb, what, n)
		}
		before := snapshot(t, sb.dir)
		applyPhysically(t, sb, k.disk, names...)
		checkTreeDiff(t, before, snapshot(t, sb.dir), k.disk, mode == agentproto.ModePlan, string(op.Kind)+" "+op.From+" "+op.Path)
	})
}
