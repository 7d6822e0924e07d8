package workspace

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// ContentChange is one change of a textDocument/didChange notification. A nil
// Range replaces the whole text.
type ContentChange struct {
	Range *Range
	Text  string
}

// Overlay holds the editor's open buffers and the agent edits the editor has
// applied, keyed by resolved path: cleaned, absolute, symlinks evaluated (as
// Workspace.Resolve gives them to the agent). The editor may name a document
// through a symlink (a symlinked workspace root, macOS's /tmp); Open resolves
// that name once and remembers it, so that every later notification about the
// document, and every read of the agent, finds the same entry. Its text wins
// over the disk. Only Open touches the file system (a few lstat calls to
// evaluate symlinks); Change and Close, which run inline on the LSP read loop
// for every keystroke, do no I/O. All methods are safe for concurrent use.
type Overlay struct {
	mu   sync.RWMutex
	docs map[string]*overlayDoc
	// names maps the editor's (cleaned) name of an open document to its key,
	// when the two differ.
	names map[string]string
	// resolve turns a cleaned absolute path into its key; nil means the
	// identity (tests of the overlay alone).
	resolve func(string) string
	// reported is closed (and replaced) when the editor reports a
	// document: WaitReported waits on it (overlay_wait.go).
	reported chan struct{}
}

type overlayDoc struct {
	// name is the path as the editor gave it: edits sent back to the editor
	// name the document the way the editor knows it.
	name    string
	open    bool   // the editor reported the document open
	text    string // the editor's buffer (when open)
	version int32
	dirty   bool // changed since open or the last save
	// applied is an agent edit the editor applied: it is the current text until
	// the editor reports the document again.
	applied    string
	hasApplied bool
	// unreported: an applied agent edit the editor has not reported back
	// with a didChange yet, so its version is unknown (the editor counts
	// the edit's changes its own way); Saved does not clear it.
	unreported bool
	// behind: the applied agent edit was written on disk under a buffer
	// with no unsaved change (overlay_behind.go): the disk has it.
	behind bool
	// lost says why the buffer's text is unknown: a didChange could not be
	// applied (overlay_lost.go). Empty while the text is known.
	lost string
}

// NewOverlay returns an empty overlay that keys documents by cleaned path
// (no symlink evaluation).
func NewOverlay() *Overlay {
	return &Overlay{docs: make(map[string]*overlayDoc), names: make(map[string]string), reported: make(chan struct{})}
}

// newResolvingOverlay returns an empty overlay that keys documents by their
// resolved path.
func newResolvingOverlay() *Overlay {
	o := NewOverlay()
	o.resolve = resolveKey
	return o
}

// resolveKey evaluates the symlinks of a cleaned absolute path (its deepest
// existing ancestor's for a file not on disk yet); a path that cannot be
// evaluated (a dangling symlink) keys as it is.
func resolveKey(clean string) string {
	real, err := Canonical(clean)
	if err != nil {
		return clean
	}
	return real
}

// keyLocked is the key of a path: the resolved path an open document was
// registered under, else the cleaned path itself (the agent's paths are
// resolved already). o.mu must be held (read or write).
func (o *Overlay) keyLocked(abs string) string {
	clean := filepath.Clean(abs)
	if k, ok := o.names[clean]; ok {
		return k
	}
	return clean
}

// Open records a document the editor opened (textDocument/didOpen) under its
// resolved path.
func (o *Overlay) Open(abs string, version int32, text string) {
	name := filepath.Clean(abs)
	key := name
	if o.resolve != nil {
		key = o.resolve(name) // I/O outside the lock
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if old, ok := o.docs[key]; ok && old.name != name {
		delete(o.names, old.name) // the same file reopened under another name
	}
	o.docs[key] = &overlayDoc{name: name, open: true, text: text, version: version}
	if key != name {
		o.names[name] = key
	}
	o.reportedLocked()
}

// Change applies a textDocument/didChange: the changes are applied in order,
// each against the text the previous one produced, with UTF-16 ranges. A
// change that cannot be applied (a range past the end of the text) leaves
// the buffer's text unknown: the document is lost (overlay_lost.go) until a
// change with the whole text, a save with the text or a new didOpen, and
// the error says why. Ranged changes to a lost document are dropped quietly.
func (o *Overlay) Change(abs string, version int32, changes []ContentChange) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	d, ok := o.docs[o.keyLocked(abs)]
	if !ok || !d.open {
		return fmt.Errorf("didChange for %s: document is not open", abs)
	}
	text, known := d.text, d.lost == ""
	var failed error
	for i, c := range changes {
		if c.Range == nil {
			text, known = c.Text, true
			continue
		}
		if !known {
			continue
		}
		next, err := applyContentChange(text, *c.Range, c.Text)
		if err != nil {
			failed = fmt.Errorf("change %d of version %d: %w", i, version, err)
			known = false
			continue
		}
		text = next
	}
	d.version = version
	d.dirty = !d.reloaded(text, known)
	d.applied, d.hasApplied, d.unreported, d.behind = "", false, false, false
	if known {
		d.text, d.lost = text, ""
	} else {
		d.text = ""
		if failed != nil {
			d.lost = failed.Error()
		}
	}
	o.reportedLocked()
	if failed != nil {
		return fmt.Errorf("didChange for %s: %w", abs, failed)
	}
	return nil
}

// applyContentChange replaces r (UTF-16 positions) in text with newText.
func applyContentChange(text string, r Range, newText string) (string, error) {
	start, err := OffsetOf(text, r.Start)
	if err != nil {
		return "", err
	}
	end, err := OffsetOf(text, r.End)
	if err != nil {
		return "", err
	}
	if end < start {
		return "", fmt.Errorf("range end is before its start")
	}
	var b strings.Builder
	b.Grow(len(text) - (end - start) + len(newText))
	b.WriteString(text[:start])
	b.WriteString(newText)
	b.WriteString(text[end:])
	return b.String(), nil
}

// Close forgets a document the editor closed: the disk is the truth again.
func (o *Overlay) Close(abs string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	k := o.keyLocked(abs)
	if d, ok := o.docs[k]; ok {
		delete(o.names, d.name)
	}
	delete(o.names, filepath.Clean(abs))
	delete(o.docs, k)
	o.reportedLocked()
}

// Get returns the current overlay text of abs: an applied agent edit if one is
// pending, else the open buffer. ok is false when the overlay has no text for
// abs (read the disk). A lost buffer (overlay_lost.go) is open with the text
// "": Workspace.ReadFile refuses it.
func (o *Overlay) Get(abs string) (text string, version int32, ok bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	d, found := o.docs[o.keyLocked(abs)]
	if !found {
		return "", 0, false
	}
	if d.hasApplied {
		return d.applied, d.version, true
	}
	return d.text, d.version, d.open
}

// SetApplied records an agent edit the editor applied: text is the file's
// current content until the editor reports the document again (Open, Change,
// Close or Saved).
func (o *Overlay) SetApplied(abs, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	k := o.keyLocked(abs)
	d, ok := o.docs[k]
	if !ok {
		d = &overlayDoc{name: k}
		o.docs[k] = d
	}
	// The editor may have reported the edit already (a didChange before its
	// answer): then its version is known.
	d.applied, d.hasApplied, d.unreported, d.behind = text, true, !(d.open && d.text == text), false
}

// Saved records a textDocument/didSave. text is the saved content when the
// editor sends it. A document that is not open is forgotten (the disk has it).
func (o *Overlay) Saved(abs string, text *string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	k := o.keyLocked(abs)
	d, ok := o.docs[k]
	if !ok {
		return
	}
	if !d.open {
		delete(o.names, d.name)
		delete(o.docs, k)
		return
	}
	if text != nil {
		d.text, d.lost = *text, ""
	}
	d.dirty = false
	d.applied, d.hasApplied, d.behind = "", false, false
}

// IsDirty reports whether abs has text the disk may not have: an open buffer
// changed since it was opened or last saved, or an applied agent edit the
// editor has not reported back yet.
func (o *Overlay) IsDirty(abs string) bool {
	o.mu.RLock()
	defer o.mu.RUnlock()
	d, ok := o.docs[o.keyLocked(abs)]
	return ok && (d.open && d.dirty || d.hasApplied && !d.behind)
}

// ChangedUnsaved reports whether abs is open with text changed in its
// editor and not saved, other than by an agent edit it applied (a buffer
// holding exactly the text agentls applied is agentls's): what a person
// typed and the disk does not have.
func (o *Overlay) ChangedUnsaved(abs string) bool {
	o.mu.RLock()
	defer o.mu.RUnlock()
	d, ok := o.docs[o.keyLocked(abs)]
	return ok && d.open && d.dirty && !(d.hasApplied && d.text == d.applied)
}

// EditorName returns the path the editor named an open document by (it may
// go through a symlink), or abs itself when the editor has no such document
// open. Edits sent to the editor use it, so that they reach the editor's
// buffer.
func (o *Overlay) EditorName(abs string) string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if d, ok := o.docs[o.keyLocked(abs)]; ok && d.open {
		return d.name
	}
	return abs
}

// DirtyPaths lists, sorted, every path for which IsDirty is true.
func (o *Overlay) DirtyPaths() []string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	var out []string
	for k, d := range o.docs {
		if d.open && d.dirty || d.hasApplied && !d.behind {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// snapshot returns the current text of every document in the overlay.
func (o *Overlay) snapshot() map[string]string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	m := make(map[string]string, len(o.docs))
	for k, d := range o.docs {
		switch {
		case d.hasApplied:
			m[k] = d.applied
		case d.open && d.lost == "":
			m[k] = d.text
		}
	}
	return m
}
