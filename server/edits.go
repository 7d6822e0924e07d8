package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/workspace"
)

// editRoute says how a change reaches the workspace.
type editRoute int

const (
	routeDisk editRoute = iota
	routeClient
	// routeBytes: on disk, applied to the file's bytes under its open,
	// saved buffer (edits_bytes.go).
	routeBytes
)

// The server is the agent's Applier.
var _ agent.Applier = (*Server)(nil)

// Apply applies the agent's changes: through `workspace/applyEdit` when the
// editor can take them (undoable, visible), else atomically on disk. The
// guard's last check runs on the exact operations, right before they leave.
func (s *Server) Apply(ctx context.Context, req agent.ApplyRequest) error {
	if req.Whole {
		return s.applyWhole(ctx, req) // edits_whole.go
	}
	if req.Review {
		return s.applyReviewed(ctx, req) // edits_review.go
	}
	ws := s.workspace()
	for _, c := range req.Changes {
		if disk, data, ok := s.bytesEdit(c); ok { // routeBytes, the file read once
			if err := s.applyBytes(ctx, req, c, disk, data); err != nil { // edits_bytes.go
				return err
			}
			continue
		}
		route := s.routeOther(c)
		if route == routeDisk {
			if err := host.WriteChange(ws, c, req.Check); err != nil {
				return err
			}
			continue
		}
		c, err := s.settled(ctx, c) // edits_settle.go
		if err != nil {
			return err
		}
		if err := s.sendEdit(ctx, req, s.workspaceEdit(c), " to "+c.Path.Rel); err != nil {
			return err
		}
		s.appliedByEditor(c) // edits_save.go
	}
	return nil
}

// sendEdit sends edit with workspace/applyEdit once the guard's last check
// passed on its exact operations; target (" to path", or "") names what it
// changes in the errors.
func (s *Server) sendEdit(ctx context.Context, req agent.ApplyRequest, edit lspwire.WorkspaceEdit, target string) error {
	ops, err := opsOfEdit(edit)
	if err != nil {
		return err
	}
	s.afterEarlierReplies(ctx) // reply_order.go; before the last check, which nothing may follow but the send
	if err := req.Check(ops); err != nil {
		return err
	}
	var res lspwire.ApplyEditResult
	params := map[string]any{"label": req.Label, "edit": edit}
	if err := s.callEditor(ctx, "workspace/applyEdit", params, &res); err != nil {
		return fmt.Errorf("the editor did not apply the edit%s: %w", target, err)
	}
	if !res.Applied {
		reason := "no reason given"
		if res.FailureReason != nil && *res.FailureReason != "" {
			reason = *res.FailureReason
		}
		return fmt.Errorf("the editor refused the edit%s: %s", target, reason)
	}
	return nil
}

// routeOf decides whether the editor or the server applies a change
// (PROTOCOL.md §3 workspace/applyEdit, config `edits`): an edit of an open
// file the editor cannot hold as it is goes on disk byte for byte while
// its buffer is saved (edits_bytes.go), whatever `edits` says.
func (s *Server) routeOf(c workspace.Change) editRoute {
	if _, _, ok := s.bytesEdit(c); ok {
		return routeBytes
	}
	return s.routeOther(c)
}

// routeOther is routeOf for a change that is not a bytes edit.
func (s *Server) routeOther(c workspace.Change) editRoute {
	mode := s.currentConfig().Edits
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if mode == "disk" || (mode != "client" && !caps.applyEdit) {
		return routeDisk
	}
	if c.Kind == workspace.ChangeEdit && !s.isOpen(c) && !workspace.FormOf(c.Before).EditorSafe() {
		// An editor would open the file by decoding it (bytes that are not
		// UTF-8 replaced, its BOM dropped, line breaks made one kind) and
		// save it so: written on disk, the edit changes only its bytes.
		return routeDisk
	}
	if mode != "client" && !caps.savesEdits && !s.isOpen(c) {
		// A plain editor would keep the edit in a hidden, unsaved buffer
		// (:qa then refuses to quit): the server writes files it has not open.
		return routeDisk
	}
	switch c.Kind {
	case workspace.ChangeMkdir:
		return routeDisk // LSP has no folder creation
	case workspace.ChangeEdit:
		if len(c.Edits) == 0 {
			return routeDisk // touch of an existing file: only its mtime changes
		}
		return routeClient
	case workspace.ChangeCreate:
		if caps.documentChanges && caps.resourceOps["create"] {
			return routeClient
		}
	case workspace.ChangeRename:
		if caps.documentChanges && caps.resourceOps["rename"] {
			return routeClient
		}
	case workspace.ChangeDelete:
		if caps.documentChanges && caps.resourceOps["delete"] {
			return routeClient
		}
	}
	return routeDisk
}

// isOpen tells whether the editor has the change's file open (for a
// rename: its source).
func (s *Server) isOpen(c workspace.Change) bool {
	p := c.Path
	if c.Kind == workspace.ChangeRename {
		p = c.From
	}
	_, _, open := s.workspace().Overlay().Get(p.Abs)
	return open
}

// workspaceEdit builds the WorkspaceEdit for a change routed to the editor.
func (s *Server) workspaceEdit(c workspace.Change) lspwire.WorkspaceEdit {
	s.mu.Lock()
	docChanges := s.caps.documentChanges
	s.mu.Unlock()
	uri := host.URIOfPath(c.Path.Abs)
	switch c.Kind {
	case workspace.ChangeCreate:
		edit := lspwire.WorkspaceEdit{DocumentChanges: []lspwire.DocumentChange{{Kind: "create", URI: uri, Options: map[string]bool{"ignoreIfExists": false}}}}
		if c.After != "" {
			edit.DocumentChanges = append(edit.DocumentChanges, lspwire.DocumentChange{
				TextDocument: &lspwire.VersionedDoc{URI: uri},
				Edits:        []workspace.TextEdit{{NewText: c.After}},
			})
		}
		return edit
	case workspace.ChangeRename:
		return lspwire.WorkspaceEdit{DocumentChanges: []lspwire.DocumentChange{{Kind: "rename", OldURI: host.URIOfPath(c.From.Abs), NewURI: uri}}}
	case workspace.ChangeDelete:
		opts := map[string]bool{}
		if c.Recursive {
			opts["recursive"] = true
		}
		return lspwire.WorkspaceEdit{DocumentChanges: []lspwire.DocumentChange{{Kind: "delete", URI: uri, Options: opts}}}
	}
	// A text edit names the document as the editor does (its buffer may be
	// open through a symlink) with the version the edits were computed on.
	overlay := s.workspace().Overlay()
	uri = host.URIOfPath(overlay.EditorName(c.Path.Abs))
	if !docChanges {
		return lspwire.WorkspaceEdit{Changes: map[string][]workspace.TextEdit{uri: c.Edits}}
	}
	version := c.Version // the plan owner's (agent/plan_owner.go)
	if _, v, open := overlay.Get(c.Path.Abs); open && version == nil {
		version = &v
	}
	return lspwire.WorkspaceEdit{DocumentChanges: []lspwire.DocumentChange{{TextDocument: &lspwire.VersionedDoc{URI: uri, Version: version}, Edits: c.Edits}}}
}

// opsOfEdit lists every operation of a WorkspaceEdit as it will be sent, by
// re-reading its JSON: what the guard checks is exactly what leaves.
func opsOfEdit(edit lspwire.WorkspaceEdit) ([]guard.Op, error) {
	b, err := json.Marshal(edit)
	if err != nil {
		return nil, fmt.Errorf("encode edit: %w", err)
	}
	var wire lspwire.WorkspaceEdit
	if err := json.Unmarshal(b, &wire); err != nil {
		return nil, fmt.Errorf("decode edit: %w", err)
	}
	var ops []guard.Op
	path := func(u string) (string, error) {
		p, err := host.PathOfURI(u)
		if err != nil {
			return "", fmt.Errorf("edit target: %w", err)
		}
		return p, nil
	}
	for u := range wire.Changes {
		p, err := path(u)
		if err != nil {
			return nil, err
		}
		ops = append(ops, guard.Op{Kind: workspace.ChangeEdit, Path: p})
	}
	for _, dc := range wire.DocumentChanges {
		var op guard.Op
		var err error
		switch {
		case dc.TextDocument != nil:
			op.Kind = workspace.ChangeEdit
			op.Path, err = path(dc.TextDocument.URI)
		case dc.Kind == "create":
			op.Kind = workspace.ChangeCreate
			op.Path, err = path(dc.URI)
		case dc.Kind == "delete":
			op.Kind = workspace.ChangeDelete
			op.Path, err = path(dc.URI)
		case dc.Kind == "rename":
			op.Kind = workspace.ChangeRename
			if op.From, err = path(dc.OldURI); err == nil {
				op.Path, err = path(dc.NewURI)
			}
		default:
			return nil, fmt.Errorf("unknown document change kind %q", dc.Kind)
		}
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}
