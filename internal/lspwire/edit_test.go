package lspwire

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentls/agentls/workspace"
)

// TestDocumentChangeShapes: each kind of change leaves in its own LSP shape
// (no field of another shape, a text document edit's null version kept)
// and decodes back to what was sent.
func TestDocumentChangeShapes(t *testing.T) {
	v := int32(3)
	edits := []workspace.TextEdit{{NewText: "x"}}
	tests := []struct {
		name string
		in   DocumentChange
		want string
	}{
		{"text edit, no version", DocumentChange{TextDocument: &VersionedDoc{URI: "file:///a"}, Edits: edits},
			`{"textDocument":{"uri":"file:///a","version":null},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"x"}]}`},
		{"text edit, versioned", DocumentChange{TextDocument: &VersionedDoc{URI: "file:///a", Version: &v}, Edits: []workspace.TextEdit{}},
			`{"textDocument":{"uri":"file:///a","version":3},"edits":[]}`},
		{"create", DocumentChange{Kind: "create", URI: "file:///a", Options: map[string]bool{"ignoreIfExists": false}},
			`{"kind":"create","uri":"file:///a","options":{"ignoreIfExists":false}}`},
		{"rename", DocumentChange{Kind: "rename", OldURI: "file:///a", NewURI: "file:///b"},
			`{"kind":"rename","oldUri":"file:///a","newUri":"file:///b"}`},
		{"delete", DocumentChange{Kind: "delete", URI: "file:///a", Options: map[string]bool{"recursive": true}},
			`{"kind":"delete","uri":"file:///a","options":{"recursive":true}}`},
		{"annotated text edit", DocumentChange{TextDocument: &VersionedDoc{URI: "file:///a"}, Edits: edits, AnnotationID: "n1"},
			`{"textDocument":{"uri":"file:///a","version":null},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"x","annotationId":"n1"}]}`},
		{"annotated create", DocumentChange{Kind: "create", URI: "file:///a", AnnotationID: "n2"},
			`{"kind":"create","uri":"file:///a","annotationId":"n2"}`},
		{"annotated rename", DocumentChange{Kind: "rename", OldURI: "file:///a", NewURI: "file:///b", AnnotationID: "n3"},
			`{"kind":"rename","oldUri":"file:///a","newUri":"file:///b","annotationId":"n3"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(WorkspaceEdit{DocumentChanges: []DocumentChange{tc.in}})
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"documentChanges":[` + tc.want + `]}`; string(b) != want {
				t.Fatalf("encoded\n%s\nwant\n%s", b, want)
			}
			var back WorkspaceEdit
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if len(back.DocumentChanges) != 1 || !reflect.DeepEqual(back.DocumentChanges[0], tc.in) {
				t.Fatalf("decoded %+v, want %+v", back.DocumentChanges, tc.in)
			}
		})
	}
}
