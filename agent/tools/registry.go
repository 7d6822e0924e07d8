package tools

import (
	"fmt"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
)

// All returns every tool of agentls, in a stable order: exploration, file
// changes, the shell, questions, plan mode, plans.
func All() []Tool {
	return []Tool{
		ReadTool{}, LsTool{}, GlobTool{}, GrepTool{},
		WriteTool{}, EditTool{}, MvTool{}, RmTool{}, MkdirTool{}, TouchTool{},
		RunTool{},
		AskUserTool{},
		EnterPlanModeTool{}, ExitPlanModeTool{},
		PlanWriteTool{}, PlanReadTool{}, PlanEditTool{}, PlanListTool{},
	}
}

// Registry is a fixed set of tools, looked up by name. It is immutable and
// safe for concurrent use.
type Registry struct {
	tools  []Tool
	byName map[string]Tool
}

// NewRegistry returns a registry of ts, in that order. It fails if a name
// repeats, is empty, or is not classified by the guard.
func NewRegistry(ts ...Tool) (*Registry, error) {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		name := t.Spec().Name
		if name == "" {
			return nil, fmt.Errorf("tool registry: a tool of type %T has no name", t)
		}
		if _, dup := r.byName[name]; dup {
			return nil, fmt.Errorf("tool registry: tool %q is registered twice", name)
		}
		r.byName[name] = t
		r.tools = append(r.tools, t)
		names = append(names, name)
	}
	if err := guard.CheckRegistry(names); err != nil {
		return nil, fmt.Errorf("tool registry: %w", err)
	}
	return r, nil
}

// Lookup returns the tool called name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Specs returns the specs of every tool, in registration order, for the model.
func (r *Registry) Specs() []llm.ToolSpec {
	out := make([]llm.ToolSpec, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t.Spec())
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
