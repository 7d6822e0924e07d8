package lspclient

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentls/agentls/workspace"
)

// document is an open buffer of the client.
type document struct {
	text    string
	version int32
	// vscode is the file as VS Code opened it (OpenFile), nil for Open.
	vscode *fileModel
	// dirty: the buffer has changes it has not saved.
	dirty bool
}

// path is the absolute path of a workspace-relative one.
func (e *Client) path(rel string) string {
	return filepath.Join(e.Root, filepath.FromSlash(rel))
}

// URI is the file URI of a workspace-relative path.
func (e *Client) URI(rel string) string {
	return "file://" + filepath.ToSlash(e.path(rel))
}

// Open opens a buffer (textDocument/didOpen) holding text, which need not be
// what is on disk (an unsaved buffer).
func (e *Client) Open(ctx context.Context, rel, text string) error {
	path := e.path(rel)
	e.mu.Lock()
	e.docs[path] = &document{text: text, version: 1}
	e.mu.Unlock()
	return e.Notify(ctx, "textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": e.URI(rel), "languageId": "plaintext", "version": 1, "text": text},
	})
}

// Change edits an open buffer and sends the incremental textDocument/didChange.
func (e *Client) Change(ctx context.Context, rel string, edit workspace.TextEdit) error {
	path := e.path(rel)
	e.mu.Lock()
	doc, ok := e.docs[path]
	if !ok {
		e.mu.Unlock()
		return fmt.Errorf("%s is not open", rel)
	}
	text, err := workspace.ApplyEdits(doc.text, []workspace.TextEdit{edit})
	if err != nil {
		e.mu.Unlock()
		return err
	}
	doc.text = text
	doc.version++
	doc.dirty = true
	version := doc.version
	e.mu.Unlock()
	return e.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": e.URI(rel), "version": version},
		"contentChanges": []any{map[string]any{"range": edit.Range, "text": edit.NewText}},
	})
}

// Buffer is the text of an open buffer.
func (e *Client) Buffer(rel string) (string, bool) {
	path := e.path(rel)
	e.mu.Lock()
	defer e.mu.Unlock()
	doc, ok := e.docs[path]
	if !ok {
		return "", false
	}
	return doc.text, true
}

// Save writes an open buffer to its file, as the editor's save does, and
// sends textDocument/didSave with the text.
func (e *Client) Save(ctx context.Context, rel string) error {
	path := e.path(rel)
	e.mu.Lock()
	doc, ok := e.docs[path]
	var text string
	var data []byte
	if ok {
		text, data = doc.text, doc.saved()
		doc.dirty = false
	}
	e.mu.Unlock()
	if !ok {
		return fmt.Errorf("%s is not open", rel)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("save %s: %w", rel, err)
	}
	return e.Notify(ctx, "textDocument/didSave", map[string]any{
		"textDocument": map[string]any{"uri": e.URI(rel)},
		"text":         text,
	})
}

// CloseDocument closes an open buffer without saving it
// (textDocument/didClose).
func (e *Client) CloseDocument(ctx context.Context, rel string) error {
	path := e.path(rel)
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
func (e *Client) Version(rel string) int32 {
	path := e.path(rel)
	e.mu.Lock()
	defer e.mu.Unlock()
	if doc, ok := e.docs[path]; ok {
		return doc.version
	}
	return 0
}

// editBuffer applies edits to an open buffer; ok is false if it is not open.
func (e *Client) editBuffer(path string, edits []workspace.TextEdit) (ok bool, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	doc, open := e.docs[filepath.Clean(path)]
	if !open {
		return false, nil
	}
	norm := slices.Clone(edits)
	for i := range norm {
		norm[i].NewText = doc.normalized(norm[i].NewText)
	}
	text, err := applyText(doc.text, norm)
	if err != nil {
		return true, err
	}
	doc.text = text
	doc.version++
	doc.dirty = true
	return true, nil
}

// Type changes an open buffer as the user's typing does, without telling
// the server yet (an editor that reports changes when idle, as eglot):
// Report sends them.
func (e *Client) Type(rel string, edit workspace.TextEdit) error {
	path := e.path(rel)
	e.mu.Lock()
	defer e.mu.Unlock()
	doc, ok := e.docs[path]
	if !ok {
		return fmt.Errorf("%s is not open", rel)
	}
	text, err := workspace.ApplyEdits(doc.text, []workspace.TextEdit{edit})
	if err != nil {
		return err
	}
	doc.text = text
	doc.version++
	doc.dirty = true
	return nil
}

// Report sends an open buffer's whole text and version
// (textDocument/didChange), as an editor that reports when idle does.
func (e *Client) Report(ctx context.Context, rel string) error {
	path := e.path(rel)
	e.mu.Lock()
	doc, ok := e.docs[path]
	var text string
	var version int32
	if ok {
		text, version = doc.text, doc.version
	}
	e.mu.Unlock()
	if !ok {
		return fmt.Errorf("%s is not open", rel)
	}
	return e.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": e.URI(rel), "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}
