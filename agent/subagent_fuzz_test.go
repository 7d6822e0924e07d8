package agent

import (
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// FuzzChildNeverMutatesInPlanMode: whatever tool a sub-agent calls, with
// whatever arguments and whatever grant its kind has (explore, build,
// nested, a user's subset), while its root is in plan mode the guard lets
// through only read-only tools, and the last check refuses every change it
// would send, plans included.
func FuzzChildNeverMutatesInPlanMode(f *testing.F) {
	f.Add(uint8(4), `{"path":"a.txt","content":"x"}`, uint32(0xffffffff), uint8(0), "plans/a.plan")
	f.Add(uint8(14), `{"title":"t","content":"# Goal"}`, uint32(0xffffffff), uint8(1), "plans/b.plan")
	f.Add(uint8(10), `{"command":"touch x"}`, uint32(1<<10), uint8(2), "x")
	f.Add(uint8(18), `{"kind":"build","prompt":"p"}`, uint32(0xffffffff), uint8(3), "plans")
	reg, err := tools.NewRegistry(tools.All()...)
	if err != nil {
		f.Fatal(err)
	}
	names := reg.Names()
	f.Fuzz(func(t *testing.T, toolIdx uint8, args string, mask uint32, opIdx uint8, path string) {
		ws, err := workspace.New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		g := guard.New(ws, "plans", reg.Declarations())
		var granted []string
		for i, n := range names {
			if mask&(1<<(uint(i)%32)) != 0 {
				granted = append(granted, n)
			}
		}
		st := guard.State{Mode: agentproto.ModePlan, Session: "root", Grant: guard.NewGrant("sub-agent fuzz", granted...)}
		tool := names[int(toolIdx)%len(names)]
		d, _ := reg.Declarations().Lookup(tool)
		if r := g.CheckCall(st, tool, []byte(args)); r == nil && d.Class != guard.ClassReadOnly {
			t.Fatalf("%s (%s) %s allowed for a sub-agent in plan mode", tool, d.Class, args)
		}
		kinds := []workspace.ChangeKind{workspace.ChangeEdit, workspace.ChangeCreate, workspace.ChangeDelete, workspace.ChangeMkdir, workspace.ChangeRename}
		op := guard.Op{Kind: kinds[int(opIdx)%len(kinds)], Path: filepath.Join(ws.Root(), path)}
		if op.Kind == workspace.ChangeRename {
			op.From = filepath.Join(ws.Root(), "plans", "old.plan")
		}
		if r := g.CheckOps(st, tool, []guard.Op{op}); r == nil && d.Class != guard.ClassReadOnly {
			t.Fatalf("%s's %s of %q allowed for a sub-agent in plan mode", tool, op.Kind, path)
		}
	})
}
