package host

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// WriteChange writes one change to disk after the guard's last check on its
// operations (check is agent.ApplyRequest.Check: it reads the session's
// mode when it is called). An open editor buffer of the file is told its
// new content, so later edits are computed against it.
func WriteChange(ws *workspace.Workspace, c workspace.Change, check func([]guard.Op) error) error {
	if err := check(OpsOfChange(c)); err != nil {
		return err
	}
	if err := ws.ApplyToDisk(c); err != nil {
		return fmt.Errorf("write %s: %w", c.Path.Rel, err)
	}
	if c.Kind == workspace.ChangeEdit || c.Kind == workspace.ChangeCreate {
		if _, _, open := ws.Overlay().Get(c.Path.Abs); open {
			ws.Overlay().SetApplied(c.Path.Abs, c.After)
		}
	}
	return nil
}

// OpsOfChange lists the operations of a change as the guard checks them.
func OpsOfChange(c workspace.Change) []guard.Op {
	op := guard.Op{Kind: c.Kind, Path: c.Path.Abs}
	if c.Kind == workspace.ChangeRename {
		op.From = c.From.Abs
	}
	return []guard.Op{op}
}

// DiskApplier applies a request's changes to the workspace's files, in
// order, each after the guard's last check; it stops at the first refusal
// or failure (the changes before it stay written).
type DiskApplier struct{ Workspace *workspace.Workspace }

// Apply writes req's changes to disk.
func (d DiskApplier) Apply(ctx context.Context, req agent.ApplyRequest) error {
	for _, c := range req.Changes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := WriteChange(d.Workspace, c, req.Check); err != nil {
			return err
		}
	}
	return nil
}
