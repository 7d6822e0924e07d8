package workspace

// VersionKnown reports whether the overlay knows the editor's version of an
// open document: false after an agent edit the editor applied until the
// editor reports the document again (didChange, or a new didOpen). An edit
// sent meanwhile names no version: the stale one would be refused (eglot:
// "Edits on 'x' require version 0, you have 1").
func (o *Overlay) VersionKnown(abs string) bool {
	o.mu.RLock()
	defer o.mu.RUnlock()
	d, ok := o.docs[o.keyLocked(abs)]
	return ok && d.open && !d.unreported
}
