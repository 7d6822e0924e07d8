package langpool

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/intel"
)

// openInServer are the documents open in the fake server, as it names
// them in its hint on probe (a file holding OPENDOCS).
func openInServer(t *testing.T, p *Pool, probe string) []string {
	t.Helper()
	snap := diagnosticsOf(t, p, probe)
	for _, d := range snap.Files[probe] {
		if names, ok := strings.CutPrefix(d.Message, openDocsPrefix); ok {
			return strings.Fields(names)
		}
	}
	t.Fatalf("the fake server named no open documents: %+v", snap.Files)
	return nil
}

// TestOpenDocumentsAreBounded: every file the pool asks about is opened
// in its server (didOpen); over a long session the server held every
// file ever touched, and agentls its text. At most maxOpenDocs stay open:
// the one asked about least recently is closed (didClose) when another
// opens.
func TestOpenDocumentsAreBounded(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"probe.go": "package a\n// OPENDOCS\n"}
	n := maxOpenDocs + 6
	for i := range n {
		files[fmt.Sprintf("f%02d.go", i)] = "package a\n"
	}
	p := fakePool(t, root, files, Options{})
	for i := range n {
		diagnosticsOf(t, p, filepath.Join(root, fmt.Sprintf("f%02d.go", i)))
	}
	open := openInServer(t, p, filepath.Join(root, "probe.go"))
	if len(open) > maxOpenDocs {
		t.Fatalf("%d documents open in the server after %d files were asked about, want at most %d", len(open), n+1, maxOpenDocs)
	}
	last := fmt.Sprintf("f%02d.go", n-1)
	if slices.Contains(open, "f00.go") || !slices.Contains(open, "probe.go") || !slices.Contains(open, last) {
		t.Fatalf("open in the server: %v; want the least recently asked f00.go closed, probe.go and %s open", open, last)
	}
	// A closed file asked about again is opened again, and answered.
	f0 := filepath.Join(root, "f00.go")
	p.ws.Overlay().SetApplied(f0, "package a\n// BAD\n")
	ds := diagnosticsOf(t, p, f0).Files[f0]
	if !slices.ContainsFunc(ds, func(d intel.Diagnostic) bool { return d.Message == "bad line" && d.Range.Start.Line == 1 }) {
		t.Fatalf("the reopened file's diagnostics = %+v, want its BAD line", ds)
	}
}

// TestDeletedFileIsClosedInTheServer: a file deleted from the disk was
// left open in the server with its old text (a Go package still held it,
// so the problems of the files beside it were those of a package that no
// longer is); it is closed (didClose) at the next question.
func TestDeletedFileIsClosedInTheServer(t *testing.T) {
	root := t.TempDir()
	p := fakePool(t, root, map[string]string{"gone.go": "package a\n", "probe.go": "package a\n// OPENDOCS\n"}, Options{})
	diagnosticsOf(t, p, filepath.Join(root, "gone.go"))
	if open := openInServer(t, p, filepath.Join(root, "probe.go")); !slices.Contains(open, "gone.go") {
		t.Fatalf("rig: gone.go not open in the server: %v", open)
	}
	if err := os.Remove(filepath.Join(root, "gone.go")); err != nil {
		t.Fatal(err)
	}
	if open := openInServer(t, p, filepath.Join(root, "probe.go")); slices.Contains(open, "gone.go") {
		t.Fatalf("open in the server after gone.go was deleted: %v; want it closed", open)
	}
}
