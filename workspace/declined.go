package workspace

import (
	"fmt"
	"strings"
)

// DeclinedChange is one change the user declined when reviewing an edit
// (review mode, docs/review.md).
type DeclinedChange struct {
	// Path is the file (workspace-relative; for a rename, its destination).
	Path string `json:"path"`
	// Change is what was declined: edit, create, rename or delete.
	Change ChangeKind `json:"change"`
	// From is a declined rename's source.
	From string `json:"from,omitempty"`
	// Partly is set when some of the file's edits were applied and some not:
	// the file is neither as it was nor as the change would make it.
	Partly bool `json:"partly,omitempty"`
}

// DeclinedError is an applier's answer when the user declined some or all
// of the changes it sent for review. The changes it does not list were
// applied.
type DeclinedError struct {
	Declined []DeclinedChange
	// All is set when nothing was applied.
	All bool
	// Reason says how the user declined ("unchecked in the editor's
	// preview", "rejected when asked", …).
	Reason string
}

func (e *DeclinedError) Error() string {
	parts := make([]string, 0, len(e.Declined))
	for _, d := range e.Declined {
		p := string(d.Change) + " " + d.Path
		if d.From != "" {
			p = fmt.Sprintf("rename %s to %s", d.From, d.Path)
		}
		if d.Partly {
			p += " (partly: read the file again)"
		}
		parts = append(parts, p)
	}
	what := "some of this change"
	if e.All {
		what = "this change; nothing of it was applied"
	}
	msg := fmt.Sprintf("the user declined %s (%s): %s", what, e.Reason, strings.Join(parts, "; "))
	return msg + ". Do not make the declined changes again unless the user asks for them."
}
