package guard

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentls/agentls/agentproto"
)

// Class says whether a tool can change the workspace. The zero value is
// undeclared, and an undeclared class is refused in every mode.
type Class string

// The classes of tools.
const (
	// ClassReadOnly tools never change the workspace; allowed in every mode.
	ClassReadOnly Class = "read_only"
	// ClassMutating tools change the workspace; in plan mode only the
	// file tools, and only on `.plan` files or inside the plans folder.
	ClassMutating Class = "mutating"
	// ClassPlanMutating tools change plan documents only; in plan mode
	// allowed on `.plan` targets.
	ClassPlanMutating Class = "plan_mutating"
)

// String names the class.
func (c Class) String() string {
	if c == "" {
		return "undeclared"
	}
	return string(c)
}

// Kind is what a tool does, as reported in a refusal's tool_kind and in the
// `[plan-mode] refused` notify line. For a mutating tool it also says which
// change its path targets make (an edit, a move, a delete, a mkdir).
type Kind string

// The kinds of tools.
const (
	KindFileEdit Kind = "file_edit"
	KindMove     Kind = "move"
	KindDelete   Kind = "delete"
	KindMkdir    Kind = "mkdir"
	KindExecute  Kind = "execute"
	KindOther    Kind = "other"
	KindReadOnly Kind = "read_only"
)

// Role says what a tool does with a path argument.
type Role string

// The roles of path arguments.
const (
	// Source: the tool reads the path (for a move: the path it moves away,
	// which the guard checks like the target).
	Source Role = "source"
	// Target: the tool creates, changes or removes the path.
	Target Role = "target"
)

// PathArg is one argument of a tool call that names a path.
type PathArg struct {
	// Name is the JSON argument, as in the tool's parameters.
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Optional: the argument may be missing or empty. For a target this
	// means the tool then picks its own path (plan_write names its file in
	// the plans folder); layer 2 checks the path it picks.
	Optional bool `json:"optional,omitempty"`
}

// Interaction says whether a call runs on its own or involves the human or
// the session's mode. Calls that are not Unattended run alone, in call order.
type Interaction string

// The interactions of tools.
const (
	// Unattended tools run without a human.
	Unattended Interaction = "unattended"
	// WaitsOnHuman tools ask the user and wait for the answer (a question,
	// an approval, a permission to run a command).
	WaitsOnHuman Interaction = "waits_on_human"
	// SwitchesMode tools change the session's mode themselves, so the
	// calls after them are judged in the new mode.
	SwitchesMode Interaction = "switches_mode"
)

// Offer says in which modes the model is offered a tool. It decides only
// what the model is told: a call to a tool that is not offered is still
// judged by the guard on its class and targets.
type Offer string

// The offers of tools.
const (
	// OfferedInPlan tools are offered in plan and in build mode.
	OfferedInPlan Offer = "plan_and_build"
	// BuildOnly tools are offered in build mode only.
	BuildOnly Offer = "build_only"
)

// Decl is a tool's declaration: the traits the guard judges its calls and
// changes by, declared once in the tool's own file. Every trait must be
// declared: a zero trait is undeclared, and a tool with an undeclared trait
// is refused in every mode (and cannot be registered).
type Decl struct {
	// Name is the tool's exact, model-facing name.
	Name  string `json:"name"`
	Class Class  `json:"class"`
	// Kind is the refusal kind; for a mutating file tool, the change its
	// targets make.
	Kind Kind `json:"kind"`
	// Paths lists the arguments that name paths, in order (for a move: the
	// source, then the target). A tool without any declares NoPaths (an
	// empty, non-nil list); nil is undeclared.
	Paths       []PathArg   `json:"paths"`
	Interaction Interaction `json:"interaction"`
	// Plan says whether the tool is offered in plan mode.
	Plan Offer `json:"plan_mode"`
	// Reach is where the tool's effects go beyond its answer; the
	// permission question of a call shows it (reach.go).
	Reach agentproto.Reach `json:"reach"`
	// NetworkRemedy, for a tool of network reach, is what else than
	// plan_mode.allow_network_tools would let it run in plan mode (an MCP
	// server's `network: false`), said in its plan-mode refusal; "" when
	// nothing else would.
	NetworkRemedy string `json:"network_remedy,omitempty"`
}

// NoPaths declares that a tool has no path arguments.
func NoPaths() []PathArg { return []PathArg{} }

// changeKinds maps the kinds of mutating file tools to the change their
// targets make.
var changeKinds = map[Kind]bool{KindFileEdit: true, KindMove: true, KindDelete: true, KindMkdir: true}

// Check reports every trait of d that is undeclared, unknown or
// inconsistent (joined), or nil when the guard can judge the tool's calls.
func (d Decl) Check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if d.Name == "" {
		bad("no name")
	}
	switch d.Class {
	case ClassReadOnly, ClassMutating, ClassPlanMutating:
	default:
		bad("class %q is not one of read_only, mutating, plan_mutating", string(d.Class))
	}
	switch d.Kind {
	case KindFileEdit, KindMove, KindDelete, KindMkdir, KindExecute, KindOther, KindReadOnly:
	default:
		bad("kind %q is not a known kind", d.Kind)
	}
	if (d.Class == ClassReadOnly) != (d.Kind == KindReadOnly) {
		bad("class %s with kind %s: read-only tools, and only they, have kind read_only", d.Class, d.Kind)
	}
	if d.Class == ClassPlanMutating && d.Kind != KindFileEdit {
		bad("a plan-mutating tool must have kind file_edit, not %s", d.Kind)
	}
	if d.Paths == nil {
		bad("paths are undeclared (declare guard.NoPaths() for a tool without path arguments)")
	}
	targets, sources := 0, 0
	var seen []string
	for _, p := range d.Paths {
		if p.Name == "" {
			bad("a path argument has no name")
		}
		if slices.Contains(seen, foldKey(p.Name)) {
			bad("path argument %q is declared twice", p.Name)
		}
		seen = append(seen, foldKey(p.Name))
		switch p.Role {
		case Source:
			sources++
		case Target:
			targets++
		default:
			bad("path argument %q: role %q is not source or target", p.Name, p.Role)
		}
	}
	if changeKinds[d.Kind] && (d.Class == ClassMutating || d.Class == ClassPlanMutating) && targets == 0 {
		bad("a mutating %s tool declares no target path", d.Kind)
	}
	if d.Kind == KindMove && (sources != 1 || targets != 1) {
		bad("a move declares one source and one target, not %d and %d", sources, targets)
	}
	if d.Class == ClassReadOnly && targets > 0 {
		bad("a read-only tool declares a target path")
	}
	switch d.Interaction {
	case Unattended, WaitsOnHuman, SwitchesMode:
	default:
		bad("interaction %q is not one of unattended, waits_on_human, switches_mode", d.Interaction)
	}
	if !knownReach(d.Reach) {
		bad("reach %q is not one of workspace, network, process, editor", d.Reach)
	}
	switch d.Plan {
	case OfferedInPlan:
		if d.Class == ClassMutating && !changeKinds[d.Kind] {
			bad("offered in plan mode, where the guard refuses every %s call", d.Kind)
		}
	case BuildOnly:
	default:
		bad("plan_mode %q is not one of plan_and_build, build_only", d.Plan)
	}
	return errors.Join(errs...)
}

// Tools is the set of declared tools the guard knows. It is immutable and
// safe for concurrent use; a tool that is not in it is refused in every mode.
type Tools struct {
	byName map[string]Decl
	order  []string
}

// NewTools checks every declaration and returns the set, or an error naming
// each tool whose declaration is incomplete and each name declared twice.
// The agent builds it at start-up from its tool registry.
func NewTools(decls ...Decl) (*Tools, error) {
	t := &Tools{byName: make(map[string]Decl, len(decls))}
	var errs []string
	for _, d := range decls {
		if err := d.Check(); err != nil {
			errs = append(errs, fmt.Sprintf("%q: %s", d.Name, strings.ReplaceAll(err.Error(), "\n", "; ")))
			continue
		}
		if d.Name == SystemActor {
			errs = append(errs, fmt.Sprintf("%q is agentls's own identity (SystemActor), not a tool name", d.Name))
			continue
		}
		if _, dup := t.byName[d.Name]; dup {
			errs = append(errs, fmt.Sprintf("%q is declared twice", d.Name))
			continue
		}
		d.Paths = slices.Clone(d.Paths)
		t.byName[d.Name] = d
		t.order = append(t.order, d.Name)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("guard: %d tool declaration(s) the guard cannot judge: %s", len(errs), strings.Join(errs, "; "))
	}
	return t, nil
}

// Lookup returns the declaration of a tool by its exact, model-facing name,
// and false for a tool the set does not hold. A nil set holds no tool.
func (t *Tools) Lookup(name string) (Decl, bool) {
	if t == nil {
		return Decl{}, false
	}
	d, ok := t.byName[name]
	if ok {
		d.Paths = slices.Clone(d.Paths)
	}
	return d, ok
}

// All returns every declaration, in the order given to NewTools.
func (t *Tools) All() []Decl {
	if t == nil {
		return nil
	}
	out := make([]Decl, 0, len(t.order))
	for _, n := range t.order {
		d, _ := t.Lookup(n)
		out = append(out, d)
	}
	return out
}

// declared returns the declaration the guard judges tool by, or the refusal
// of a tool it does not know or cannot judge (in every mode).
func (g *Guard) declared(st State, tool string) (Decl, *Refusal) {
	if isSystem(st, tool) {
		return systemDecl, nil
	}
	d, ok := g.tools.Lookup(tool)
	if !ok {
		return Decl{}, g.unclassified(st, tool, fmt.Sprintf("%q is not a declared tool", tool))
	}
	if !st.Grant.Allows(tool) {
		return Decl{}, refuse(st, tool, d.Kind, ReasonNotGranted, "", st.Grant.hint())
	}
	if st.Grant != nil && st.planMode() && d.Class != ClassReadOnly {
		// A sub-agent's mode is its root's or narrower: in plan mode it
		// changes nothing, plans included (its root writes the plan).
		return Decl{}, g.planRefusal(st, tool, d.Kind, "", "a sub-agent changes nothing in plan mode, plans included")
	}
	if err := d.Check(); err != nil {
		// NewTools refuses such a declaration; fail closed all the same.
		return Decl{}, g.unclassified(st, tool, fmt.Sprintf("the declaration of %q is incomplete (%s)", tool, strings.ReplaceAll(err.Error(), "\n", "; ")))
	}
	return d, nil
}
