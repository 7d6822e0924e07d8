package server

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/workspace"
)

// TestFileOpsFirst: the changes of a whole edit go out as every resource
// operation, then every text edit (one run, so VS Code makes one undo
// element of them), unless two changes name the same file.
func TestFileOpsFirst(t *testing.T) {
	text := func(uri string) lspwire.DocumentChange {
		return lspwire.DocumentChange{TextDocument: &lspwire.VersionedDoc{URI: uri}, Edits: []workspace.TextEdit{{NewText: "x"}}}
	}
	create := lspwire.DocumentChange{Kind: "create", URI: "file:///w/new"}
	rename := lspwire.DocumentChange{Kind: "rename", OldURI: "file:///w/b", NewURI: "file:///w/a"}
	del := lspwire.DocumentChange{Kind: "delete", URI: "file:///w/gone"}
	for _, tc := range []struct {
		name  string
		parts [][]lspwire.DocumentChange
		want  string
	}{
		{"nothing", nil, ""},
		{"a rewind's changes: operations first, each kind in its order",
			[][]lspwire.DocumentChange{{rename}, {del}, {text("file:///w/main")}, {create, text("file:///w/new")}, {text("file:///w/z")}},
			"rename b>a, delete gone, create new, text main, text new, text z"},
		{"text edits only: as given",
			[][]lspwire.DocumentChange{{text("file:///w/b")}, {text("file:///w/a")}},
			"text b, text a"},
		{"two changes of one file: as given",
			[][]lspwire.DocumentChange{{text("file:///w/new")}, {lspwire.DocumentChange{Kind: "delete", URI: "file:///w/new"}}, {create}},
			"text new, delete new, create new"},
		{"a rename's source edited by another change: as given",
			[][]lspwire.DocumentChange{{text("file:///w/b")}, {rename}},
			"text b, rename b>a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describeChanges(fileOpsFirst(tc.parts)); got != tc.want {
				t.Fatalf("order = %q, want %q", got, tc.want)
			}
		})
	}
}

// describeChanges names each document change, the file by its base name.
func describeChanges(dcs []lspwire.DocumentChange) string {
	base := func(u string) string { return u[strings.LastIndex(u, "/")+1:] }
	var out []string
	for _, dc := range dcs {
		switch {
		case dc.TextDocument != nil:
			out = append(out, "text "+base(dc.TextDocument.URI))
		case dc.Kind == "rename":
			out = append(out, "rename "+base(dc.OldURI)+">"+base(dc.NewURI))
		default:
			out = append(out, dc.Kind+" "+base(dc.URI))
		}
	}
	return strings.Join(out, ", ")
}
