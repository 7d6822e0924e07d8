package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestResolve exercises the lead's Resolve (workspace.go), on which every
// operation of this package relies.
func TestResolve(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"src/a.go": "", "plans/p.plan": "", "dir/": ""})
	root := ws.Root()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.txt": "s", "d/x": ""})
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "evil.plan")))
	must(os.Symlink(filepath.Join(outside, "d"), filepath.Join(root, "evildir")))
	must(os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "srclink")))
	must(os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "dangling")))

	ok := []struct {
		in, rel     string
		exists, dir bool
	}{
		{"src/a.go", "src/a.go", true, false},
		{"./src/../src/a.go", "src/a.go", true, false},
		{filepath.Join(root, "src", "a.go"), "src/a.go", true, false},
		{"file://" + filepath.ToSlash(filepath.Join(root, "src", "a.go")), "src/a.go", true, false},
		{"file://localhost" + filepath.ToSlash(filepath.Join(root, "dir")), "dir", true, true},
		{".", ".", true, true},
		{"new/deep/file.txt", "new/deep/file.txt", false, false},
		{"srclink/a.go", "src/a.go", true, false}, // a symlink inside resolves to its target
		{"plans/p.plan", "plans/p.plan", true, false},
	}
	for _, tt := range ok {
		p, err := ws.Resolve(tt.in)
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.in, err)
			continue
		}
		if p.Rel != tt.rel || p.Exists != tt.exists || p.IsDir != tt.dir || p.Folder != root || !filepath.IsAbs(p.Abs) {
			t.Errorf("Resolve(%q) = %+v, want rel %q exists %v dir %v", tt.in, p, tt.rel, tt.exists, tt.dir)
		}
	}

	refused := []struct {
		in      string
		outside bool
	}{
		{"", false},
		{"../x", true},
		{"src/../../x", true},
		{outside, true},
		{filepath.Join(outside, "secret.txt"), true},
		{"evil.plan", true},        // symlink to a file outside
		{"evildir/x", true},        // through a symlinked folder
		{"evildir/new.plan", true}, // a new file under a folder that points outside
		{"a\x00b", false},          // NUL byte
		{"dangling", false},        // the target cannot be checked
		{"file://other-host/etc/passwd", false},
		{"file://" + filepath.ToSlash(root) + "/%2e%2e/%2e%2e/etc/passwd", true}, // URL-encoded ..
	}
	for _, tt := range refused {
		_, err := ws.Resolve(tt.in)
		if err == nil {
			t.Errorf("Resolve(%q) should be refused", tt.in)
			continue
		}
		if tt.outside && !errors.Is(err, ErrOutside) {
			t.Errorf("Resolve(%q) error %v should wrap ErrOutside", tt.in, err)
		}
	}
}

func TestWorkspaceFolders(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeTree(t, b, map[string]string{"lib/x.go": "package x\n"})
	ws, err := New(a, b)
	if err != nil {
		t.Fatal(err)
	}
	folders := ws.Folders()
	if len(folders) != 2 || ws.Root() != folders[0] {
		t.Fatalf("folders = %v", folders)
	}
	p, err := ws.Resolve(filepath.Join(b, "lib", "x.go"))
	if err != nil || p.Folder != folders[1] || p.Rel != "lib/x.go" {
		t.Fatalf("second folder: %+v %v", p, err)
	}
	if got := ws.RelOf(filepath.Join(folders[1], "lib", "x.go")); got != "lib/x.go" {
		t.Errorf("RelOf = %q", got)
	}
	if got := ws.RelOf("/somewhere/else"); got != "" {
		t.Errorf("RelOf outside = %q", got)
	}
	// Reading, listing and grepping work in the second folder, with paths
	// relative to it.
	if text, err := ws.ReadFile(p); err != nil || text != "package x\n" {
		t.Errorf("ReadFile: %q %v", text, err)
	}
	entries, err := ws.List(mustResolve(t, ws, filepath.Join(b, "lib")), 1)
	if err != nil || !slices.Equal(entries, []Entry{{"lib/x.go", false, 10}}) {
		t.Errorf("List: %v %v", entries, err)
	}
	res := grepOK(t, ws, GrepOptions{Pattern: "package", Base: mustResolve(t, ws, b)})
	if keys := matchKeys(res); !slices.Equal(keys, []string{"lib/x.go:1:package x"}) {
		t.Errorf("Grep: %v", keys)
	}

	if _, err := New(); err == nil {
		t.Error("New() without folders should fail")
	}
	if _, err := New(filepath.Join(a, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("New(missing): %v", err)
	}
}

// TestMissingParents: the folders creating a path would create, outermost
// first, found after resolution (a folder symlink leads to its target).
func TestMissingParents(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"src/a.go": "", "plans/p.plan": ""})
	if err := os.Symlink(filepath.Join(ws.Root(), "src"), filepath.Join(ws.Root(), "srclink")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   string
		want []string
	}{
		{"src/new.plan", nil},
		{"src/newpkg/x.plan", []string{"src/newpkg"}},
		{"docs/deep/x.plan", []string{"docs", "docs/deep"}},
		{"srclink/newpkg/x.plan", []string{"src/newpkg"}},
		{"plans/a/b/c", []string{"plans/a", "plans/a/b"}},
		{"new.plan", nil},
	}
	for _, tt := range tests {
		p, err := ws.Resolve(tt.in)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", tt.in, err)
		}
		var got []string
		for _, m := range ws.MissingParents(p) {
			if m.Folder != ws.Root() || m.Abs != filepath.Join(ws.Root(), filepath.FromSlash(m.Rel)) || m.Exists {
				t.Errorf("MissingParents(%q): bad path %+v", tt.in, m)
			}
			got = append(got, m.Rel)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("MissingParents(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
