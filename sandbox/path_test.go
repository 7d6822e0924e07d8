package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSearchPath: a confined command's PATH keeps the absolute entries
// outside the given folders, in order, and drops relative entries (empty,
// `.`, `bin`) and entries at or below a folder, as written or through a
// symlink.
func TestSearchPath(t *testing.T) {
	ws := t.TempDir()
	other := t.TempDir()
	link := filepath.Join(other, "to-ws-bin")
	if err := os.MkdirAll(filepath.Join(ws, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "bin"), link); err != nil {
		t.Fatal(err)
	}
	folders := []string{ws}
	tests := []struct{ path, want string }{
		{"/usr/bin:/bin", "/usr/bin:/bin"},
		{":/usr/bin", "/usr/bin"},
		{"/usr/bin:", "/usr/bin"},
		{"/usr/bin::/bin", "/usr/bin:/bin"},
		{".:/usr/bin", "/usr/bin"},
		{"node_modules/.bin:/usr/bin", "/usr/bin"},
		{ws + ":/usr/bin", "/usr/bin"},
		{ws + "/bin:/usr/bin", "/usr/bin"},
		{ws + "/x/../bin:/usr/bin", "/usr/bin"},
		{link + ":/usr/bin", "/usr/bin"},
		{ws + "-sibling/bin:/usr/bin", ws + "-sibling/bin:/usr/bin"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := searchPath(tc.path, folders); got != tc.want {
			t.Errorf("searchPath(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if got := searchPath(".:/usr/bin", nil); got != "/usr/bin" {
		t.Errorf("without folders a relative entry stays: %q", got)
	}
}
