package stateignore

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEnsure: .agentls/.gitignore is written where there is none, replaces
// the old ignore-everything files, and never a file of the user's.
func TestEnsure(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, before, want string }{
		{"none", "", Text},
		{"old one-line file", oldStateIgnores[0], Text},
		{"old bare file", oldStateIgnores[1], Text},
		{"the user's own", "*.chat\n", "*.chat\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, ".agentls", ".gitignore")
			if tt.before != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tt.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			Ensure(root)
			data, err := os.ReadFile(path)
			if got := string(data); err != nil || got != tt.want {
				t.Fatalf(".gitignore = %q, want %q", got, tt.want)
			}
		})
	}
}
