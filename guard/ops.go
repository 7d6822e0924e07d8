package guard

import (
	"fmt"

	"github.com/agentls/agentls/workspace"
)

// Op is one operation of a change as it leaves the server, with raw paths:
// absolute file paths (as in the WorkspaceEdit or the disk write),
// workspace-relative paths, or file:// URIs.
type Op struct {
	Kind workspace.ChangeKind
	// Path is the target (for a rename, the destination).
	Path string
	// From is the source of a rename; empty for every other kind.
	From string
}

// CheckOps is layer 2: the last check on every WorkspaceEdit or disk change
// before it leaves the server, with the mode read now; nil means allowed.
// Every path is resolved again from scratch. tool is the declared tool the
// operations come from (an unknown tool is refused). In plan mode edits and
// creates must target `.plan` files, renames must have `.plan` files at both
// ends, deletes follow rm's rule and mkdirs mkdir's; tools that run commands
// may not change anything. In every mode an operation on a protected folder
// (`.agentls/`, `.git/`, …), a path the workspace cannot resolve and an
// unknown kind of operation are refused.
func (g *Guard) CheckOps(st State, tool string, ops []Op) *Refusal {
	st = g.effective(st)
	tc, r := g.declared(st, tool)
	if r != nil {
		return r
	}
	if st.planMode() && tc.Class == ClassMutating && (tc.Kind == KindExecute || tc.Kind == KindOther) {
		return g.planRefusal(st, tool, tc.Kind, "", "")
	}
	for _, op := range ops {
		kind := kindOfChange(op.Kind)
		targets := []target{{role: "path", given: op.Path}}
		switch op.Kind {
		case workspace.ChangeRename:
			targets = []target{{role: "from", given: op.From, source: true}, {role: "path", given: op.Path}}
		case workspace.ChangeEdit, workspace.ChangeCreate, workspace.ChangeDelete, workspace.ChangeMkdir:
			if op.From != "" {
				return g.badTarget(st, tool, kind, op.From, fmt.Errorf("operation %q has a source (%q); only a rename has one", op.Kind, op.From))
			}
		default:
			return g.badTarget(st, tool, kind, op.Path, fmt.Errorf("unknown operation kind %q", op.Kind))
		}
		if r := g.decide(st, tool, kind, op.Kind, targets); r != nil {
			return r
		}
	}
	return nil
}

// CheckChanges is CheckOps on the operations of computed changes (their
// resolved absolute paths).
func (g *Guard) CheckChanges(st State, tool string, changes []workspace.Change) *Refusal {
	ops := make([]Op, 0, len(changes))
	for _, c := range changes {
		op := Op{Kind: c.Kind, Path: c.Path.Abs}
		if c.Kind == workspace.ChangeRename {
			op.From = c.From.Abs
		}
		ops = append(ops, op)
	}
	return g.CheckOps(st, tool, ops)
}

// kindOfChange is the refusal kind of an operation.
func kindOfChange(k workspace.ChangeKind) Kind {
	switch k {
	case workspace.ChangeEdit, workspace.ChangeCreate:
		return KindFileEdit
	case workspace.ChangeRename:
		return KindMove
	case workspace.ChangeDelete:
		return KindDelete
	case workspace.ChangeMkdir:
		return KindMkdir
	}
	return KindOther
}
