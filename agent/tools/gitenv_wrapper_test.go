package tools

import (
	"os"
	"os/exec"
	"testing"
)

// TestSafeGitBehindAWrapper: an exact rule may put git behind a command
// that runs another (`timeout 60 git fetch origin`, `nohup git status`);
// that git is still auto-allowed git and runs with the safe environment.
// Before, only a line whose first word was git got it, so a bare
// repository the agent laid out in the workspace folder with file tools
// alone (HEAD, config, objects/, refs/: none protected) was used, and its
// remote's uploadpack (`sh x`) ran the agent's script unasked.
func TestSafeGitBehindAWrapper(t *testing.T) {
	for _, line := range []string{"timeout 60 git fetch origin", "nohup git status", "nice git log", "time git status", "flock .lock git status", "setsid git status"} {
		if g := safeGitFor(line, line, "/ws/root"); len(g.set) == 0 {
			t.Errorf("%q: git behind a wrapper runs without the safe environment", line)
		}
	}
	for _, line := range []string{"make git", "sh git.sh", "cat git"} {
		if g := safeGitFor(line, line, "/ws/root"); len(g.set) != 0 {
			t.Errorf("%q: not git, but got the git environment", line)
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	env := newFake(t, map[string]string{
		"HEAD":   "ref: refs/heads/main\n",
		"config": "[core]\n\trepositoryformatversion = 0\n\tbare = true\n[remote \"origin\"]\n\turl = /nonexistent\n\tuploadpack = sh x\n",
		"x":      "echo planted > pwned\nexit 1\n",
	})
	for _, d := range []string{"objects", "refs/heads"} {
		if err := os.MkdirAll(env.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env.confirmRule = "timeout 60 git fetch origin"
	var got RunOutput
	value(t, call(t, runTool, env, `{"command":"timeout 60 git fetch origin"}`), &got)
	if _, err := os.Stat(env.path("pwned")); err == nil {
		t.Fatalf("auto-allowed `timeout 60 git fetch origin` ran the planted repository's uploadpack: %+v", got)
	}
}
