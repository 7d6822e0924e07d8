package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

func TestIsPlanTarget(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	resolved := func(p string) workspace.Path {
		t.Helper()
		r, err := sb.w.Resolve(p)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", p, err)
		}
		return r
	}
	raw := func(rel string) workspace.Path { // a Path that Resolve did not make
		return workspace.Path{Abs: filepath.Join(sb.ws, rel), Rel: rel, Folder: sb.ws, Exists: true}
	}
	tests := []struct {
		name string
		p    workspace.Path
		want bool
	}{
		{"existing plan", resolved("plans/existing.plan"), true},
		{"new plan", resolved("plans/new.plan"), true},
		{"new plan in a new folder", resolved("docs/deep/design.plan"), true},
		{"resolved plan symlink", resolved("plans/to-plan.plan"), true},
		{"hard-linked plan (writes are refused elsewhere)", resolved("plans/hard.plan"), true},
		{"resolved .plan symlink to source", resolved("plans/to-src.plan"), false},
		{"unresolved .plan symlink to source", raw("plans/to-src.plan"), false},
		{"unresolved .plan symlink to a plan", raw("plans/to-plan.plan"), false},
		{"unresolved .plan symlink outside", raw("plans/to-out.plan"), false},
		{"dangling .plan symlink", raw("plans/dangling.plan"), false},
		{"folder named foo.plan", resolved("plans/foo.plan"), false},
		{"folder named foo.plan, IsDir unset", workspace.Path{Abs: filepath.Join(sb.ws, "plans/foo.plan"), Rel: "plans/foo.plan"}, false},
		{"source file", resolved("src/main.go"), false},
		{"zero Path", workspace.Path{}, false},
		{"outside", workspace.Path{Abs: filepath.Join(sb.out, "secret.plan"), Rel: "secret.plan", Folder: sb.out}, false},
		{"/etc/passwd.plan", workspace.Path{Abs: "/etc/passwd.plan"}, false},
		{"in .agentls/", resolved(".agentls/x.plan"), false},
		{"bare .plan", resolved("plans/.plan"), false},
		{"relative Abs", workspace.Path{Abs: "plans/existing.plan"}, false},
		{"NUL", workspace.Path{Abs: sb.ws + "/plans/x\x00.plan"}, false},
		{"bidi override in the real name", workspace.Path{Abs: sb.ws + "/plans/x\u202e.plan"}, false},
		{".PLAN", resolved("plans/x.PLAN"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sb.g.IsPlanTarget(tt.p); got != tt.want {
				t.Fatalf("IsPlanTarget(%+v) = %v, want %v (%v)", tt.p, got, tt.want, sb.g.planTargetErr(tt.p))
			}
		})
	}
}

func TestCheckChanges(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	res := func(p string) workspace.Path {
		t.Helper()
		r, err := sb.w.Resolve(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plan, build := stateOf(agentproto.ModePlan), stateOf(agentproto.ModeBuild)
	tests := []struct {
		name    string
		st      State
		tool    string
		changes []workspace.Change
		want    outcome
		kind    Kind
	}{
		{"create a plan", plan, "plan_write", []workspace.Change{{Kind: cCreate, Path: res("plans/new.plan"), After: "x"}}, allowed, ""},
		{"edit a plan", plan, "edit", []workspace.Change{{Kind: cEdit, Path: res("plans/existing.plan")}}, allowed, ""},
		{"rename plan to plan", plan, "mv", []workspace.Change{{Kind: cRename, From: res("plans/existing.plan"), Path: res("plans/b.plan")}}, allowed, ""},
		{"delete a plan", plan, "rm", []workspace.Change{{Kind: cDelete, Path: res("plans/notes.plan")}}, allowed, ""},
		{"mkdir in plans/", plan, "mkdir", []workspace.Change{{Kind: cMkdir, Path: res("plans/d")}}, allowed, ""},
		{"edit through a resolved .plan symlink to source", plan, "edit", []workspace.Change{{Kind: cEdit, Path: res("plans/to-src.plan")}}, refPlan, KindFileEdit},
		{"edit a hand-made Path of a .plan symlink", plan, "edit", []workspace.Change{{Kind: cEdit,
			Path: workspace.Path{Abs: filepath.Join(sb.ws, "plans/to-src.plan"), Rel: "plans/to-src.plan", Folder: sb.ws}}}, refPlan, KindFileEdit},
		{"second change is a source edit", plan, "edit", []workspace.Change{
			{Kind: cEdit, Path: res("plans/existing.plan")}, {Kind: cEdit, Path: res("src/main.go")}}, refPlan, KindFileEdit},
		{"rename from a source file", plan, "mv", []workspace.Change{{Kind: cRename, From: res("src/main.go"), Path: res("plans/m.plan")}}, refPlan, KindMove},
		{"rename with a zero From", plan, "mv", []workspace.Change{{Kind: cRename, Path: res("plans/m.plan")}}, refPlan, KindMove},
		{"zero Path", plan, "write", []workspace.Change{{Kind: cCreate}}, refPlan, KindFileEdit},
		{"build: source edit", build, "edit", []workspace.Change{{Kind: cEdit, Path: res("src/main.go")}}, allowed, ""},
		{"build: session file", build, "write", []workspace.Change{{Kind: cEdit, Path: res(".agentls/chats/s1.chat")}}, refState, KindFileEdit},
		{"build: zero Path", build, "write", []workspace.Change{{Kind: cCreate}}, refBad, KindFileEdit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkOutcome(t, sb.g.CheckChanges(tt.st, tt.tool, tt.changes), tt.want, tt.tool, tt.kind)
		})
	}
}

func TestPlansDir(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	tests := []struct {
		name, plansDir string
		want           string // PlansDir, relative to the workspace
		errHas         string // "" when CheckPlansDir must succeed
	}{
		{"empty: the whole workspace folder", "", ".", "whole workspace folder"},
		{"explicit", "plans", "plans", ""},
		{"trailing slash", "plans/", "plans", ""},
		{"nested, missing", "docs/plans", "docs/plans", ""},
		{"whole workspace", ".", ".", "whole workspace folder"},
		{"outside", "../outside", "../outside", "outside the workspace"},
		{"in .agentls", ".agentls/plans", ".agentls/plans", "state folder"},
		{"a file", "README.md", "README.md", "not a folder"},
		{"through a symlink inside", "srclink", "srclink", "through a symlink"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(sb.w, tt.plansDir, declaredTools)
			err := g.CheckPlansDir()
			if (err == nil) != (tt.errHas == "") || err != nil && !strings.Contains(err.Error(), tt.errHas) {
				t.Fatalf("CheckPlansDir() = %v, want error containing %q", err, tt.errHas)
			}
			if got, want := g.PlansDir(), filepath.Clean(filepath.Join(sb.ws, tt.want)); got != want {
				t.Fatalf("PlansDir() = %s, want %s", got, want)
			}
			if err != nil {
				r := g.CheckCall(stateOf(agentproto.ModePlan), "mkdir", []byte(`{"path":"`+filepath.ToSlash(tt.plansDir)+`/x"}`))
				if r == nil {
					t.Fatal("mkdir inside an unusable plans folder allowed")
				}
			}
		})
	}
}

func TestPlansDirNamedInHints(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	if err := os.MkdirAll(filepath.Join(sb.ws, "docs", "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := New(sb.w, "docs/plans", declaredTools)
	r := g.CheckCall(stateOf(agentproto.ModePlan), "write", []byte(`{"path":"src/main.go"}`))
	if r == nil || !strings.Contains(r.Hint, "docs/plans/<name>.plan") {
		t.Fatalf("hint %v does not name docs/plans/", r)
	}
	if r := g.CheckCall(stateOf(agentproto.ModePlan), "mkdir", []byte(`{"path":"docs/plans/x"}`)); r != nil {
		t.Fatalf("mkdir in the configured plans folder refused: %s", r.Hint)
	}
	if r := g.CheckCall(stateOf(agentproto.ModePlan), "mkdir", []byte(`{"path":"plans/x"}`)); r == nil {
		t.Fatal("mkdir in plans/ allowed while the plans folder is docs/plans")
	}
}

func TestMultiFolderWorkspace(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	second := filepath.Join(sb.dir, "second")
	for _, d := range []string{"second/.agentls/chats", "second/lib"} {
		if err := os.MkdirAll(filepath.Join(sb.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w, err := workspace.New(sb.ws, second)
	if err != nil {
		t.Fatal(err)
	}
	g := New(w, "plans", declaredTools)
	plan, build := stateOf(agentproto.ModePlan), stateOf(agentproto.ModeBuild)
	tests := []struct {
		name string
		st   State
		tool string
		args string
		want outcome
		kind Kind
	}{
		{"plan in the second folder", plan, "write", `{"path":"` + second + `/lib/x.plan"}`, allowed, ""},
		{"source in the second folder", plan, "write", `{"path":"` + second + `/lib/x.go"}`, refPlan, KindFileEdit},
		{"mkdir in the second folder", plan, "mkdir", `{"path":"` + second + `/plans"}`, refPlan, KindMkdir},
		{"state of the second folder", build, "write", `{"path":"` + second + `/.agentls/chats/a.chat"}`, refState, KindFileEdit},
		{"rm the second folder", build, "rm", `{"path":"` + second + `","recursive":true}`, refState, KindDelete},
		{"build: source in the second folder", build, "write", `{"path":"` + second + `/lib/x.go"}`, allowed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkOutcome(t, g.CheckCall(tt.st, tt.tool, []byte(tt.args)), tt.want, tt.tool, tt.kind)
		})
	}
}

func TestWorkspaceWithSpecialCharactersInItsPath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "C# 100% ?proj")
	if err := os.MkdirAll(filepath.Join(root, "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	g := New(w, "plans", declaredTools)
	plan := stateOf(agentproto.ModePlan)
	p, err := w.Resolve("plans/x.plan")
	if err != nil {
		t.Fatal(err)
	}
	if r := g.CheckChanges(plan, "write", []workspace.Change{{Kind: cCreate, Path: p}}); r != nil {
		t.Fatalf("plan in a workspace whose path has # %% ?: %s", r.Hint)
	}
	if r := g.CheckCall(plan, "mkdir", []byte(`{"path":"plans/sub"}`)); r != nil {
		t.Fatalf("mkdir: %s", r.Hint)
	}
	if r := g.CheckCall(plan, "write", []byte(`{"path":"plans/y%2eplan"}`)); r == nil {
		t.Fatal("%2e below the workspace allowed")
	}
}
