package tools

import (
	"fmt"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// All returns every tool of agentls, in a stable order: exploration, file
// changes, the shell, questions, plan mode, plans. A new tool is one line
// here (see docs/contributing.md).
func All() []Tool {
	return []Tool{
		readTool, lsTool, globTool, grepTool, codeTool,
		writeTool, editTool, mvTool, rmTool, mkdirTool, touchTool, renameTool,
		runTool,
		askUserTool,
		enterPlanModeTool, exitPlanModeTool,
		planWriteTool, planReadTool, planEditTool, planListTool,
		taskTool,
	}
}

// Registry is a fixed set of tools, looked up by name, with the guard's
// declarations of them. It is immutable and safe for concurrent use.
type Registry struct {
	tools  []Tool
	byName map[string]Tool
	decls  *guard.Tools
}

// NewRegistry returns a registry of ts, in that order. It fails if a name
// repeats or is empty, or if a tool's guard declaration is incomplete (the
// guard could not judge its calls).
func NewRegistry(ts ...Tool) (*Registry, error) {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	decls := make([]guard.Decl, 0, len(ts))
	for _, t := range ts {
		spec := t.Spec()
		name := spec.Name
		if name == "" {
			return nil, fmt.Errorf("tool registry: a tool of type %T has no name", t)
		}
		if _, dup := r.byName[name]; dup {
			return nil, fmt.Errorf("tool registry: tool %q is registered twice", name)
		}
		if spec.Guard.Name != "" && spec.Guard.Name != name {
			return nil, fmt.Errorf("tool registry: tool %q declares itself to the guard as %q", name, spec.Guard.Name)
		}
		d := spec.Guard
		d.Name = name
		decls = append(decls, d)
		r.byName[name] = t
		r.tools = append(r.tools, t)
	}
	var err error
	if r.decls, err = guard.NewTools(decls...); err != nil {
		return nil, fmt.Errorf("tool registry: %w", err)
	}
	return r, nil
}

// Lookup returns the tool called name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Declarations is the guard's view of the registry: every tool's declared
// traits, for guard.New.
func (r *Registry) Declarations() *guard.Tools { return r.decls }

// Specs returns the model-facing specs of every tool, in registration order.
func (r *Registry) Specs() []llm.ToolSpec {
	return r.Offered(agentproto.ModeBuild)
}

// Offered returns the model-facing specs of the tools offered in mode, in
// registration order: every tool in build mode; in plan mode (any mode other
// than build, as the guard reads modes) only the tools declared
// guard.OfferedInPlan. A call to a tool that is not offered still reaches the
// guard, which judges it.
func (r *Registry) Offered(mode agentproto.Mode) []llm.ToolSpec {
	out := make([]llm.ToolSpec, 0, len(r.tools))
	for _, t := range r.tools {
		spec := t.Spec()
		if mode != agentproto.ModeBuild && spec.Guard.Plan != guard.OfferedInPlan {
			continue
		}
		out = append(out, spec.ToolSpec)
	}
	return out
}

// Names returns every tool's name, in registration order.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t.Spec().Name)
	}
	return out
}
