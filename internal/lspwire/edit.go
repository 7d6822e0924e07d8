// Package lspwire holds the LSP wire shapes that both the server and the
// test editor (internal/lspclient) speak, built by hand so that the exact
// operations that leave the server can be checked by the guard: one
// WorkspaceEdit for the sender and the receiver.
package lspwire

import (
	"encoding/json"

	"github.com/agentls/agentls/workspace"
)

// WorkspaceEdit is an LSP 3.17 WorkspaceEdit: text edits by document URI
// (Changes), or text document edits and resource operations in order
// (DocumentChanges).
type WorkspaceEdit struct {
	Changes         map[string][]workspace.TextEdit `json:"changes,omitempty"`
	DocumentChanges []DocumentChange                `json:"documentChanges,omitempty"`
	// ChangeAnnotations are the annotations the document changes name by
	// id (review mode: one per file, needsConfirmation).
	ChangeAnnotations map[string]ChangeAnnotation `json:"changeAnnotations,omitempty"`
}

// ChangeAnnotation describes a group of changes; needsConfirmation asks
// the editor to let the user confirm (or decline) them.
type ChangeAnnotation struct {
	Label             string `json:"label"`
	NeedsConfirmation bool   `json:"needsConfirmation,omitempty"`
	Description       string `json:"description,omitempty"`
}

// DocumentChange is one entry of a WorkspaceEdit's documentChanges: a
// TextDocumentEdit when TextDocument is set, else a resource operation
// (CreateFile, RenameFile, DeleteFile) named by Kind. It is encoded in the
// shape of what it is, with only that shape's fields.
type DocumentChange struct {
	// TextDocument and Edits make a TextDocumentEdit.
	TextDocument *VersionedDoc        `json:"textDocument,omitempty"`
	Edits        []workspace.TextEdit `json:"edits,omitempty"`
	// Kind is "create", "rename" or "delete" for a resource operation.
	Kind string `json:"kind,omitempty"`
	// URI is the file a create or a delete names.
	URI string `json:"uri,omitempty"`
	// OldURI and NewURI are a rename's source and destination.
	OldURI string `json:"oldUri,omitempty"`
	NewURI string `json:"newUri,omitempty"`
	// Options are the operation's flags: overwrite, ignoreIfExists
	// (create, rename), recursive, ignoreIfNotExists (delete).
	Options map[string]bool `json:"options,omitempty"`
	// AnnotationID names the change's ChangeAnnotation: a resource
	// operation's annotationId, and that of each of a text document edit's
	// edits (AnnotatedTextEdit).
	AnnotationID string `json:"annotationId,omitempty"`
}

// VersionedDoc is an OptionalVersionedTextDocumentIdentifier: a null
// version means the edits apply to the file as it is.
type VersionedDoc struct {
	URI     string `json:"uri"`
	Version *int32 `json:"version"`
}

// The shapes a DocumentChange is encoded in.
type (
	textDocumentEdit struct {
		TextDocument VersionedDoc         `json:"textDocument"`
		Edits        []workspace.TextEdit `json:"edits"`
	}
	annotatedDocumentEdit struct {
		TextDocument VersionedDoc        `json:"textDocument"`
		Edits        []annotatedTextEdit `json:"edits"`
	}
	annotatedTextEdit struct {
		workspace.TextEdit
		AnnotationID string `json:"annotationId"`
	}
	createOrDelete struct {
		Kind         string          `json:"kind"`
		URI          string          `json:"uri"`
		Options      map[string]bool `json:"options,omitempty"`
		AnnotationID string          `json:"annotationId,omitempty"`
	}
	renameFile struct {
		Kind         string          `json:"kind"` // "rename"
		OldURI       string          `json:"oldUri"`
		NewURI       string          `json:"newUri"`
		Options      map[string]bool `json:"options,omitempty"`
		AnnotationID string          `json:"annotationId,omitempty"`
	}
)

// MarshalJSON encodes the change in its own LSP shape.
func (d DocumentChange) MarshalJSON() ([]byte, error) {
	switch {
	case d.TextDocument != nil && d.AnnotationID != "":
		edits := make([]annotatedTextEdit, len(d.Edits))
		for i, e := range d.Edits {
			edits[i] = annotatedTextEdit{TextEdit: e, AnnotationID: d.AnnotationID}
		}
		return json.Marshal(annotatedDocumentEdit{TextDocument: *d.TextDocument, Edits: edits})
	case d.TextDocument != nil:
		return json.Marshal(textDocumentEdit{TextDocument: *d.TextDocument, Edits: d.Edits})
	case d.Kind == "rename":
		return json.Marshal(renameFile{Kind: d.Kind, OldURI: d.OldURI, NewURI: d.NewURI, Options: d.Options, AnnotationID: d.AnnotationID})
	default:
		return json.Marshal(createOrDelete{Kind: d.Kind, URI: d.URI, Options: d.Options, AnnotationID: d.AnnotationID})
	}
}

// UnmarshalJSON decodes any of the shapes; a text document edit whose
// edits carry an annotationId gets the first one as its AnnotationID.
func (d *DocumentChange) UnmarshalJSON(b []byte) error {
	type plain DocumentChange
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*d = DocumentChange(p)
	if d.TextDocument != nil && d.AnnotationID == "" {
		var a struct {
			Edits []struct {
				AnnotationID string `json:"annotationId"`
			} `json:"edits"`
		}
		if err := json.Unmarshal(b, &a); err == nil {
			for _, e := range a.Edits {
				if e.AnnotationID != "" {
					d.AnnotationID = e.AnnotationID
					break
				}
			}
		}
	}
	return nil
}

// ApplyEditResult is the answer to workspace/applyEdit.
type ApplyEditResult struct {
	Applied       bool    `json:"applied"`
	FailureReason *string `json:"failureReason"`
	// Agentls is agentls's extension of the answer: the VS Code extension
	// names the change annotations the user declined (docs/review.md).
	Agentls *struct {
		Declined []string `json:"declined"`
		// Partly names the annotations of which only some edits were
		// applied (hunks unchecked in the preview).
		Partly []string `json:"partly,omitempty"`
	} `json:"_agentls,omitempty"`
}
