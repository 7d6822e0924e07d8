package workspace

import (
	"errors"
	"fmt"
)

// ErrBufferLost is the error of a read or an edit of a document whose
// editor buffer agentls lost track of: a textDocument/didChange could not
// be applied (its range lies outside the text agentls had), so agentls no
// longer knows what the buffer holds. Neither the text it had nor the disk
// is the buffer: reading either, or sending an edit made for either, would
// give the agent text the user does not have and could land an edit on the
// wrong lines. The document is known again after a didChange with the whole
// text, a didSave with the text, or a new didOpen.
var ErrBufferLost = errors.New("the editor's buffer is out of sync")

// Lost returns why the editor's buffer of abs is out of sync, or "" when it
// is not (or abs is not open).
func (o *Overlay) Lost(abs string) string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if d, ok := o.docs[o.keyLocked(abs)]; ok && d.open {
		return d.lost
	}
	return ""
}

// lostError is the error reading or editing p gives while its buffer is
// lost, nil otherwise.
func (o *Overlay) lostError(p Path) error {
	reason := o.Lost(p.Abs)
	if reason == "" {
		return nil
	}
	return fmt.Errorf("%s is out of sync with the editor's buffer, so agentls does not know its text (%s); "+
		"the user must save it in the editor, or close and reopen it, before it can be read or edited: %w", p.Rel, reason, ErrBufferLost)
}
