package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/workspace"
)

// The wire shapes of a WorkspaceEdit (LSP 3.17), built by hand so that the
// exact operations that leave the server can be checked by the guard.
type (
	wsEdit struct {
		Changes         map[string][]workspace.TextEdit `json:"changes,omitempty"`
		DocumentChanges []any                           `json:"documentChanges,omitempty"`
	}
	textDocumentEdit struct {
		TextDocument versionedDoc         `json:"textDocument"`
		Edits        []workspace.TextEdit `json:"edits"`
	}
	versionedDoc struct {
		URI     string `json:"uri"`
		Version *int32 `json:"version"`
	}
	createFile struct {
		Kind    string          `json:"kind"` // "create"
		URI     string          `json:"uri"`
		Options map[string]bool `json:"options,omitempty"`
	}
	renameFile struct {
		Kind    string          `json:"kind"` // "rename"
		OldURI  string          `json:"oldUri"`
		NewURI  string          `json:"newUri"`
		Options map[string]bool `json:"options,omitempty"`
	}
	deleteFile struct {
		Kind    string          `json:"kind"` // "delete"
		URI     string          `json:"uri"`
		Options map[string]bool `json:"options,omitempty"`
	}
	applyEditResult struct {
		Applied       bool    `json:"applied"`
		FailureReason *string `json:"failureReason"`
	}
)

// editRoute says how a change reaches the workspace.
type editRoute int

const (
	routeDisk editRoute = iota
	routeClient
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
	ws := s.workspace()
	for _, c := range req.Changes {
		if s.routeOf(c) == routeDisk {
			if err := host.WriteChange(ws, c, req.Check); err != nil {
				return err
			}
			continue
		}
		edit := s.workspaceEdit(c)
		ops, err := opsOfEdit(edit)
		if err != nil {
			return err
		}
		if err := req.Check(ops); err != nil {
			return err
		}
		var res applyEditResult
		params := map[string]any{"label": req.Label, "edit": edit}
		if err := s.callEditor(ctx, "workspace/applyEdit", params, &res); err != nil {
			return fmt.Errorf("the editor did not apply the edit to %s: %w", c.Path.Rel, err)
		}
		if !res.Applied {
			reason := "no reason given"
			if res.FailureReason != nil && *res.FailureReason != "" {
				reason = *res.FailureReason
			}
			return fmt.Errorf("the editor refused the edit to %s: %s", c.Path.Rel, reason)
		}
		if c.Kind == workspace.ChangeEdit || c.Kind == workspace.ChangeCreate {
			ws.Overlay().SetApplied(c.Path.Abs, c.After)
		}
	}
	return nil
}

// routeOf decides whether the editor or the server applies a change
// (PROTOCOL.md §3 workspace/applyEdit, config `edits`).
func (s *Server) routeOf(c workspace.Change) editRoute {
	mode := s.currentConfig().Edits
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if mode == "disk" || (mode != "client" && !caps.applyEdit) {
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
func (s *Server) workspaceEdit(c workspace.Change) wsEdit {
	s.mu.Lock()
	docChanges := s.caps.documentChanges
	s.mu.Unlock()
	uri := host.URIOfPath(c.Path.Abs)
	switch c.Kind {
	case workspace.ChangeCreate:
		edit := wsEdit{DocumentChanges: []any{createFile{Kind: "create", URI: uri, Options: map[string]bool{"ignoreIfExists": false}}}}
		if c.After != "" {
			edit.DocumentChanges = append(edit.DocumentChanges, textDocumentEdit{
				TextDocument: versionedDoc{URI: uri},
				Edits:        []workspace.TextEdit{{NewText: c.After}},
			})
		}
		return edit
	case workspace.ChangeRename:
		return wsEdit{DocumentChanges: []any{renameFile{Kind: "rename", OldURI: host.URIOfPath(c.From.Abs), NewURI: uri}}}
	case workspace.ChangeDelete:
		opts := map[string]bool{}
		if c.Recursive {
			opts["recursive"] = true
		}
		return wsEdit{DocumentChanges: []any{deleteFile{Kind: "delete", URI: uri, Options: opts}}}
	}
	// A text edit names the document as the editor does (its buffer may be
	// open through a symlink) with the version the edits were computed on.
	overlay := s.workspace().Overlay()
	uri = host.URIOfPath(overlay.EditorName(c.Path.Abs))
	if !docChanges {
		return wsEdit{Changes: map[string][]workspace.TextEdit{uri: c.Edits}}
	}
	version := c.Version // the plan owner's (agent/plan_owner.go)
	if _, v, open := overlay.Get(c.Path.Abs); open && version == nil {
		version = &v
	}
	return wsEdit{DocumentChanges: []any{textDocumentEdit{TextDocument: versionedDoc{URI: uri, Version: version}, Edits: c.Edits}}}
}

// opsOfEdit lists every operation of a WorkspaceEdit as it will be sent, by
// re-reading its JSON: what the guard checks is exactly what leaves.
func opsOfEdit(edit wsEdit) ([]guard.Op, error) {
	b, err := json.Marshal(edit)
	if err != nil {
		return nil, fmt.Errorf("encode edit: %w", err)
	}
	var wire struct {
		Changes         map[string]json.RawMessage `json:"changes"`
		DocumentChanges []struct {
			Kind         string `json:"kind"`
			URI          string `json:"uri"`
			OldURI       string `json:"oldUri"`
			NewURI       string `json:"newUri"`
			TextDocument *struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
		} `json:"documentChanges"`
	}
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
