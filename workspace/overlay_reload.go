package workspace

import "slices"

// OpenPaths lists, sorted, the documents the editor has open (their keys:
// resolved paths).
func (o *Overlay) OpenPaths() []string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	var out []string
	for k, d := range o.docs {
		if d.open {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Reload gives an open document the editor has not changed (no unsaved
// change, no applied agent edit) the text its file now has on disk, after
// a process outside the editor wrote it (an MCP server's tool): the agent
// reads what the file holds, and the editor reloads it on its own. It
// reports whether it did; a dirty document keeps the user's text, and a
// lost one (overlay_lost.go) stays lost: only the editor knows its text.
func (o *Overlay) Reload(abs, text string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	d, ok := o.docs[o.keyLocked(abs)]
	if !ok || !d.open || d.dirty || d.hasApplied || d.lost != "" {
		return false
	}
	d.text = text
	return true
}
