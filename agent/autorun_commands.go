package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// What a command did to files the editor or shell runs by itself is put
// to the user after it (agent/tools/sentinel.go), the way a BUILD edit to
// one is asked before it applies (askToApply): one permission question of
// kind edit, Remove (the safe option, first) or Keep.

var _ tools.AutoRunConfirmer = (*env)(nil)

// autoRunWhyAfter is why the question is asked.
const autoRunWhyAfter = "Your editor or shell runs what these files name by itself (when you open the folder, enter it or commit), outside agentls's sandbox."

// ConfirmAutoRun asks whether to keep what the command in r did. A
// rejection, a dismissal, a timeout, a cancelled turn or an editor that
// cannot ask keeps nothing. The question shows every change and every
// setting Keep keeps; above permission.DocLines lines (or DocChars) they
// go into a generated document in the state folder, opened beside it.
func (e *env) ConfirmAutoRun(ctx context.Context, r tools.AutoRunReport) tools.AutoRunAnswer {
	s := e.s
	changes := autoRunChanges(r)
	req := permission.Request{
		SessionID: s.faceID(), ToolCallID: ToolCallID(ctx), Requester: s.requester("run"), Kind: agentproto.PermissionEdit,
		What: permission.ChangesShort(changes, func(p string) string { return p }), Reach: agentproto.ReachProcess, Done: r.Command, Changes: changes, Note: autoRunNoteAfter(r),
		Options: []agentproto.PermissionOption{permission.Opt(agentproto.RejectOnce, "Remove (restore)"), permission.Opt(agentproto.AllowOnce, "Keep")},
	}
	if permission.NeedsDocument(changes) {
		if doc, err := writeAutoRunDocument(s.m.stateDir, r.Command, changes); err != nil {
			slog.Warn("run: auto-run question document; the question lists every change", "err", err)
		} else {
			req.Document = doc
			defer s.m.showBeside(ctx, doc, "auto-run question document")()
		}
	}
	d, err := s.m.Permit(ctx, req)
	switch {
	case errors.Is(err, permission.ErrNoSurface):
		return tools.AutoRunAnswer{Why: "the editor cannot ask"}
	case err != nil && ctx.Err() != nil:
		return tools.AutoRunAnswer{Why: "the turn was cancelled"}
	case err != nil:
		return tools.AutoRunAnswer{Why: "not answered: " + err.Error()} // a timeout, an editor that failed to ask
	case d.Allowed():
		return tools.AutoRunAnswer{Keep: true}
	case d.Dismissed:
		return tools.AutoRunAnswer{Why: "dismissed when asked"}
	}
	return tools.AutoRunAnswer{Why: "the user chose Remove when asked"}
}

// cappedNote marks a change whose old content agentls could not keep.
const cappedNote = " (over the size limit of what agentls keeps before a command: its old content cannot be put back)"

// autoRunChanges are r's changes as the question lists them: each file
// with what happened to it (and whether its old content could be kept),
// and the settings it holds.
func autoRunChanges(r tools.AutoRunReport) []permission.Change {
	out := make([]permission.Change, len(r.Changes))
	for i, c := range r.Changes {
		what := c.What
		if c.Capped {
			what += cappedNote
		}
		out[i] = permission.Change{Path: c.Path, What: what, Details: c.Details}
	}
	return out
}

// autoRunNoteAfter says why the question is asked and what Remove does.
func autoRunNoteAfter(r tools.AutoRunReport) string {
	note := autoRunWhyAfter + " Remove undoes it: what the command created is deleted, what it changed or removed is put back as it was before the command."
	if slices.ContainsFunc(r.Changes, func(c tools.AutoRunChange) bool { return c.Capped }) {
		note += " Remove can only delete a file over the size limit when it is new."
	}
	return note
}

// writeAutoRunDocument writes every change of command (the question's
// list, in full) as a generated document in the state folder
// (permission.WriteDocument) and returns its path.
func writeAutoRunDocument(stateDir, command string, changes []permission.Change) (string, error) {
	list := permission.ChangesList(changes)
	sum := sha256.Sum256([]byte(command + "\x00" + list))
	var b strings.Builder
	fmt.Fprintf(&b, "# Keep what %s did?\n\n", permission.CodeSpan(questions.EscapeLine(command)))
	fmt.Fprintf(&b, "The command did this to files your editor or shell runs by itself (%d lines). "+
		"Keep, in the question beside this document, keeps all of it; Remove undoes it.\n\n", permission.ChangeLines(changes))
	b.WriteString(list + "\n")
	path, err := permission.WriteDocument(stateDir, "autorun-"+hex.EncodeToString(sum[:8]), b.String())
	if err != nil {
		return "", fmt.Errorf("auto-run question document: %w", err)
	}
	return path, nil
}
