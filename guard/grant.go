package guard

import (
	"fmt"
	"slices"
	"strings"
)

// Grant narrows the tools a session may call below the declared set: a
// sub-agent's session holds only its kind's tools (docs/subagents.md). It
// rides on the State read at each check, so every layer (the call, the
// changes, the operations sent) refuses a tool outside it, and in plan
// mode every tool that is not read-only (a sub-agent's mode is its root's
// or narrower: it does not write plans either). It is immutable.
type Grant struct {
	// By names who holds the grant, for the refusal's hint ("sub-agent
	// explore-1 (a1b2c3d4)").
	By string
	// Tools are the tools granted, by exact name.
	Tools []string
}

// NewGrant returns the grant of tools to by.
func NewGrant(by string, tools ...string) *Grant {
	return &Grant{By: by, Tools: slices.Clone(tools)}
}

// Allows reports whether the grant holds tool; a nil grant holds every tool.
func (g *Grant) Allows(tool string) bool {
	return g == nil || slices.Contains(g.Tools, tool)
}

// hint says what the grant holds, for a refusal.
func (g *Grant) hint() string {
	tools := "no tools"
	if len(g.Tools) > 0 {
		tools = strings.Join(g.Tools, ", ")
	}
	return fmt.Sprintf("%s is not given this tool; its tools are: %s", g.By, tools)
}
