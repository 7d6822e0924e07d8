package acp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

const argRules = buildByDefault + `run: {allow: ["git diff *", "go test *", "tar *", "touch *", "git status"]}` + "\n"

// TestRunRulesReadArguments: on the ACP face, under prefix rules, an
// option the rule does not name, another cwd and an unquoted glob are
// asked, without "Always allow" (so a file named
// `--checkpoint-action=exec=sh pwn.sh` never runs unasked); the question
// names the folder; a plain operand runs unasked.
func TestRunRulesReadArguments(t *testing.T) {
	t.Parallel()
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{userConfig: argRules, client: client, files: map[string]string{
		"sub/.keep": "", "pwn.sh": "touch pwned-script\n", "--checkpoint-action=exec=sh pwn.sh": "", "--checkpoint=1": "",
	}, script: `
steps:
  - tool_calls:
      - {id: diff, name: run, args: {command: "git diff --output=pwned-diff"}}
      - {id: exec, name: run, args: {command: "go test -exec=./pwn.sh ./..."}}
      - {id: sub, name: run, args: {command: "touch pwned-sub", cwd: sub}}
      - {id: glob1, name: run, args: {command: "tar cf b.tar *"}}
      - {id: glob2, name: run, args: {command: "tar cf b.tar *"}}
      - {id: ok, name: run, args: {command: "touch ok"}}
  - expect:
      tool_result_contains:
        diff: ["the user rejected running"]
        exec: ["the user rejected running"]
        sub: ["the user rejected running"]
        glob1: ["the user rejected running"]
        glob2: ["the user rejected running"]
        ok: ['"exit_code":0']
    text: "Done."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "run"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	perms := client.permissionsSeen()
	if len(perms) != 5 {
		t.Fatalf("%d permission requests, want 5", len(perms))
	}
	for _, p := range perms {
		if ids := optionIDs(p); slices.Contains(ids, "allow_always/allow_always") {
			t.Errorf("%s: options %v offer allow_always", p.ToolCall.ToolCallId, ids)
		}
	}
	call, _ := json.Marshal(perms[2].ToolCall)
	if perms[2].ToolCall.ToolCallId != "sub" || !strings.Contains(string(call), "Folder: "+filepath.Join(r.dir, "sub")) {
		t.Errorf("the cwd question does not name the folder: %s", call)
	}
	for _, name := range []string{"pwned-diff", "sub/pwned-sub", "b.tar", "pwned-script"} {
		if _, err := os.Stat(filepath.Join(r.dir, name)); err == nil {
			t.Errorf("%s exists: a command ran without the user's consent", name)
		}
	}
	if _, err := os.Stat(filepath.Join(r.dir, "ok")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
}

// TestAllowedGitInTheClientTerminal: the model lays out the workspace root
// as a bare repository whose core.fsmonitor creates a marker; `git status`,
// allowed by the user's run.allow, runs unasked in the client's terminal
// with agentls's safe git configuration in its env: git refuses the
// repository and the fsmonitor never runs.
func TestAllowedGitInTheClientTerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "fsmonitor-ran")
	config := fmt.Sprintf("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = touch %s\n", marker)
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{dir: dir, userConfig: argRules, client: client, caps: terminalCaps, script: fmt.Sprintf(`
steps:
  - tool_calls:
      - {id: w1, name: write, args: {path: HEAD, content: "ref: refs/heads/main\n"}}
      - {id: w2, name: write, args: {path: config, content: %q}}
      - {id: w3, name: mkdir, args: {path: objects}}
      - {id: w4, name: mkdir, args: {path: refs/heads}}
      - {id: root, name: run, args: {command: "git status"}}
  - expect: {tool_result_contains: {root: ["safe.bareRepository"]}}
    text: "Done."
`, config)})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "status"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	if n := len(client.permissionsSeen()); n != 0 {
		t.Errorf("%d permission requests: git status should run unasked", n)
	}
	client.terms.mu.Lock()
	terminals := len(client.terms.byID)
	client.terms.mu.Unlock()
	if terminals != 1 {
		t.Errorf("%d client terminals, want git status run in one", terminals)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("auto-allowed git status in the client's terminal ran the fsmonitor of the repository the agent laid out")
	}
}
