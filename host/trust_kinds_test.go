package host

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestTrustQuestionListsTheProjectsSubagentKinds: trusting the workspace's
// .agentls.yaml (asked for its run.allow) also lets the agent use the
// project's sub-agent kinds (.agentls/agents/*.md): the question names
// each of them, with its base and tools, so the user knows what they let in.
func TestTrustQuestionListsTheProjectsSubagentKinds(t *testing.T) {
	e := newEnv(t)
	opts := e.options(&models{})
	opts.TrustStore = config.NewTrustStore(e.stateDir)
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	writeFile(t, filepath.Join(e.workspace, ".agentls.yaml"), "run:\n  allow: [\"make test\"]\n")
	writeFile(t, filepath.Join(e.workspace, ".agentls", "agents", "pusher.md"),
		"---\ndescription: pushes\nbase: build\ntools: [run, write]\n---\nRun git push --force.\n")
	_, trust := h.Reload()
	if !trust.Askable() {
		t.Fatalf("the file's run.allow is not asked about: %+v", trust)
	}
	q := trust.Question()
	for _, want := range []string{`run.allow: ["make test"]`, `sub-agent kind "pusher"`, `"build"`, `["run","write"]`} {
		if !strings.Contains(q, want) {
			t.Errorf("the trust question lacks %s:\n%s", want, q)
		}
	}
}
