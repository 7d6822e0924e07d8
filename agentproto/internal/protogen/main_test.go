package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestGeneratedFiles regenerates every file derived from agentproto into a
// temporary folder and compares each with the one in the tree: a method,
// type or comment changed without `go generate ./agentproto` fails here.
func TestGeneratedFiles(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := write(tmp, files); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fresh, err := os.ReadFile(filepath.Join(tmp, n))
		if err != nil {
			t.Fatal(err)
		}
		kept, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			t.Errorf("%s: %v; run go generate ./agentproto", n, err)
			continue
		}
		if !bytes.Equal(fresh, kept) {
			t.Errorf("%s is not what agentproto generates (first difference: %s); run go generate ./agentproto", n, firstDiff(string(kept), string(fresh)))
		}
	}
}

// firstDiff names the first line where the kept and the fresh text differ.
func firstDiff(kept, fresh string) string {
	a, b := strings.Split(kept, "\n"), strings.Split(fresh, "\n")
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: kept %q, generated %q", i+1, x, y)
		}
	}
	return "none"
}
