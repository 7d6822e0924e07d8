package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTestWorkspace creates a workspace in a temporary folder holding files
// (path → content; a path ending in "/" is an empty folder).
func newTestWorkspace(t *testing.T, files map[string]string) *Workspace {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	ws, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if p[len(p)-1] == '/' {
			if err := os.MkdirAll(abs, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mustResolve resolves p or fails the test.
func mustResolve(t *testing.T, ws *Workspace, p string) Path {
	t.Helper()
	r, err := ws.Resolve(p)
	if err != nil {
		t.Fatalf("Resolve(%q): %v", p, err)
	}
	return r
}

// readDisk returns the content of a workspace file on disk.
func readDiskFile(t *testing.T, ws *Workspace, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ws.Root(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// archive is a txtar-like golden file: a comment, then sections that each
// start with a line "-- name --".
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct {
	name, data string
}

func parseArchive(text string) archive {
	var a archive
	cur := -1
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			a.files = append(a.files, archiveFile{name: trimmed[3 : len(trimmed)-3]})
			cur = len(a.files) - 1
			continue
		}
		if cur < 0 {
			a.comment += line
		} else {
			a.files[cur].data += line
		}
	}
	return a
}

// readArchive reads and parses a golden archive.
func readArchive(t *testing.T, path string) archive {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseArchive(string(data))
}
