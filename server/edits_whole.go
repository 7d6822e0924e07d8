package server

import (
	"context"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/workspace"
)

// applyWhole sends every change of req as one `workspace/applyEdit` (one
// Undo in the editor brings the state before it back), when the editor
// takes documentChanges and each change would go to it; otherwise it
// applies nothing and returns agent.ErrNotWhole (the caller writes the
// changes on disk). The guard's last check runs on the whole edit.
func (s *Server) applyWhole(ctx context.Context, req agent.ApplyRequest) error {
	s.mu.Lock()
	docChanges := s.caps.documentChanges
	s.mu.Unlock()
	if !docChanges || len(req.Changes) == 0 {
		return agent.ErrNotWhole
	}
	parts := make([][]lspwire.DocumentChange, 0, len(req.Changes))
	for _, c := range req.Changes {
		if s.routeOf(c) != routeClient || !holdsAsIs(c) {
			return agent.ErrNotWhole
		}
		c, err := s.settled(ctx, c) // edits_settle.go
		if err != nil {
			return err
		}
		parts = append(parts, s.workspaceEdit(c).DocumentChanges)
	}
	edit := lspwire.WorkspaceEdit{DocumentChanges: fileOpsFirst(parts)}
	if err := s.sendEdit(ctx, req, edit, ""); err != nil {
		return err
	}
	for _, c := range req.Changes {
		s.appliedByEditor(c) // edits_save.go
	}
	return nil
}

// holdsAsIs tells whether an editor given c's text holds and saves it as it
// is. A rewind restores a checkpoint's bytes: when they are not UTF-8 (JSON
// cannot carry them), start with a BOM (VS Code's text has none, and saves
// it again) or have CR or mixed line breaks (its buffer makes them one
// kind), the rewind is written on disk, open files too, and VS Code reloads
// a document without unsaved changes (docs/rewind.md, "Exact bytes").
func holdsAsIs(c workspace.Change) bool {
	if c.Kind != workspace.ChangeEdit && c.Kind != workspace.ChangeCreate {
		return true
	}
	return workspace.FormOf(c.After).EditorSafe()
}

// fileOpsFirst joins the document changes of several changes into one list:
// every resource operation (create, rename, delete) first, then every text
// edit, each kind in its order — when no two changes name the same file, so
// that the order between them does not matter; otherwise as given.
//
// VS Code applies a WorkspaceEdit as runs of consecutive changes of one kind
// and pushes one undo element per run. Text edits split by file operations
// become one single-file element per file, and such an element of a file
// closed in the editor is dropped from the undo stack once its model is
// disposed (after the save): one Undo then stops at it and undoes nothing.
// One run of text edits over several files is one multi-file element, which
// VS Code reopens closed files for on Undo (docs/rewind.md, "Undo").
func fileOpsFirst(parts [][]lspwire.DocumentChange) []lspwire.DocumentChange {
	owner := map[string]int{}
	var ops, texts []lspwire.DocumentChange
	for i, part := range parts {
		for _, dc := range part {
			for _, u := range []string{dc.URI, dc.OldURI, dc.NewURI, textURI(dc)} {
				if u == "" {
					continue
				}
				if j, ok := owner[u]; ok && j != i {
					var all []lspwire.DocumentChange
					for _, p := range parts {
						all = append(all, p...)
					}
					return all
				}
				owner[u] = i
			}
			if dc.TextDocument != nil {
				texts = append(texts, dc)
			} else {
				ops = append(ops, dc)
			}
		}
	}
	return append(ops, texts...)
}

// textURI is the document a text document edit names ("" for a resource operation).
func textURI(dc lspwire.DocumentChange) string {
	if dc.TextDocument == nil {
		return ""
	}
	return dc.TextDocument.URI
}
