package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/agentls/agentls/workspace"
)

// reportWait bounds how long an edit waits for a plain editor to report
// agentls's previous edit of the same document (eglot sends didChange when
// idle, half a second by default).
const reportWait = 5 * time.Second

// settled returns c ready to send to a plain editor (no agentls plugin):
// when the editor has not reported agentls's previous edit of c's open
// document yet, it waits (bounded by reportWait and ctx) for its
// didChange; then it names the version the editor reported when its buffer
// is the text c was made for. Text the user typed meanwhile makes c stale:
// it is refused (the model reads the file again) rather than sent to land
// on text it was not made for, and so is an editor that does not report in
// time (its stale version would be refused by the editor anyway). Our
// plugins report versions as they apply (edits.go), and any other change
// passes as is.
func (s *Server) settled(ctx context.Context, c workspace.Change) (workspace.Change, error) {
	s.mu.Lock()
	plugin := s.caps.agentClient
	s.mu.Unlock()
	overlay := s.workspace().Overlay()
	if plugin || c.Kind != workspace.ChangeEdit || !s.isOpen(c) {
		return c, nil
	}
	// Also when the version is known now: the change may have been made
	// (and its version noted, agent/plan_owner.go) before the editor's
	// report came in, so the version it carries can be stale while its
	// text is the buffer's.
	text, version, known := overlay.WaitReported(ctx, c.Path.Abs, reportWait)
	if !known {
		slog.Info("edit not sent: the editor did not report its buffer in time", "path", c.Path.Rel, "wait", reportWait)
		if err := ctx.Err(); err != nil {
			return c, err
		}
		return c, fmt.Errorf("the editor has not reported %s since agentls's last edit of it (%s): the edit is not sent, so that it cannot land on text it was not made for; read the file again", c.Path.Rel, reportWait)
	}
	if text != c.Before {
		slog.Info("edit not sent: the buffer is not the text it was made for", "path", c.Path.Rel, "buffer", len(text), "madeFor", len(c.Before), "version", version)
		return c, fmt.Errorf("%s changed in the editor while the agent edited it: the edit is not sent; read the file again", c.Path.Rel)
	}
	c.Version = &version
	return c, nil
}
