package tools

import (
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// fileOpCase is one call of a file tool and what it must leave behind.
type fileOpCase struct {
	name      string
	mode      agentproto.Mode
	args      string
	result    string   // the result's JSON, on success
	present   []string // paths that must exist afterwards
	absent    []string // paths that must not exist afterwards
	wantError []string
	refused   bool
}

var fileOpFiles = map[string]string{
	"a.go":              "package a\n",
	"dir/b.go":          "package dir\n",
	"plans/p.plan":      "# Goal\n",
	"plans/old/.k":      "",
	"plans/q.plan":      "# Q\n",
	"full/x/y.txt":      "y\n",
	"emptyish/.gitkeep": "",
}

func runFileOps(t *testing.T, tool Tool, tests []fileOpCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, fileOpFiles)
			if tt.mode != "" {
				env.setMode(tt.mode)
			}
			r := call(t, tool, env, tt.args)
			switch {
			case tt.refused:
				wantRefused(t, r, tool.Spec().Name)
			case tt.wantError != nil:
				wantFail(t, r, tt.wantError...)
			default:
				if !r.Success {
					t.Fatalf("want success, got %s", r.JSON())
				}
				if got := wire(t, r); r.JSON() != `{"success":true,"result":`+tt.result+`}` {
					t.Errorf("result = %v, want %s", got, tt.result)
				}
			}
			for _, p := range tt.present {
				if env.missing(p) {
					t.Errorf("%s is missing", p)
				}
			}
			for _, p := range tt.absent {
				if !env.missing(p) {
					t.Errorf("%s still exists", p)
				}
			}
		})
	}
}

func TestMv(t *testing.T) {
	t.Parallel()
	runFileOps(t, mvTool, []fileOpCase{
		{name: "rename file", args: `{"from":"a.go","to":"c.go"}`, result: `{"from":"a.go","to":"c.go"}`, present: []string{"c.go"}, absent: []string{"a.go"}},
		{name: "move folder", args: `{"from":"dir","to":"lib/dir"}`, result: `{"from":"dir","to":"lib/dir"}`, present: []string{"lib/dir/b.go"}, absent: []string{"dir"}},
		{name: "plan to plan in plan mode", mode: agentproto.ModePlan, args: `{"from":"plans/p.plan","to":"plans/r.plan"}`, result: `{"from":"plans/p.plan","to":"plans/r.plan"}`, present: []string{"plans/r.plan"}, absent: []string{"plans/p.plan"}},
		{name: "source in plan mode", mode: agentproto.ModePlan, args: `{"from":"a.go","to":"c.go"}`, refused: true, present: []string{"a.go"}, absent: []string{"c.go"}},
		{name: "plan to source in plan mode", mode: agentproto.ModePlan, args: `{"from":"plans/p.plan","to":"p.go"}`, refused: true, present: []string{"plans/p.plan"}, absent: []string{"p.go"}},
		{name: "missing source", args: `{"from":"nope","to":"x"}`, wantError: []string{"nope does not exist"}},
		{name: "target exists", args: `{"from":"a.go","to":"dir/b.go"}`, wantError: []string{"dir/b.go"}, present: []string{"a.go"}},
		{name: "outside", args: `{"from":"a.go","to":"../a.go"}`, wantError: []string{"to:", "outside the workspace"}, present: []string{"a.go"}},
		{name: "no to", args: `{"from":"a.go"}`, wantError: []string{"to is required"}},
	})
}

func TestRm(t *testing.T) {
	t.Parallel()
	runFileOps(t, rmTool, []fileOpCase{
		{name: "file", args: `{"path":"a.go"}`, result: `{"path":"a.go","removed":true}`, absent: []string{"a.go"}},
		{name: "full folder recursive", args: `{"path":"full","recursive":true}`, result: `{"path":"full","removed":true,"was_dir":true}`, absent: []string{"full"}},
		{name: "full folder", args: `{"path":"full"}`, wantError: []string{"full"}, present: []string{"full/x/y.txt"}},
		{name: "plan in plan mode", mode: agentproto.ModePlan, args: `{"path":"plans/q.plan"}`, result: `{"path":"plans/q.plan","removed":true}`, absent: []string{"plans/q.plan"}},
		{name: "source in plan mode", mode: agentproto.ModePlan, args: `{"path":"a.go"}`, refused: true, present: []string{"a.go"}},
		{name: "missing", args: `{"path":"nope.go"}`, wantError: []string{"nope.go does not exist"}},
		{name: "workspace root", args: `{"path":"."}`, wantError: []string{"workspace folder itself"}},
		{name: "outside", args: `{"path":"../"}`, wantError: []string{"outside the workspace"}},
	})
}

func TestMkdir(t *testing.T) {
	t.Parallel()
	runFileOps(t, mkdirTool, []fileOpCase{
		{name: "with parents", args: `{"path":"x/y/z"}`, result: `{"path":"x/y/z","created":true}`, present: []string{"x/y/z"}},
		{name: "exists", args: `{"path":"dir"}`, result: `{"path":"dir","created":false}`, present: []string{"dir/b.go"}},
		{name: "a file is there", args: `{"path":"a.go"}`, wantError: []string{"a.go exists and is a file"}},
		{name: "inside plans in plan mode", mode: agentproto.ModePlan, args: `{"path":"plans/new"}`, result: `{"path":"plans/new","created":true}`, present: []string{"plans/new"}},
		{name: "elsewhere in plan mode", mode: agentproto.ModePlan, args: `{"path":"src"}`, refused: true, absent: []string{"src"}},
		{name: "outside", args: `{"path":"../up"}`, wantError: []string{"outside the workspace"}},
	})
}

func TestTouch(t *testing.T) {
	t.Parallel()
	runFileOps(t, touchTool, []fileOpCase{
		{name: "new file", args: `{"path":"new/empty.txt"}`, result: `{"path":"new/empty.txt","created":true}`, present: []string{"new/empty.txt"}},
		{name: "existing file", args: `{"path":"a.go"}`, result: `{"path":"a.go","created":false}`, present: []string{"a.go"}},
		{name: "plan in plan mode", mode: agentproto.ModePlan, args: `{"path":"plans/n.plan"}`, result: `{"path":"plans/n.plan","created":true}`, present: []string{"plans/n.plan"}},
		{name: "source in plan mode", mode: agentproto.ModePlan, args: `{"path":"n.go"}`, refused: true, absent: []string{"n.go"}},
		{name: "directory", args: `{"path":"dir"}`, wantError: []string{"dir is a directory"}},
		{name: "outside", args: `{"path":"/tmp/x"}`, wantError: []string{"outside the workspace"}},
	})
}
