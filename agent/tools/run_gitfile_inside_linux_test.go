package tools

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestRunAutoAllowedCannotWriteAGitFolderAGitFileNames: a workspace whose
// `.git` is a file naming a git folder inside the workspace under another
// name (`git init --separate-git-dir=.gitstore`, `git clone
// --separate-git-dir …`) is a repository like any other: git runs that
// folder's hooks and core.fsmonitor, so a command keeps them as a .git
// folder's — read-only whole for one that runs without asking, its hooks
// and config for one the user approved. Before (found by the sandbox audit
// helper), only the `.git` file was kept, and an auto-allowed `go test
// ./...` whose test code the agent wrote planted core.fsmonitor and a
// pre-commit hook, which run outside any sandbox at the next `git status`
// or commit.
func TestRunAutoAllowedCannotWriteAGitFolderAGitFileNames(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	for _, rule := range []string{"go test ./...", ""} { // auto-allowed (the line stands for the test code it runs); approved
		env := newFake(t, map[string]string{"a.txt": "a\n"})
		root := env.ws.Root()
		gitOut(t, root, "init", "-q", "--separate-git-dir="+root+"/.gitstore")
		env.confirmRule = rule
		args, err := json.Marshal(map[string]string{"command": `printf '[core]\n\tfsmonitor = "touch pwned; :"\n' >> .gitstore/config; echo 'touch pwned' > .gitstore/hooks/pre-commit; chmod +x .gitstore/hooks/pre-commit`})
		if err != nil {
			t.Fatal(err)
		}
		var got RunOutput
		value(t, call(t, runTool, env, string(args)), &got)
		if b, _ := os.ReadFile(env.path(".gitstore/config")); strings.Contains(string(b), "fsmonitor") {
			t.Errorf("rule %q: the command wrote the repository's config (auto_run %q): %q", rule, got.AutoRun, b)
		}
		if _, err := os.Stat(env.path(".gitstore/hooks/pre-commit")); err == nil {
			t.Errorf("rule %q: the command planted a pre-commit hook (auto_run %q)", rule, got.AutoRun)
		}
	}
}
