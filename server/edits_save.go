package server

import (
	"io/fs"
	"log/slog"
	"os"

	"github.com/agentls/agentls/workspace"
)

// appliedByEditor records a change the editor applied to a buffer (the
// overlay holds its text until the editor reports the document again) and,
// for a plain editor (no experimental.agent, so no savesEdits), writes the
// file to disk too: a plain editor leaves the edited buffer unsaved, so
// commands the agent runs next (go test) would read the old file. The
// buffer then shows as modified while its text is what the disk holds
// (docs/editors.md says what each editor shows). A failed write leaves the
// buffer unsaved, as before, and `run` warns the model of it.
//
// A plan document is the exception: its open buffer changes only through
// the editor. No command reads a plan, and a write behind the buffer made
// the editor see its file changed on disk (Emacs asked "greet.plan changed
// on disk; really edit the buffer?" when the user saved the plan the agent
// had rewritten); the user saves the plan like any buffer.
func (s *Server) appliedByEditor(c workspace.Change) {
	if c.Kind != workspace.ChangeEdit && c.Kind != workspace.ChangeCreate {
		return
	}
	overlay := s.workspace().Overlay()
	overlay.SetApplied(c.Path.Abs, c.After)
	s.mu.Lock()
	// Our plugins declare savesEdits as their user set it (the Neovim
	// plugin's save_edits = false keeps edits unsaved on purpose).
	plugin, saves := s.caps.agentClient, s.caps.savesEdits
	s.mu.Unlock()
	if saves || plugin {
		return
	}
	if s.isPlanDoc(c.Path) {
		slog.Debug("left the edited plan to the editor's buffer (not written behind it)", "path", c.Path.Rel)
		return
	}
	perm := fs.FileMode(0o644)
	data := []byte(c.After)
	if fi, err := os.Stat(c.Path.Abs); err == nil {
		if !fi.Mode().IsRegular() {
			slog.Warn("not saving the edited buffer: the file on disk is not a regular file", "path", c.Path.Rel)
			return
		}
		perm = fi.Mode().Perm()
		// In the file's form (BOM, line breaks, Latin-1), as the editor's
		// save would write it: not the buffer's text re-encoded.
		disk, err := os.ReadFile(c.Path.Abs)
		if err != nil {
			slog.Warn("not saving the edited buffer: the file cannot be read", "path", c.Path.Rel, "err", err)
			return
		}
		var ok bool
		if data, ok = workspace.EncodeLike(disk, c.Before, c.After); !ok {
			slog.Warn("not saving the edited buffer: its text is not the file's in a form agentls knows (encoding, line breaks); it stays unsaved in the editor", "path", c.Path.Rel)
			return
		}
	}
	if err := workspace.WriteFileAtomic(c.Path.Abs, data, perm); err != nil {
		slog.Warn("could not save the edited buffer to disk; it stays unsaved in the editor", "path", c.Path.Rel, "err", err)
		return
	}
	after := c.After
	overlay.Saved(c.Path.Abs, &after) // the disk has the buffer's text now
	slog.Debug("saved the edited buffer for an editor without savesEdits", "path", c.Path.Rel)
}

// isPlanDoc tells whether p is a plan document (the guard's plan
// predicate); false before the agent is up.
func (s *Server) isPlanDoc(p workspace.Path) bool {
	h := s.hosted()
	if h == nil {
		return false
	}
	m := h.Manager()
	if m == nil {
		return false
	}
	return m.Guard().IsPlanTarget(p)
}
