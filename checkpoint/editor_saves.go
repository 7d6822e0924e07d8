package checkpoint

import (
	"path/filepath"
	"sync"
)

// maxEditorSaves bounds the saves an editorSaves remembers: the oldest
// half goes when there are more (a command during which the editor saved
// thousands of files still has the last of them subtracted).
const maxEditorSaves = 4096

// editorSaves are the files the editor reported saved (LSP didSave), in
// the order reported: a save is the user's change to the file, so a
// command that ran meanwhile did not make it (KnowCommand). Its methods do
// no I/O and take only its own lock: the LSP read loop reports saves.
type editorSaves struct {
	mu  sync.Mutex
	seq uint64            // the last save's number
	at  map[string]uint64 // cleaned path → the number of its last save
}

// add records a save of abs.
func (e *editorSaves) add(abs string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.at == nil {
		e.at = map[string]uint64{}
	}
	e.seq++
	e.at[filepath.Clean(abs)] = e.seq
	if len(e.at) > maxEditorSaves {
		for p, n := range e.at {
			if n <= e.seq-maxEditorSaves/2 {
				delete(e.at, p)
			}
		}
	}
}

// mark is the number of the last save so far: since(mark) is what the
// editor saved after it.
func (e *editorSaves) mark() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seq
}

// since lists the files saved after mark.
func (e *editorSaves) since(mark uint64) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for p, n := range e.at {
		if n > mark {
			out = append(out, p)
		}
	}
	return out
}

// EditorSaved records that the editor saved the file at abs (LSP
// textDocument/didSave): a command running meanwhile did not change it,
// the user did. Safe on the LSP read loop: no I/O, no wait on a scan.
func (s *Store) EditorSaved(abs string) { s.saves.add(abs) }
