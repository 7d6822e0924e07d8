package guard

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// declaredTools are the tool registry's declarations, as written to
// testdata/declarations.json by the agent/tools tests (which keep the file
// equal to the registry): the guard's tests judge calls by the real ones.
var declaredTools = mustLoadDeclared("testdata/declarations.json")

func mustLoadDeclared(path string) *Tools {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var decls []Decl
	if err := json.Unmarshal(b, &decls); err != nil {
		panic(fmt.Sprintf("%s: %v", path, err))
	}
	t, err := NewTools(decls...)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", path, err))
	}
	return t
}

func TestDeclaredTools(t *testing.T) {
	all := declaredTools.All()
	if len(all) == 0 {
		t.Fatal("no declared tools")
	}
	for _, d := range all {
		got, ok := declaredTools.Lookup(d.Name)
		if !ok || got.Name != d.Name || got.Check() != nil {
			t.Errorf("Lookup(%q) = %+v, %v", d.Name, got, ok)
		}
	}
	for _, unknown := range []string{"", "bash", "Write", "READ", " read", "read ", "apply_patch", "plan_delete"} {
		if got, ok := declaredTools.Lookup(unknown); ok {
			t.Errorf("Lookup(%q) = %+v, want unknown", unknown, got)
		}
	}
	var nilTools *Tools
	if _, ok := nilTools.Lookup("read"); ok || nilTools.All() != nil {
		t.Error("a nil set holds tools")
	}
}

// TestFuzzToolsAreTheFileTools: the fuzzer tries every declared tool whose
// calls name files it changes, and only those.
func TestFuzzToolsAreTheFileTools(t *testing.T) {
	var want []string
	for _, d := range declaredTools.All() {
		if d.Class != ClassReadOnly && changeKinds[d.Kind] {
			want = append(want, d.Name)
		}
	}
	got := slices.Clone(fuzzTools)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("fuzzTools = %q, the declared file tools are %q", got, want)
	}
}

// complete is a complete declaration for tests to break one trait of.
func complete(name string) Decl {
	return Decl{Name: name, Class: ClassMutating, Kind: KindFileEdit,
		Paths: []PathArg{{Name: "dest", Role: Target}}, Interaction: Unattended, Plan: BuildOnly, Reach: agentproto.ReachWorkspace}
}

func TestNewToolsRejects(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Decl)
		want string
	}{
		{"no name", func(d *Decl) { d.Name = "" }, "no name"},
		{"undeclared class", func(d *Decl) { d.Class = "" }, `class ""`},
		{"unknown class", func(d *Decl) { d.Class = "safe" }, `class "safe"`},
		{"undeclared kind", func(d *Decl) { d.Kind = "" }, `kind ""`},
		{"read-only class, mutating kind", func(d *Decl) { d.Class = ClassReadOnly }, "only they, have kind read_only"},
		{"plan-mutating mkdir", func(d *Decl) { d.Class, d.Kind = ClassPlanMutating, KindMkdir }, "must have kind file_edit"},
		{"undeclared paths", func(d *Decl) { d.Paths = nil }, "paths are undeclared"},
		{"no target", func(d *Decl) { d.Paths = NoPaths() }, "declares no target path"},
		{"unknown role", func(d *Decl) { d.Paths[0].Role = "output" }, `role "output"`},
		{"twice, folded", func(d *Decl) { d.Paths = append(d.Paths, PathArg{Name: "DEST", Role: Source}) }, `"DEST" is declared twice`},
		{"move without source", func(d *Decl) { d.Kind = KindMove }, "one source and one target"},
		{"undeclared interaction", func(d *Decl) { d.Interaction = "" }, `interaction ""`},
		{"undeclared offer", func(d *Decl) { d.Plan = "" }, `plan_mode ""`},
		{"undeclared reach", func(d *Decl) { d.Reach = "" }, `reach ""`},
		{"unknown reach", func(d *Decl) { d.Reach = "internet" }, `reach "internet"`},
		{"command in plan mode", func(d *Decl) { d.Kind, d.Paths, d.Plan = KindExecute, NoPaths(), OfferedInPlan }, "offered in plan mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := complete("t")
			d.Paths = slices.Clone(d.Paths)
			tt.edit(&d)
			if _, err := NewTools(complete("ok"), d); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewTools = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := NewTools(complete("a"), complete("a")); err == nil || !strings.Contains(err.Error(), `"a" is declared twice`) {
		t.Errorf("NewTools with a name twice = %v", err)
	}
	if _, err := NewTools(complete("a")); err != nil {
		t.Errorf("NewTools(complete) = %v", err)
	}
}

// TestFailsClosed: a tool the guard does not know, or whose declaration
// lacks a trait (a set built around NewTools' check), is refused in every
// mode, at both layers; a guard without declarations knows no tool.
func TestFailsClosed(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	broken := map[string]Decl{}
	for _, edit := range []func(*Decl){
		func(d *Decl) { d.Class = "" },
		func(d *Decl) { d.Kind = "" },
		func(d *Decl) { d.Paths = nil },
		func(d *Decl) { d.Paths = []PathArg{{Name: "dest", Role: "elsewhere"}} },
		func(d *Decl) { d.Interaction = "" },
		func(d *Decl) { d.Plan = "" },
		func(d *Decl) { d.Reach = "" },
		func(d *Decl) {
			d.Class, d.Kind, d.Paths = ClassReadOnly, KindReadOnly, []PathArg{{Name: "dest", Role: Target}}
		},
	} {
		d := complete(fmt.Sprintf("broken%d", len(broken)))
		edit(&d)
		broken[d.Name] = d
	}
	g := New(sb.w, "plans", &Tools{byName: broken})
	bare := New(sb.w, "plans", nil)
	call := `{"dest":"plans/a.plan","path":"plans/a.plan"}`
	ops := []Op{{Kind: cEdit, Path: "plans/a.plan"}}
	for _, mode := range []agentproto.Mode{agentproto.ModePlan, agentproto.ModeBuild} {
		for name := range broken {
			for layer, r := range map[string]*Refusal{
				"CheckCall": g.CheckCall(stateOf(mode), name, json.RawMessage(call)),
				"CheckOps":  g.CheckOps(stateOf(mode), name, ops),
			} {
				if r == nil || !strings.Contains(r.Hint, "incomplete") {
					t.Errorf("%s mode, %s of %s: %v, want a refusal naming the incomplete declaration", mode, layer, name, r)
				}
			}
		}
		for _, tool := range []string{"read", "write", "plan_write", "ask_user"} {
			if r := bare.CheckCall(stateOf(mode), tool, json.RawMessage(call)); r == nil || r.ToolKind != KindOther {
				t.Errorf("%s mode: a guard without declarations allows %s: %+v", mode, tool, r)
			}
			if r := bare.CheckOps(stateOf(mode), tool, ops); r == nil {
				t.Errorf("%s mode: a guard without declarations allows %s's operations", mode, tool)
			}
		}
	}
}

// TestDeclaredPathsAreJudged: the guard reads the path arguments a tool
// declares, under their declared names, and nothing else: a declared target
// is judged (and a missing one refused), a source of a file edit is read,
// not judged, and a move's source is judged like its target.
func TestDeclaredPathsAreJudged(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	copyDecl := complete("copy")
	copyDecl.Paths = []PathArg{{Name: "src", Role: Source}, {Name: "dest", Role: Target}}
	moveDecl := complete("move")
	moveDecl.Kind, moveDecl.Paths = KindMove, []PathArg{{Name: "a", Role: Source}, {Name: "b", Role: Target}}
	opt := complete("draft")
	opt.Paths[0].Optional = true
	ts, err := NewTools(copyDecl, moveDecl, opt)
	if err != nil {
		t.Fatal(err)
	}
	g := New(sb.w, "plans", ts)
	tests := []struct {
		tool, args string
		allowed    bool
	}{
		{"copy", `{"src":"src/main.go","dest":"plans/new.plan"}`, true},
		{"copy", `{"src":"src/main.go","dest":"src/other.go"}`, false},
		{"copy", `{"src":"src/main.go","DEST":"src/other.go"}`, false},
		{"copy", `{"src":"src/main.go","path":"plans/new.plan"}`, false}, // dest missing
		{"copy", `{"src":"plans/a.plan","dest":"plans/new.plan","Dest":"src/x.go"}`, false},
		{"copy", `{"dest":7}`, false},
		{"move", `{"a":"plans/a.plan","b":"plans/b.plan"}`, true},
		{"move", `{"a":"src/main.go","b":"plans/b.plan"}`, false},
		{"move", `{"b":"plans/b.plan"}`, false},
		{"draft", `{}`, true},
		{"draft", `{"dest":""}`, true},
		{"draft", `{"dest":"src/x.go"}`, false},
	}
	for _, tt := range tests {
		r := g.CheckCall(stateOf(agentproto.ModePlan), tt.tool, json.RawMessage(tt.args))
		if (r == nil) != tt.allowed {
			t.Errorf("plan mode %s %s: refusal %v, want allowed %v", tt.tool, tt.args, r, tt.allowed)
		}
	}
}

func TestClassString(t *testing.T) {
	for c, want := range map[Class]string{ClassReadOnly: "read_only", ClassMutating: "mutating", ClassPlanMutating: "plan_mutating", "": "undeclared"} {
		if got := c.String(); got != want {
			t.Errorf("%q.String() = %q, want %q", string(c), got, want)
		}
	}
}

// FuzzUndeclaredTool: whatever the name (letter case, spaces, lookalikes of
// declared names) and arguments, a tool the guard has no declaration for is
// refused in both modes at both layers.
func FuzzUndeclaredTool(f *testing.F) {
	for _, d := range declaredTools.All() {
		f.Add(d.Name, `{"path":"plans/a.plan"}`)
		f.Add(strings.ToUpper(d.Name), `{"path":"plans/a.plan"}`)
		f.Add(d.Name+" ", `{}`)
	}
	f.Add("", `{}`)
	f.Add("bash", `{"command":"ls"}`)
	sb := newSandbox(f, setupDefault)
	f.Fuzz(func(t *testing.T, name, args string) {
		if _, ok := declaredTools.Lookup(name); ok {
			return
		}
		for _, mode := range []agentproto.Mode{agentproto.ModePlan, agentproto.ModeBuild} {
			r := sb.g.CheckCall(stateOf(mode), name, json.RawMessage(args))
			if r == nil || r.ToolName != name || r.ToolKind != KindOther {
				t.Fatalf("%s mode: CheckCall of undeclared %q = %+v", mode, name, r)
			}
			if r := sb.g.CheckOps(stateOf(mode), name, []Op{{Kind: cEdit, Path: "plans/a.plan"}}); r == nil {
				t.Fatalf("%s mode: CheckOps of undeclared %q allowed", mode, name)
			}
		}
	})
}
