package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateIgnoreFileWithGit: a new session writes .agentls/.gitignore
// (agent/stateignore), and git then ignores the sessions while commands/
// and agents/ can be committed.
func TestStateIgnoreFileWithGit(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	m, _ := newTestManager(t, "steps:\n  - text: unused\n", &memEditor{}, nil)
	root := m.ws.Root()
	if out, err := exec.Command(git, "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	info, err := m.NewSession(context.Background(), "plan", "")
	if err != nil {
		t.Fatal(err)
	}
	writeCommand(t, filepath.Join(root, ".agentls", "commands"), "review.md", "Review.\n")
	writeCommand(t, filepath.Join(root, ".agentls", "agents"), "a.md", "A.\n")
	cmd := exec.Command(git, "-C", root, "status", "--porcelain", "--untracked-files=all")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v %s", err, out)
	}
	got := strings.Fields(string(out))
	want := []string{"??", ".agentls/.gitignore", "??", ".agentls/agents/a.md", "??", ".agentls/commands/review.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("git status = %q, want %q (session %s must stay ignored)", got, want, info.SessionID)
	}
}
