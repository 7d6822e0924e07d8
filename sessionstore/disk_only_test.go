package sessionstore

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// diskOnly are the only workspace names the store may use: pure helpers
// over bytes and files, nothing of a Workspace or its overlay of the
// editor's open buffers. Session files are agentls's own state, read from
// the disk (docs/sessions.md).
var diskOnly = map[string]bool{"WriteAtomic": true, "ReplaceFile": true, "SplitFrontmatter": true}

// TestReadsTheDiskOnly: the store's code names no other workspace name
// (workspace.Workspace, Overlay, Read, …).
func TestReadsTheDiskOnly(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, bad := range workspaceUses(f) {
			t.Errorf("%s uses workspace.%s: the session store reads and writes the disk itself", name, bad)
		}
	}
	if checked == 0 {
		t.Fatal("no source files checked")
	}
}

// workspaceUses lists the workspace names f uses beyond diskOnly.
func workspaceUses(f *ast.File) []string {
	var bad []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == "workspace" && !diskOnly[sel.Sel.Name] {
			bad = append(bad, sel.Sel.Name)
		}
		return true
	})
	return bad
}
