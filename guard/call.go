package guard

import (
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/workspace"
)

// CheckCall is layer 1: it decides, before a tool runs, whether the call may
// go ahead, from the tool's declaration and its raw JSON arguments; nil means
// allowed. A tool the guard does not know, or whose declaration is
// incomplete, is refused in every mode. Read-only tools are allowed in every
// mode, except on agentls's state and configuration known by path
// (WithState, WithConfig), which no tool may read. A mutating tool whose kind changes files (file_edit, move, delete,
// mkdir) is judged on its declared path arguments: the targets (and a move's
// source), each resolved from scratch; a missing one is refused unless
// declared optional (the tool then picks its own path, which layer 2
// checks). In plan mode writes are allowed only on a `.plan` file, a move
// only from a `.plan` file to a `.plan` file, mkdir only at or below the
// plans folder, rm only of a `.plan` file or an empty folder inside it; any
// other mutating tool (run) is refused; a target's missing parent folders
// count as mkdirs. In build mode the rest is allowed. In every mode a change
// to a protected folder or file (protected.go: `.agentls/`, `.git/`,
// agentls's configuration, …) is refused.
func (g *Guard) CheckCall(st State, tool string, args json.RawMessage) *Refusal {
	st = g.effective(st)
	d, r := g.declared(st, tool)
	if r != nil {
		return r
	}
	if g.networkRefused(st, d) {
		return g.planRefusal(st, tool, d.Kind, "", networkHint(d))
	}
	if d.Class == ClassReadOnly {
		return g.forRead().readRefusal(st, tool, d, args)
	}
	var change workspace.ChangeKind
	switch d.Kind {
	case KindFileEdit:
		change = workspace.ChangeEdit
	case KindMove:
		change = workspace.ChangeRename
	case KindDelete:
		change = workspace.ChangeDelete
	case KindMkdir:
		change = workspace.ChangeMkdir
	default: // run, and any mutating tool without file targets
		if st.planMode() {
			return g.planRefusal(st, tool, d.Kind, "", "")
		}
		return nil
	}
	a, err := parseArgs(args)
	if err != nil {
		return g.badTarget(st, tool, d.Kind, "", err)
	}
	var targets []target
	for _, p := range d.Paths {
		if p.Role != Target && change != workspace.ChangeRename {
			continue // read, not changed
		}
		v, present, err := a.str(p.Name)
		if err != nil {
			return g.badTarget(st, tool, d.Kind, "", err)
		}
		if p.Optional && (!present || v == "") {
			continue // the tool picks its own path; layer 2 checks it
		}
		if !present {
			return g.badTarget(st, tool, d.Kind, "", fmt.Errorf("argument %q is missing", p.Name))
		}
		targets = append(targets, target{role: p.Name, given: v, source: p.Role == Source})
	}
	return g.decide(st, tool, d.Kind, change, targets)
}

// unclassified refuses a tool the guard does not know or cannot judge, in
// every mode.
func (g *Guard) unclassified(st State, tool, detail string) *Refusal {
	if st.planMode() {
		return g.planRefusal(st, tool, KindOther, "", detail)
	}
	return refuse(st, tool, KindOther, ReasonUnclassified, "", detail+"; only declared tools may run")
}
