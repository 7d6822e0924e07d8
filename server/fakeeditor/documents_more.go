package fakeeditor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Save writes an open buffer to its file, as the editor's save does, and
// sends textDocument/didSave with the text.
func (e *Editor) Save(ctx context.Context, rel string) error {
	path := filepath.Join(e.Root, filepath.FromSlash(rel))
	e.mu.Lock()
	doc, ok := e.docs[path]
	var text string
	if ok {
		text = doc.text
	}
	e.mu.Unlock()
	if !ok {
		return fmt.Errorf("%s is not open", rel)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("save %s: %w", rel, err)
	}
	return e.Notify(ctx, "textDocument/didSave", map[string]any{
		"textDocument": map[string]any{"uri": e.URI(rel)},
		"text":         text,
	})
}

// CloseDocument closes an open buffer without saving it
// (textDocument/didClose).
func (e *Editor) CloseDocument(ctx context.Context, rel string) error {
	path := filepath.Join(e.Root, filepath.FromSlash(rel))
	e.mu.Lock()
	_, ok := e.docs[path]
	delete(e.docs, path)
	e.mu.Unlock()
	if !ok {
		return fmt.Errorf("%s is not open", rel)
	}
	return e.Notify(ctx, "textDocument/didClose", map[string]any{
		"textDocument": map[string]any{"uri": e.URI(rel)},
	})
}

// Version is the version of an open buffer (0 if it is not open).
func (e *Editor) Version(rel string) int32 {
	path := filepath.Join(e.Root, filepath.FromSlash(rel))
	e.mu.Lock()
	defer e.mu.Unlock()
	if doc, ok := e.docs[path]; ok {
		return doc.version
	}
	return 0
}
