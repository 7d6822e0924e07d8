package server

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/workspace"
)

// An agent edit of an open file the editor cannot hold as it is (bytes
// that are not UTF-8, a BOM, lone CR or mixed line breaks: editors decode
// such a file and a save re-encodes it) goes on disk, applied to the
// file's bytes, when the buffer holds no unsaved change: the editor reloads
// the file (VS Code does so for a document without unsaved changes), the
// commands the agent runs next see the edit, and a rewind restores the
// bytes. A buffer with the user's unsaved text is never written behind:
// the edit goes to it, as before, and stays unsaved there
// (docs/editors.md, "Files an editor cannot hold as they are").

// bytesEdit returns the file's bytes now and the bytes to write for c when
// c is such an edit: an edit of an open file whose bytes the editor cannot
// hold as they are, whose buffer (c.Before) is the file as decoded, and
// whose result can be written in the file's form, and that is not a plan
// document. ok is false otherwise
// (the edit goes on as any other).
func (s *Server) bytesEdit(c workspace.Change) (disk, data []byte, ok bool) {
	if c.Kind != workspace.ChangeEdit || len(c.Edits) == 0 || !s.isOpen(c) || s.isPlanDoc(c.Path) {
		// An open plan changes only in its buffer (edits_save.go).
		return nil, nil, false
	}
	fi, err := os.Lstat(c.Path.Abs)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, nil, false
	}
	disk, err = os.ReadFile(c.Path.Abs)
	if err != nil || workspace.FormOf(string(disk)).EditorSafe() {
		return nil, nil, false
	}
	if data, ok = workspace.EditBytes(disk, c.Before, c.After); !ok {
		slog.Debug("edit of a file the editor cannot hold as it is goes to its buffer: the buffer is not the file (unsaved text) or the edit cannot be written in its form", "path", c.Path.Rel)
		return nil, nil, false
	}
	return disk, data, true
}

// applyBytes writes c, an edit bytesEdit took (disk: the file's bytes it
// read, data: the bytes to write), on disk after the guard's last check on
// its operation (the one the editor's edit would have had), and records
// its text as the buffer's until the editor reloads the file.
func (s *Server) applyBytes(ctx context.Context, req agent.ApplyRequest, c workspace.Change, disk, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := req.Check(host.OpsOfChange(c)); err != nil {
		return err
	}
	onDisk := workspace.Change{Kind: workspace.ChangeEdit, Path: c.Path, Before: string(disk), After: string(data), Edits: c.Edits}
	if err := s.workspace().ApplyToDisk(onDisk); err != nil {
		return fmt.Errorf("write %s: %w", c.Path.Rel, err)
	}
	s.workspace().Overlay().WrittenBehind(c.Path.Abs, c.After)
	slog.Debug("wrote the edit of a file the editor cannot hold as it is on disk, byte for byte", "path", c.Path.Rel, "bytes", len(data))
	return nil
}
