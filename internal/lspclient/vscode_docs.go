package lspclient

import (
	"context"
	"fmt"
	"os"
	"strings"
	"unicode/utf16"
)

// This file is the fake editor's VS Code-like documents: a file opened from
// its bytes (decoded as VS Code decodes it), edits taking the document's
// line breaks, a save writing UTF-8 (the BOM again when the file had one),
// and the reload VS Code does when a file with no unsaved change changes
// on disk.

// OpenFile opens rel as VS Code does: the file's bytes decoded (openFile),
// the buffer sent in textDocument/didOpen.
func (e *Client) OpenFile(ctx context.Context, rel string) error {
	data, err := os.ReadFile(e.path(rel))
	if err != nil {
		return fmt.Errorf("open %s: %w", rel, err)
	}
	m := openFile(data)
	text := string(utf16.Decode(m.text))
	e.mu.Lock()
	e.docs[e.path(rel)] = &document{text: text, version: 1, vscode: &m}
	e.mu.Unlock()
	return e.Notify(ctx, "textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": e.URI(rel), "languageId": "plaintext", "version": 1, "text": text},
	})
}

// Dirty tells whether an open buffer has changes it has not saved.
func (e *Client) Dirty(rel string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	doc, ok := e.docs[e.path(rel)]
	return ok && doc.dirty
}

// SavedBytes is what saving an open buffer would write: its text in UTF-8,
// after a BOM when VS Code opened the file with one.
func (e *Client) SavedBytes(rel string) ([]byte, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	doc, ok := e.docs[e.path(rel)]
	if !ok {
		return nil, false
	}
	return doc.saved(), true
}

// saved is the bytes a save of doc writes.
func (doc *document) saved() []byte {
	if doc.vscode != nil && doc.vscode.bom {
		return []byte("\uFEFF" + doc.text)
	}
	return []byte(doc.text)
}

// Revert is what VS Code does when the file of an open buffer changes on
// disk: a buffer without unsaved changes takes the file's text (decoded
// again, reported with textDocument/didChange); a dirty one keeps its own.
// It reports whether the buffer took the file's text.
func (e *Client) Revert(ctx context.Context, rel string) (bool, error) {
	data, err := os.ReadFile(e.path(rel))
	if err != nil {
		return false, fmt.Errorf("revert %s: %w", rel, err)
	}
	m := openFile(data)
	text := string(utf16.Decode(m.text))
	e.mu.Lock()
	doc, ok := e.docs[e.path(rel)]
	if !ok || doc.dirty || doc.text == text && doc.vscode != nil && doc.vscode.bom == m.bom {
		e.mu.Unlock()
		return false, nil
	}
	doc.text, doc.vscode = text, &m
	doc.version++
	version := doc.version
	e.mu.Unlock()
	return true, e.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": e.URI(rel), "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

// eolOf is the line break a VS Code-like document gives new text ("" for
// a buffer opened with Open, which keeps text as it comes).
func (doc *document) eolOf() string {
	if doc.vscode == nil {
		return ""
	}
	return doc.vscode.eol
}

// normalized is s with the document's line breaks.
func (doc *document) normalized(s string) string {
	if eol := doc.eolOf(); eol != "" && strings.ContainsAny(s, "\r\n") {
		return normalizeEOL(s, eol)
	}
	return s
}

// RoundTrips tells whether VS Code, opening a file of these bytes and
// saving it unchanged, writes the same bytes (not for a file that is not
// UTF-8, has a lone "\r" or mixed line breaks).
func RoundTrips(data []byte) bool {
	return string(openFile(data).save()) == string(data)
}
