package instructions

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// TestLoadAsksMayRead: a workspace file is loaded only when MayRead allows
// its real path (nil allows nothing); the user's own file is not the
// workspace's and needs no leave; a touched folder's file comes after the
// root's.
func TestLoadAsksMayRead(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, text := range map[string]string{"AGENTS.md": "root\n", "d/AGENTS.md": "d\n"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	user := filepath.Join(home, "AGENTS.md")
	if err := os.WriteFile(user, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	touched := DirsOf(ws, "d/AGENTS.md")
	for _, tc := range []struct {
		name    string
		mayRead func(string) bool
		want    []string
	}{
		{"nil allows no workspace file", nil, []string{"~/AGENTS.md"}},
		{"all allowed", func(string) bool { return true }, []string{"~/AGENTS.md", "AGENTS.md", "d/AGENTS.md"}},
		{"the root's refused", func(abs string) bool { return filepath.Dir(abs) != ws.Root() }, []string{"~/AGENTS.md", "d/AGENTS.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := Load(Sources{Workspace: ws, UserFile: user, UserHome: home, Touched: touched, MaxBytes: 1000, MayRead: tc.mayRead})
			var got []string
			for _, f := range set.Files() {
				got = append(got, f.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("loaded %q, want %q", got, tc.want)
			}
		})
	}
	if set := Load(Sources{Workspace: ws, UserFile: user, MaxBytes: 0, MayRead: func(string) bool { return true }}); len(set.Files()) != 0 || set.Hash() != ([32]byte{}) {
		t.Fatalf("MaxBytes 0 loads %+v", set.Files())
	}
}

func TestSummary(t *testing.T) {
	t.Parallel()
	got := Summary([]agentproto.InstructionFile{{Path: "AGENTS.md", Bytes: 1200}, {Path: "src/AGENTS.md", Bytes: 300, Cut: true}, {Path: "big", Bytes: 3_400_000}}, nil)
	const want = "Loaded project instructions: AGENTS.md (1.2 KB), src/AGENTS.md (300 B, cut), big (3.4 MB)"
	if got != want {
		t.Fatalf("Summary = %q, want %q", got, want)
	}
}
