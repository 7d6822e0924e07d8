package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

var acpKinds = []string{"read", "edit", "delete", "move", "search", "execute", "think", "switch_mode", "other"}

func TestRegistryAll(t *testing.T) {
	t.Parallel()
	reg, err := NewRegistry(All()...)
	if err != nil {
		t.Fatalf("NewRegistry(All()...): %v", err)
	}
	// The names, descriptions and schemas are pinned byte for byte by
	// TestToolDefinitionsGolden, the declarations by TestDeclarationsGolden.
	specs := reg.Specs()
	if len(specs) != len(All()) || len(reg.Names()) != len(All()) {
		t.Fatalf("%d specs and %d names for %d tools", len(specs), len(reg.Names()), len(All()))
	}
	for i, name := range reg.Names() {
		tool, ok := reg.Lookup(name)
		if !ok || specs[i].Name != name || tool.Spec().Name != name {
			t.Errorf("Lookup(%q) = %v, %v; spec %d is %q", name, tool, ok, i, specs[i].Name)
		}
		if d, ok := reg.Declarations().Lookup(name); !ok || d.Name != name || d.Check() != nil {
			t.Errorf("%s: the guard's declaration is %+v, %v", name, d, ok)
		}
		if !slices.Contains(acpKinds, tool.Kind()) {
			t.Errorf("%s: kind %q is not an ACP tool kind", name, tool.Kind())
		}
		if tool.Title(json.RawMessage(`{}`)) == "" || tool.Title(json.RawMessage(`not json`)) == "" {
			t.Errorf("%s: empty title", name)
		}
	}
	if _, ok := reg.Lookup("bash"); ok {
		t.Error("Lookup found a tool that is not registered")
	}
}

func TestRegistryRejects(t *testing.T) {
	t.Parallel()
	complete := guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Paths: guard.NoPaths(),
		Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace}
	with := func(name string, edit func(*guard.Decl)) fakeTool {
		d := complete
		edit(&d)
		return fakeTool{name: name, decl: d}
	}
	tests := []struct {
		name  string
		tools []Tool
		want  []string // each must be in the error
	}{
		{name: "duplicate", tools: []Tool{readTool, lsTool, readTool}, want: []string{`tool "read" is registered twice`}},
		{name: "nameless", tools: []Tool{fakeTool{decl: complete}}, want: []string{"has no name"}},
		{name: "no declaration", tools: []Tool{readTool, fakeTool{name: "bash"}},
			want: []string{`"bash"`, "class", "kind", "paths are undeclared", "interaction", "plan_mode", `reach ""`}},
		{name: "undeclared reach", tools: []Tool{with("t", func(d *guard.Decl) { d.Reach = "" })}, want: []string{`reach ""`}},
		{name: "unknown reach", tools: []Tool{with("t", func(d *guard.Decl) { d.Reach = "internet" })}, want: []string{`reach "internet"`}},
		{name: "undeclared class", tools: []Tool{with("t", func(d *guard.Decl) { d.Class = "" })}, want: []string{`"t"`, `class ""`}},
		{name: "unknown class", tools: []Tool{with("t", func(d *guard.Decl) { d.Class = "harmless" })}, want: []string{`class "harmless"`}},
		{name: "undeclared kind", tools: []Tool{with("t", func(d *guard.Decl) { d.Kind = "" })}, want: []string{`kind ""`}},
		{name: "undeclared paths", tools: []Tool{with("t", func(d *guard.Decl) { d.Paths = nil })}, want: []string{"paths are undeclared"}},
		{name: "path without role", tools: []Tool{with("t", func(d *guard.Decl) { d.Paths = []guard.PathArg{{Name: "path"}} })},
			want: []string{`path argument "path": role ""`}},
		{name: "path without name", tools: []Tool{with("t", func(d *guard.Decl) { d.Paths = []guard.PathArg{{Role: guard.Source}} })},
			want: []string{"has no name"}},
		{name: "undeclared interaction", tools: []Tool{with("t", func(d *guard.Decl) { d.Interaction = "" })}, want: []string{`interaction ""`}},
		{name: "undeclared plan offer", tools: []Tool{with("t", func(d *guard.Decl) { d.Plan = "" })}, want: []string{`plan_mode ""`}},
		{name: "mutating file tool without a target", tools: []Tool{with("t", func(d *guard.Decl) {
			d.Class, d.Kind, d.Paths = guard.ClassMutating, guard.KindFileEdit, []guard.PathArg{{Name: "path", Role: guard.Source}}
		})}, want: []string{"declares no target path"}},
		{name: "read-only tool with a target", tools: []Tool{with("t", func(d *guard.Decl) {
			d.Paths = []guard.PathArg{{Name: "path", Role: guard.Target}}
		})}, want: []string{"read-only tool declares a target"}},
		{name: "command offered in plan mode", tools: []Tool{with("t", func(d *guard.Decl) {
			d.Class, d.Kind = guard.ClassMutating, guard.KindExecute
		})}, want: []string{"offered in plan mode, where the guard refuses every execute call"}},
		{name: "declared under another name", tools: []Tool{with("t", func(d *guard.Decl) { d.Name = "read" })},
			want: []string{`tool "t" declares itself to the guard as "read"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := NewRegistry(tt.tools...)
			if err == nil {
				t.Fatalf("NewRegistry = %v, nil; want an error containing %q", reg, tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("NewRegistry error %q does not contain %q", err, w)
				}
			}
		})
	}
	// A complete declaration registers, and the manager's start-up would
	// accept it.
	if _, err := NewRegistry(readTool, with("t", func(*guard.Decl) {})); err != nil {
		t.Errorf("NewRegistry with a complete declaration: %v", err)
	}
}

// fakeTool is a tool with the given guard declaration (none by default).
type fakeTool struct {
	name string
	decl guard.Decl
}

func (f fakeTool) Spec() Spec {
	params := json.RawMessage(`{"additionalProperties":false,"properties":{},"required":[],"type":"object"}`)
	return Spec{ToolSpec: llm.ToolSpec{Name: f.name, Parameters: params}, Guard: f.decl}
}
func (fakeTool) Kind() string                 { return "other" }
func (fakeTool) Title(json.RawMessage) string { return "fake" }
func (fakeTool) Run(context.Context, Env, json.RawMessage) (Result, error) {
	return OK(nil), nil
}

func TestSpecsAreValidSchemas(t *testing.T) {
	t.Parallel()
	for _, tool := range All() {
		spec := tool.Spec()
		t.Run(spec.Name, func(t *testing.T) {
			if strings.TrimSpace(spec.Description) == "" || !strings.HasSuffix(spec.Description, "\n") {
				t.Errorf("description is not the embedded markdown: %q", spec.Description)
			}
			c := jsonschema.NewCompiler()
			c.Draft = jsonschema.Draft2020
			if err := c.AddResource("mem://tools/"+spec.Name+".json", bytes.NewReader(spec.Parameters)); err != nil {
				t.Fatalf("parameters are not JSON: %v", err)
			}
			schema, err := c.Compile("mem://tools/" + spec.Name + ".json")
			if err != nil {
				t.Fatalf("parameters are not a valid JSON Schema: %v", err)
			}
			var s struct {
				Type                 string                     `json:"type"`
				Properties           map[string]json.RawMessage `json:"properties"`
				Required             []string                   `json:"required"`
				AdditionalProperties *bool                      `json:"additionalProperties"`
			}
			if err := json.Unmarshal(spec.Parameters, &s); err != nil {
				t.Fatal(err)
			}
			if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
				t.Errorf("want an object schema with additionalProperties false: %s", spec.Parameters)
			}
			// The guard reads exactly the declared path arguments: each is a
			// property, optional exactly when not required, and every
			// property named like a path is declared.
			d := spec.Guard
			declaredPath := map[string]bool{}
			for _, p := range d.Paths {
				declaredPath[p.Name] = true
				if _, ok := s.Properties[p.Name]; !ok {
					t.Errorf("declared path argument %q is not a property", p.Name)
				}
				if p.Optional == slices.Contains(s.Required, p.Name) {
					t.Errorf("path argument %q: optional %v but required %v", p.Name, p.Optional, slices.Contains(s.Required, p.Name))
				}
			}
			for p := range s.Properties {
				if (p == "path" || p == "from" || p == "to" || p == "cwd" || strings.HasSuffix(p, "_path")) && !declaredPath[p] {
					t.Errorf("property %q names a path but is not declared to the guard", p)
				}
			}
			// Which arguments are required is pinned by the golden
			// definitions; each must at least be a property.
			for _, r := range s.Required {
				if _, ok := s.Properties[r]; !ok {
					t.Errorf("required argument %q is not a property", r)
				}
			}
			// The schema rejects unknown arguments, as the tool does.
			if err := schema.Validate(map[string]any{"no_such_argument": true}); err == nil {
				t.Errorf("schema accepts an unknown argument")
			}

		})
	}
}

func TestResultJSON(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{"a.txt": "x\n"})
	r := call(t, readTool, env, `{"path":"a.txt"}`)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.JSON()), &m); err != nil {
		t.Fatal(err)
	}
	res, ok := m["result"].(map[string]any)
	if m["success"] != true || !ok {
		t.Fatalf("wire = %s", r.JSON())
	}
	for _, k := range []string{"path", "content", "start_line", "end_line", "total_lines", "truncated", "hash"} {
		if _, ok := res[k]; !ok {
			t.Errorf("read result lacks %q: %s", k, r.JSON())
		}
	}
}
