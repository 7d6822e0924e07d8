package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// TestRenameAliasesOfOneFile: a language server's rename may name one
// file under two URIs (a `./` segment, a symbolic link inside the
// workspace: pnpm/yarn workspaces link packages under node_modules). Each
// alias's edits are computed from the same original text and applied as
// separate whole-file writes, so the later one silently overwrites the
// earlier: the rename reports success, with every edit counted, while half
// of it is gone. The rename must either apply every edit or change nothing
// and say why.
func TestRenameAliasesOfOneFile(t *testing.T) {
	ed := func(line, from, to uint32, text string) workspace.TextEdit {
		return workspace.TextEdit{Range: workspace.Range{Start: workspace.Position{Line: line, Character: from}, End: workspace.Position{Line: line, Character: to}}, NewText: text}
	}
	tests := []struct {
		name  string
		alias func(e intelFake) string // another name of a.go
	}{
		{"dot segment", func(e intelFake) string {
			return e.ws.Root() + string(filepath.Separator) + "." + string(filepath.Separator) + "a.go"
		}},
		{"symlink in the workspace", func(e intelFake) string {
			link := filepath.Join(e.ws.Root(), "alias.go")
			if err := os.Symlink("a.go", link); err != nil {
				t.Skipf("symlink: %v", err)
			}
			return link
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newIntelFake(t)
			a := filepath.Join(e.ws.Root(), "a.go")
			e.src.renames = intel.FileEdits{
				a:           {ed(2, 5, 10, "Greet")}, // func Hello → func Greet
				tc.alias(e): {ed(0, 8, 9, "b")},      // package a → package b
			}
			e.setMode(agentproto.ModeBuild)
			res := call(t, renameTool, e, `{"path":"a.go","line":3,"symbol":"Hello","new_name":"Greet"}`)
			got := e.file("a.go")
			switch {
			case res.Success && (!strings.Contains(got, "func Greet()") || !strings.Contains(got, "package b")):
				t.Fatalf("rename = %s, but a.go is %q: an edit the result counts was lost", res.JSON(), got)
			case !res.Success && got != "package a\n\nfunc Hello() string { return \"é\" + hello }\n":
				t.Fatalf("a failed rename (%s) changed a.go: %q", res.JSON(), got)
			}
		})
	}
}
