//go:build linux

package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// bareRepoCalls are the model's tool calls that lay out folder (the
// workspace root when "") as a bare git repository whose core.fsmonitor
// creates marker: HEAD, config, objects/, refs/heads/.
func bareRepoCalls(folder, marker string) string {
	p := func(name string) string { return filepath.ToSlash(filepath.Join(folder, name)) }
	config := fmt.Sprintf("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = touch %s\n", marker)
	return fmt.Sprintf(`      - {id: w1, name: write, args: {path: %q, content: "ref: refs/heads/main\n"}}
      - {id: w2, name: write, args: {path: %q, content: %q}}
      - {id: w3, name: mkdir, args: {path: %q}}
      - {id: w4, name: mkdir, args: {path: %q}}
`, p("HEAD"), p("config"), config, p("objects"), p("refs/heads"))
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// TestAllowedGitNeverRunsAgentRepository: with run.allow "git status", the
// model lays out a subfolder as a bare repository whose fsmonitor runs its
// command, then runs `git status` there (cwd) or points git at it (-C,
// --git-dir): each is asked and the question names the folder. The allowed
// `git status` at the root runs unasked, in the user's repository, whose
// own core.fsmonitor does not run either; the same repository's fsmonitor
// runs for a command the user confirmed (so the marker would show it).
func TestAllowedGitNeverRunsAgentRepository(t *testing.T) {
	t.Parallel()
	needGit(t)
	dir := t.TempDir()
	userMarker := filepath.Join(dir, "fsmonitor-user-ran")
	agentMarker := filepath.Join(dir, "fsmonitor-agent-ran")
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.fsmonitor", "touch " + userMarker}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	var mu sync.Mutex
	var questions []string
	h := lsptest.Start(t, lsptest.Setup{
		Dir:      dir,
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"git status", "git log --*"}}},
		Handlers: lspclient.Handlers{AskUser: func(raw json.RawMessage) any {
			var p lsptest.AskUser
			_ = json.Unmarshal(raw, &p)
			q := p.Questions[0].Question
			mu.Lock()
			questions = append(questions, q)
			mu.Unlock()
			if strings.Contains(q, "git status --short") {
				return map[string]any{"answers": map[string]any{"decision": option("run")}}
			}
			return map[string]any{"answers": map[string]any{"decision": option("reject")}}
		}},
		Script: "name: bare\nsteps:\n  - tool_calls:\n" + bareRepoCalls("evil", agentMarker) + `
      - {id: cwd, name: run, args: {command: "git status", cwd: evil}}
      - {id: dashc, name: run, args: {command: "git -C evil status"}}
      - {id: gitdir, name: run, args: {command: "git log --git-dir=evil"}}
      - {id: gitdir2, name: run, args: {command: "git --git-dir=evil log"}}
      - {id: root, name: run, args: {command: "git status"}}
  - text: checked
  - tool_calls:
      - {id: confirmed, name: run, args: {command: "git status --short"}}
  - text: done
`,
	})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "status"), "end_turn")
	for _, id := range []string{"cwd", "dashc", "gitdir", "gitdir2"} {
		if status, out := h.ToolOutput(id); status != "failed" || !strings.Contains(fmt.Sprint(out["error"]), "the user rejected running") {
			t.Errorf("%s = %s %v, want asked and rejected", id, status, out)
		}
	}
	mu.Lock()
	n, first := len(questions), ""
	if n > 0 {
		first = questions[0]
	}
	mu.Unlock()
	if n != 4 || !strings.Contains(first, "it runs in evil") {
		t.Errorf("%d questions, the first %q: want 4, the first naming the folder evil", n, first)
	}
	if _, err := os.Stat(agentMarker); err == nil {
		t.Error("git ran the fsmonitor of the repository the agent laid out")
	}
	status, out := h.ToolOutput("root")
	if res, _ := out["result"].(map[string]any); status != "completed" || fmt.Sprint(res["exit_code"]) != "0" {
		t.Fatalf("allowed git status at the root = %s %v, want run unasked", status, out)
	}
	if _, err := os.Stat(userMarker); err == nil {
		t.Error("auto-allowed git status ran the repository's core.fsmonitor")
	}
	wantStop(t, h.Prompt(s.SessionID, "short status"), "end_turn")
	if status, out := h.ToolOutput("confirmed"); status != "completed" {
		t.Fatalf("confirmed git status --short = %s %v", status, out)
	}
	if _, err := os.Stat(userMarker); err != nil {
		t.Errorf("a git command the user confirmed did not run the repository's core.fsmonitor (%v): the marker cannot show that auto-allowed git skips it", err)
	}
}

// TestAllowedGitAtABareRoot: the model lays out the workspace root itself
// (no .git) as a bare repository with core.fsmonitor; `git status`, allowed
// by run.allow, runs unasked in the root and git refuses the repository
// (safe.bareRepository=explicit): the fsmonitor never runs.
func TestAllowedGitAtABareRoot(t *testing.T) {
	t.Parallel()
	needGit(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "fsmonitor-ran")
	h := lsptest.Start(t, lsptest.Setup{
		Dir:      dir,
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"git status"}}},
		Handlers: lspclient.Handlers{AskUser: decide("reject")},
		Script: "name: bareroot\nsteps:\n  - tool_calls:\n" + bareRepoCalls("", marker) + `
      - {id: root, name: run, args: {command: "git status"}}
  - text: done
`,
	})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "status"), "end_turn")
	if asks := h.AskUserRequests(""); len(asks) != 0 {
		t.Fatalf("%d questions: git status should run unasked", len(asks))
	}
	status, out := h.ToolOutput("root")
	if res, _ := out["result"].(map[string]any); status != "completed" || !strings.Contains(fmt.Sprint(res["output"]), "safe.bareRepository") {
		t.Errorf("git status = %s %v, want git to refuse the bare repository", status, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("auto-allowed git status ran the fsmonitor of the bare repository the agent laid out")
	}
}
