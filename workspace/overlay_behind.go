package workspace

import "strings"

// WrittenBehind records an agent edit that agentls wrote on disk under an
// open buffer holding no unsaved change (a file the editor cannot hold as
// it is: server/edits_bytes.go): text, the edit's result as the buffer
// shows it, is the file's current text until the editor reports the
// document again, and it is not unsaved (IsDirty: the disk has it). The
// editor's next report of that very text (VS Code reloading the file it
// saw change) leaves the buffer saved. A document that is not open is
// left alone: the disk is its truth.
func (o *Overlay) WrittenBehind(abs, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	d, ok := o.docs[o.keyLocked(abs)]
	if !ok || !d.open {
		return
	}
	d.applied, d.hasApplied, d.unreported, d.behind = text, true, d.text != text, true
}

// reloaded tells whether text, the buffer after a didChange (known: it
// could be applied), is the editor reloading the file agentls wrote behind
// a saved buffer: the text written, line breaks aside (an editor makes them
// one kind when it decodes the file).
func (d *overlayDoc) reloaded(text string, known bool) bool {
	return known && d.behind && d.hasApplied && !d.dirty && oneBreak(text) == oneBreak(d.applied)
}

// oneBreak is s with every line break "\n".
func oneBreak(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
